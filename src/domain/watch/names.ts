/**
 * When an exhibitor record is a watched account: its company name or its domain equals the account's
 * after normalisation, and nothing looser. Exact on purpose: `Acme` does not match `Acme Robotics`,
 * nor `Initech` `Initech Systems` (a channel that wants both watches both); descriptions are never read.
 */

/** Legal forms dropped from the end of a name (`Acme Inc.`, `Foo GmbH & Co. KG` are `acme`, `foo`). */
const LEGAL_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'kg',
  'sa',
  'sas',
  'sarl',
  'bv',
  'nv',
  'plc',
  'co',
  'corp',
  'corporation',
  'srl',
  'spa',
  'oy',
  'ab',
  'as',
  'pty',
  'pte',
]);

/** A name's words: no accents, lower case, `&` as `and`, dots and apostrophes joined, other punctuation a space. */
function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word.length > 0);
}

/** The comparable form of a company name: `Acme Robotics, Inc.` and `ACME robotics` are `acme robotics`. */
export function normaliseCompanyName(name: string): string {
  const words = nameWords(name);
  let dropped = false;
  // Drop legal forms from the end (and an `and` between two of them), never the whole name.
  while (words.length > 1) {
    const last = words[words.length - 1] ?? '';
    if (!LEGAL_SUFFIXES.has(last) && !(dropped && last === 'and')) break;
    words.pop();
    dropped = true;
  }
  return words.join(' ');
}

/**
 * The comparable form of a domain or web address: `https://www.Globex.com/about` is `globex.com`.
 * Null when nothing like a host name is left.
 */
export function normaliseDomain(domainOrUrl: string): string | null {
  const host = domainOrUrl
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/^[^@]*@/, '')
    .replace(/:\d*$/, '')
    .replace(/\.$/, '')
    .replace(/^www\d*\./, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : null;
}

/** True when the words look like a domain or address (`globex.com`, `https://globex.com`), not a name. */
export function looksLikeDomain(entry: string): boolean {
  const trimmed = entry.trim();
  if (/\s/.test(trimmed)) return false;
  const host = normaliseDomain(trimmed);
  // A top-level part of two letters or more: `Booking.com` is a domain, `S.A.` and `3.14` are not.
  return host !== null && /\.[a-z]{2,}$/.test(host);
}

/** True for words that are only a legal form (`Inc.`, `LLC`, `GmbH & Co. KG`): `Acme, Inc.` is one name. */
export function isLegalFormOnly(words: string): boolean {
  const parts = nameWords(words);
  return parts.length > 0 && parts.every((word) => LEGAL_SUFFIXES.has(word) || word === 'and');
}

/** An account's key: what identifies it among a channel's accounts and what exhibitor records must match. */
export function accountKey(entry: string): string | null {
  if (looksLikeDomain(entry)) {
    const domain = normaliseDomain(entry);
    return domain ? `domain:${domain}` : null;
  }
  // Punctuation alone (`--`, `&&`) names nothing.
  if (!/[\p{L}\p{N}]/u.test(entry)) return null;
  return `name:${normaliseCompanyName(entry)}`;
}

/** The fields of an exhibitor record that matching reads (the service's exhibitor summary has them). */
export interface ExhibitorIdentity {
  id: string;
  companyName: string;
  domain?: string | null;
  website?: string | null;
}

/** Whether one exhibitor record is the account: its name (name keys) or domain or website (domain keys). */
export function exhibitorMatches(key: string, exhibitor: ExhibitorIdentity): boolean {
  if (key.startsWith('name:')) return `name:${normaliseCompanyName(exhibitor.companyName)}` === key;
  if (!key.startsWith('domain:')) return false;
  return [exhibitor.domain, exhibitor.website].some(
    (address) => typeof address === 'string' && `domain:${normaliseDomain(address)}` === key,
  );
}

/** What the exhibitor records seen say about an account: none of them, exactly one, or several to choose from. */
export type AccountMatch<Exhibitor extends ExhibitorIdentity> =
  { kind: 'none' } | { kind: 'one'; exhibitor: Exhibitor } | { kind: 'ambiguous'; candidates: Exhibitor[] };

/**
 * Matches an account against exhibitor records (from any list: one record may be seen several times,
 * once per show): several distinct exhibitor ids are ambiguous, shown to the channel to choose from.
 */
export function matchAccount<Exhibitor extends ExhibitorIdentity>(
  key: string,
  exhibitors: readonly Exhibitor[],
): AccountMatch<Exhibitor> {
  const byId = new Map<string, Exhibitor>();
  for (const exhibitor of exhibitors)
    if (!byId.has(exhibitor.id) && exhibitorMatches(key, exhibitor)) byId.set(exhibitor.id, exhibitor);
  const [first, ...others] = byId.values();
  if (!first) return { kind: 'none' };
  return others.length === 0
    ? { kind: 'one', exhibitor: first }
    : { kind: 'ambiguous', candidates: [first, ...others] };
}

/** Whether two words differ by at most one letter added, dropped or changed (`payment`, `paymnt`, `paymant`). */
function oneLetterApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end += 1;
  return Math.max(a.length, b.length) - start - end <= 1;
}

/** Shorter words than this must be typed exactly: one letter turns `ai` into `al`. */
const TOLERANT_WORD_LENGTH = 4;

/** Whether a typed word is near a record's word: equal, its plural or singular (`payments`, `boxes`), or a letter apart. */
function nearWord(typed: string, word: string): boolean {
  if (typed === word) return true;
  if (/^\d+$/.test(typed) || /^\d+$/.test(word)) return false;
  const [shorter, longer] = typed.length <= word.length ? [typed, word] : [word, typed];
  if (longer === `${shorter}s` || longer === `${shorter}es`) return true;
  return shorter.length >= TOLERANT_WORD_LENGTH && oneLetterApart(typed, word);
}

/**
 * Whether a record is a near match of a name not found: its company name holds the name's words, in
 * order, among others (`Initech Retail` for `Initech`), each word as typed, a plural or singular of it,
 * or a letter apart (`Globex Payment` for `Globex Payments`). Offered to choose from, never matched alone.
 */
export function isNearMatch(key: string, exhibitor: ExhibitorIdentity): boolean {
  if (!key.startsWith('name:') || exhibitorMatches(key, exhibitor)) return false;
  const wanted = key.slice('name:'.length).split(' ').filter(Boolean);
  const words = normaliseCompanyName(exhibitor.companyName).split(' ');
  if (wanted.length === 0) return false;
  for (let at = 0; at + wanted.length <= words.length; at += 1)
    if (wanted.every((typed, index) => nearWord(typed, words[at + index] ?? ''))) return true;
  return false;
}

/** The near matches among records (each exhibitor id once, in the order seen), at most `limit`. */
export function nearMatches<Exhibitor extends ExhibitorIdentity>(
  key: string,
  exhibitors: readonly Exhibitor[],
  limit: number,
): Exhibitor[] {
  const byId = new Map<string, Exhibitor>();
  for (const exhibitor of exhibitors)
    if (byId.size < limit && !byId.has(exhibitor.id) && isNearMatch(key, exhibitor))
      byId.set(exhibitor.id, exhibitor);
  return [...byId.values()];
}

/** The name an account is shown by: the service's company name once resolved, else what the user wrote. */
export const shownName = (account: { label: string; companyName?: string | undefined }): string =>
  account.companyName ?? account.label;
