/**
 * The did-you-mean of filters, time zones and command words: edit distance counting a swap of two
 * neighbours as one edit (optimal string alignment), so that `unlcok` is one edit from `unlock`.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `word` (ignoring case): within 2 edits, or 1 for words of up to 4 letters,
 * where 2 edits would turn almost anything into a suggestion. Ties go to the one `word` starts
 * (`of` → `off`, not `on`): a word cut short is the likelier slip.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const wanted = word.toLowerCase();
  const limit = wanted.length <= 4 ? 1 : 2;
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const score = distance - (lower.startsWith(wanted) ? 0.5 : 0);
    if (distance <= limit && (!best || score < best.score)) best = { candidate, score };
  }
  return best?.candidate;
}
