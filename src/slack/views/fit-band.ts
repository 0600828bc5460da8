/** The fit band and score bar, the same wherever a show's fit is named (cards, digests, plans, unfurls). */
export type FitBand = 'Recommended' | 'Consider' | 'Not recommended';

const BAND_BY_RECOMMENDATION: Record<string, FitBand> = {
  recommended: 'Recommended',
  consider: 'Consider',
  not_recommended: 'Not recommended',
};

export const BAND_MARK: Record<FitBand, string> = {
  Recommended: ':large_green_circle:',
  Consider: ':large_yellow_circle:',
  'Not recommended': ':red_circle:',
};

/** The band in words: the service's `recommendation`, else the score bands 7–10 / 4–<7 / <4. */
export function fitBand(score: number, recommendation?: string | null): FitBand {
  const named = recommendation ? BAND_BY_RECOMMENDATION[recommendation] : undefined;
  if (named) return named;
  if (score >= 7) return 'Recommended';
  if (score >= 4) return 'Consider';
  return 'Not recommended';
}

/** `■■■■■■■□□□`: ten cells, one per point, rounded. */
export function scoreBar(score: number): string {
  const filled = Math.min(10, Math.max(0, Math.round(score)));
  return '■'.repeat(filled) + '□'.repeat(10 - filled);
}
