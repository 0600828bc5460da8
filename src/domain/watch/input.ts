import { WATCH_LIMITS, type WatchAccountInput } from '../ports/watch.ts';
import { accountKey, isLegalFormOnly } from './names.ts';

/** Why one entry of a watch list was not taken. */
export type RefusedEntryReason = 'blank' | 'too-long' | 'no-name';

export interface RefusedEntry {
  /** The entry as written (cut to the entry length, for showing). */
  entry: string;
  reason: RefusedEntryReason;
}

export type WatchListReading =
  | { ok: true; accounts: WatchAccountInput[]; refused: RefusedEntry[] }
  | { ok: false; reason: 'too-many'; count: number; limit: number };

const COMPETITOR_MARK = /^competitor\s*:\s*/i;
/** `competitor Stripe`: the mark written without its colon, which would watch a company named so. */
const COMPETITOR_WITHOUT_COLON = /^competitor\s+([^:\s].*)$/i;

function readEntry(raw: string): WatchAccountInput | RefusedEntry {
  const trimmed = raw.trim();
  const competitor = COMPETITOR_MARK.test(trimmed);
  const label = trimmed.replace(COMPETITOR_MARK, '').trim();
  if (label.length === 0) return { entry: trimmed, reason: 'blank' };
  if (label.length > WATCH_LIMITS.entryLength)
    return { entry: label.slice(0, WATCH_LIMITS.entryLength), reason: 'too-long' };
  const key = accountKey(label);
  // Punctuation alone (`--`, `&`) names nothing.
  if (!key) return { entry: label, reason: 'no-name' };
  return { key, label, kind: competitor ? 'competitor' : 'target' };
}

/**
 * A line's entries: a trailing comma ends the line, any other empty entry (`a,,b`) is one, and a legal
 * form after a comma belongs to the name before it (`Acme, Inc.` is one entry).
 */
function entriesOf(line: string): string[] {
  const entries: string[] = [];
  for (const entry of line.split(',')) {
    const previous = entries[entries.length - 1];
    if (previous !== undefined && previous.trim() !== '' && isLegalFormOnly(entry))
      entries[entries.length - 1] = `${previous},${entry}`;
    else entries.push(entry);
  }
  if (entries.length > 1 && entries[entries.length - 1]?.trim() === '') entries.pop();
  return entries;
}

/**
 * Reads a watch list as typed or pasted: names or domains, comma- or newline-separated, `competitor:`
 * before one marking a competitor. Entries with the same key (`Acme Inc.` and `acme`) are one account,
 * written as first given, a competitor if any of them says so. Blank lines are skipped; a blank entry
 * (`a,,b`, a bare `competitor:`) is refused with the others that cannot be read. More lines or
 * accounts than a channel may watch are refused whole.
 */
export function readWatchList(text: string): WatchListReading {
  const lines = text.split(/\r?\n/).filter((line) => line.trim().length > 0);
  const limit = WATCH_LIMITS.accountsPerChannel;
  if (lines.length > limit) return { ok: false, reason: 'too-many', count: lines.length, limit };
  const byKey = new Map<string, WatchAccountInput>();
  const refused: RefusedEntry[] = [];
  for (const entry of lines.flatMap(entriesOf)) {
    const read = readEntry(entry);
    if (!('key' in read)) {
      refused.push(read);
      continue;
    }
    const earlier = byKey.get(read.key);
    if (!earlier) byKey.set(read.key, read);
    else if (read.kind === 'competitor') earlier.kind = 'competitor';
  }
  if (byKey.size > limit) return { ok: false, reason: 'too-many', count: byKey.size, limit };
  return { ok: true, accounts: [...byKey.values()], refused };
}

/** The first entry of `text` that reads as a competitor mark without its colon, as it was surely meant (`competitor:Stripe`). */
export function competitorWithoutColon(text: string): string | undefined {
  for (const entry of text.split(/\r?\n/).flatMap(entriesOf)) {
    const name = COMPETITOR_WITHOUT_COLON.exec(entry.trim())?.[1];
    if (name !== undefined) return `competitor:${name.trim()}`;
  }
  return undefined;
}

/** How many accounts `text` lists (distinct ones; its lines when there are more than a channel may watch). */
export function accountsListed(text: string): number {
  const reading = readWatchList(text);
  return reading.ok ? reading.accounts.length : reading.count;
}
