/*
 * Slack text that is safe by construction. `Mrkdwn` is text Slack may parse (a block's text, a
 * message's notification `text`): a plain `string` does not satisfy it, so data from a user or the
 * service reaches Slack only through `escapeMrkdwn`, the `mk` template, or the few helpers in
 * format.ts that make a mention, a link or a date token on purpose. Text the bot writes itself (a
 * string literal, or a union of them) is taken as it is. The lint keeps `as Mrkdwn` to this file.
 */

declare const MRKDWN: unique symbol;
/** Text whose `<`, `>` and `&` are either escaped or the bot's own markup. */
export type Mrkdwn = string & { readonly [MRKDWN]: true };

/**
 * A member of T that may hold any text: `string`, or a template type such as `Hi ${string}` (what a
 * backtick template with a raw hole is typed as). A finite literal makes a record with required keys.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the point: no required key
type OpenText<T> = T extends Mrkdwn ? never : {} extends Record<T & string, 1> ? true : never;

/** A string the bot wrote (a literal type, or a union of them) or already-safe text; any raw text is refused. */
export type BotText<T extends string> = [OpenText<T>] extends [never] ? T : Mrkdwn;

/** What `mk` takes in its holes: safe text, the bot's literals, numbers. */
type Hole<T> = T extends number ? T : T extends string ? BotText<T> : never;

/** Escapes service and user text for mrkdwn, so `<!channel>` or `<@U1>` in data never pings anyone. */
export function escapeMrkdwn(text: string): Mrkdwn {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') as Mrkdwn;
}

/**
 * mrkdwn from a template: `mk\`*${escapeMrkdwn(name)}* at ${formatLink(url)}\``. Each hole must be
 * `Mrkdwn`, a number or a literal the bot wrote; a raw string does not compile. (Not `md`: Prettier
 * reformats a template tagged `md` as Markdown, which would change the text.)
 */
export function mk<const T extends readonly unknown[]>(
  strings: TemplateStringsArray,
  ...values: { [K in keyof T]: Hole<T[K]> }
): Mrkdwn {
  return strings.reduce((text, part, index) => `${text}${String(values[index - 1])}${part}`) as Mrkdwn;
}

/** The bot's own literal as `Mrkdwn` (where a literal type is lost, as in an array of lines). */
export const botText = <T extends string>(text: BotText<T>): Mrkdwn => text as Mrkdwn;

/**
 * The bot's own mrkdwn carried as a string through its own worker job (a Home notice): written by
 * the bot's listeners with data escaped, and invoked by the bot alone. The lint allows it in the home
 * and export jobs only.
 */
export const ownJobText = (text: string): Mrkdwn => text as Mrkdwn;

/** Safe parts joined by a separator the bot wrote; absent parts (null, undefined) leave no orphan separator. */
export function joinMrkdwn<S extends string>(
  parts: readonly (Mrkdwn | '' | null | undefined)[],
  separator: BotText<S>,
): Mrkdwn {
  return parts.filter((part) => part !== null && part !== undefined).join(separator) as Mrkdwn;
}

/** The text without leading and trailing white space; still safe. */
export const trimMrkdwn = (text: Mrkdwn): Mrkdwn => text.trim() as Mrkdwn;

/** The text with bold marks taken out (a notification shows them as `*`); still safe. */
export const withoutBold = (text: Mrkdwn): Mrkdwn => text.replace(/\*/g, '') as Mrkdwn;

/**
 * Cuts text to `max` characters, ending in `…`. Never leaves half an entity (`&am`), half a Slack control
 * sequence (`<https://x|lab`) or half a surrogate pair behind, so cut mrkdwn is still safe.
 */
export function truncate(text: Mrkdwn, max: number): Mrkdwn;
export function truncate(text: string, max: number): string;
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  cut = cut.replace(/&[a-z0-9#]*$/i, '').replace(/<[^>]*$/, '');
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
