import { readWatchList } from '../../../domain/watch/input.ts';
import { formatted } from './list-words.ts';

/**
 * A typed or pasted watch list, read as `add`, the import form and the import job all read it: its
 * accounts, or why nothing can be added, in one set of words.
 */
export function readListOrRefuse(text: string) {
  const reading = readWatchList(text);
  if (!reading.ok)
    return {
      ok: false as const,
      problem: `That is ${formatted(reading.count)} accounts; a channel watches at most ${formatted(reading.limit)}. Nothing was added.`,
    };
  if (reading.accounts.length === 0)
    return { ok: false as const, problem: 'No company name or domain was found in that. Nothing was added.' };
  return reading;
}
