/* The hostile-text property test's builders of `watch shows` (its card, its Home and canvas sections). */
import { rankWatchedShows } from '../../../src/domain/watch/where.ts';
import { planCanvasMarkdown } from '../../../src/slack/features/plan/canvas.ts';
import { whereWatchedBlock } from '../../../src/slack/features/watch/home-views.ts';
import { accountsAtWords, watchShowsAnswer } from '../../../src/slack/features/watch/shows-views.ts';
import { account, planView, type Pool, type Rendered } from '../hostile-fixtures.ts';

/** The accounts' shows ranked, each told show with a country from the service. */
const ranked = (s: Pool) =>
  rankWatchedShows(
    [0, 1, 2, 3].map((n) => {
      const watched = account(s, n);
      return { ...watched, told: (watched.told ?? []).map((show) => ({ ...show, country: s(n + 7) })) };
    }),
    '2027-01-01',
  );

export const WATCH_SHOWS_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  watchShowsAnswer: (s) => ({
    messages: [
      watchShowsAnswer({
        rows: ranked(s).map((shown, n) => ({
          shown,
          fit: { score: 7.5, band: 'Consider' },
          cost:
            n % 2 === 0
              ? { state: 'locked', credits: 2000, estimated: false }
              : { state: 'not-offered', reason: s(n) },
        })),
        page: { page: 1, pages: 2, total: 8 },
        filters: { region: s(9), when: s(10), whenLabel: s(11) },
        accounts: 4,
        unresolved: 2,
        today: '2027-01-01',
      }),
    ],
  }),
  accountsAtWords: (s) => ({ mrkdwn: ranked(s).map(accountsAtWords) }),
  whereWatchedBlock: (s) => {
    const shows = ranked(s);
    const block = whereWatchedBlock({
      channelId: 'C0GENERAL',
      shows: shows.slice(0, 3),
      showCount: shows.length,
    });
    return { blocks: block ? [block] : [] };
  },
  watchedShowsCanvasLines: (s) => ({
    canvas: {
      markdown: planCanvasMarkdown({ ...planView(s), watchedShows: ranked(s) }),
      benign: planCanvasMarkdown({ ...planView(() => 'x'), watchedShows: ranked(() => 'x') }),
    },
  }),
};
