import { editDistance } from '../kit/closest-word.ts';

/** A command word as did-you-mean weighs it: whether any form of it spends credits. */
export interface WordToGuess {
  word: string;
  charges: boolean;
}

/**
 * The word nearest to a typo: within 2 edits, or 1 for words of up to 4 letters. A word the typo
 * starts is nearer (a word cut short is the likelier slip). Between words as near, a free one wins
 * over one that spends credits, whatever their order.
 */
export function nearestWord(typo: string, words: readonly WordToGuess[]): string | undefined {
  const wanted = typo.toLowerCase();
  const limit = wanted.length <= 4 ? 1 : 2;
  let best: { word: string; score: number } | undefined;
  for (const { word, charges } of words) {
    const distance = editDistance(wanted, word);
    // Scores step by halves: a quarter only breaks a tie.
    const score = distance - (word.startsWith(wanted) ? 0.5 : 0) + (charges ? 0.25 : 0);
    if (distance <= limit && (!best || score < best.score)) best = { word, score };
  }
  return best?.word;
}
