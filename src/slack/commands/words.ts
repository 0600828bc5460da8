/**
 * How `/events` text becomes words, before any command reads them.
 * - Slack formatting is dropped (`*bold*`, `_it_`, `~strike~`, backticks; a link becomes its label, or
 *   its address without one). Mentions, channels and @here/@channel stay, so they can be refused.
 * - Words keep "quoted phrases" and `key:"quoted value"` together.
 */

/** Words, keeping "quoted phrases" and `key:"quoted value"` together. */
export function tokenize(text: string): string[] {
  return [...text.matchAll(/(?:[\w-]+:)?"[^"]*"|\S+/g)].map((match) => match[0]);
}

/**
 * What the user typed, without Slack's markup: links become their label (or address), `&lt;` and co.
 * are undone, and `*bold*`, `_italic_`, `~strike~` and `code` markers at word edges are dropped.
 * Mentions (`<@U1>`, `<!here>`, `<#C1|x>`) stay, so they can be refused.
 */
export function plainText(text: string): string {
  return text
    .replace(/<((?:https?|mailto|tel):[^|>]*)(?:\|([^>]*))?>/gi, (_link, address: string, label?: string) =>
      label?.trim() ? label : address.replace(/^(?:mailto|tel):/i, ''),
    )
    .replace(/[\u201C\u201D\u201E]/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/(^|[\s:"])[*_~`]+/g, '$1')
    .replace(/[*_~`]+(?=$|[\s"])/g, '');
}
