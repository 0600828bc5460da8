/*
 * What Slack would render as a mention or a labelled link in mrkdwn: `<!here>`, `<!subteam^S1>`,
 * `<@U1>`, `<#C1>`, `<https://x|label>`, `<mailto:x|label>`. Escaped text (`&lt;!here&gt;`) is none of them.
 */
const LIVE_TOKENS =
  /<!(?:channel|here|everyone|subteam\^)[^>]*>|<[@#][^>]*>|<[a-z][a-z0-9+.-]*:[^>|]*\|[^>]*>/gi;

/** The live tokens in one text. */
export const liveTokensIn = (text: string): string[] => text.match(LIVE_TOKENS) ?? [];

/**
 * Every text Slack shows of a message's blocks or a view (the `text` of each text object, header,
 * field, button, option and dialog); button values, ids and URLs are data, not shown.
 */
export function renderedTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(renderedTexts);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'text' && typeof value === 'string' ? [value] : renderedTexts(value),
  );
}
