import { mk } from './mrkdwn.ts';

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

/**
 * What the score rests on, said wherever "for your profile" is: the service scores the show against the
 * profile stored in the team's account, which the API cannot read (src/eis/ASSUMPTIONS.md, "Fit score and profile").
 */
export const FIT_PROFILE_WORDS = mk`The score is the Event Intelligence service’s fit of this show against the company profile stored in your team’s Event Intelligence account (the account whose API key this workspace connected). That profile is set in the service’s web app, not in Slack, and the bot cannot read it: change it there and scores change with it. Recommended is 7–10, Consider 4 to under 7, Not recommended under 4.`;

/** The short form, where a card has room for one line (unfurls). */
export const FIT_PROFILE_SHORT = mk`Fit against the company profile in your team’s Event Intelligence account (set in its web app): \`/events help fit\` says more.`;
