/* The hostile-text property test's builders of watch and plan views. */
import { toCsv } from '../../../src/domain/csv.ts';
import { planCanvasMarkdown } from '../../../src/slack/features/plan/canvas.ts';
import { planHomeBlocks } from '../../../src/slack/features/plan/home-views.ts';
import { budgetsAnswer, budgetWarningMessage, planCard } from '../../../src/slack/features/plan/views.ts';
import {
  addedAnswer,
  importedAnswer,
  watchListAnswer,
  watchStatusAnswer,
} from '../../../src/slack/features/watch/answer-views.ts';
import { choiceRefused, chosenAnswer } from '../../../src/slack/features/watch/choice-views.ts';
import { WATCH_CSV_HEADER, watchCsvRows } from '../../../src/slack/features/watch/export.ts';
import { homeWatchOf, watchHomeBlocks } from '../../../src/slack/features/watch/home-views.ts';
import {
  alertRowsAnswer,
  watchAlertMessage,
  watchNoticeMessage,
} from '../../../src/slack/features/watch/views.ts';
import { errorMessage } from '../../../src/slack/views/messages.ts';
import { type Rendered, type Pool, show, account, planView } from '../hostile-fixtures.ts';

/** Each builder, by name, with the fields a user or the service fills taken from the pool. */
export const WATCH_AND_PLAN_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  watchAlertMessage: (s) => {
    const rows = [0, 1].map((n) => ({
      account: account(s, n),
      show: show(s, n + 2),
      people: [{ personnelId: 'P1', name: s(n + 3), title: s(n + 4) }],
      fit: { score: 7, recommendation: s(n + 5) },
    }));
    return { messages: [watchAlertMessage({ channelId: 'C0GENERAL', rows, more: 3, all: rows })] };
  },
  alertRowsAnswer: (s) => ({
    messages: [
      alertRowsAnswer([0, 1].map((n) => ({ account: { ...account(s, n), muted: true }, show: show(s, n) }))),
    ],
  }),
  watchNoticeMessage: (s) => ({
    messages: [
      watchNoticeMessage({
        channelId: 'C0GENERAL',
        threadTs: null,
        changed: [
          { account: account(s, 0), before: show(s, 1), now: { ...show(s, 2), dateStart: '2027-04-01' } },
        ],
        dropped: [{ account: account(s, 3), show: show(s, 4) }],
      }),
    ],
  }),
  addedAnswer: (s) => ({
    messages: [
      addedAnswer({
        added: [0, 1, 2, 3].map((n) => ({ account: account(s, n), shows: [show(s, n)] })),
        alreadyWatched: [s(5)],
        refused: [s(6)],
        rest: { count: 2, checkedNow: true },
      }),
    ],
  }),
  importedAnswer: (s) => ({
    messages: [
      importedAnswer({
        added: 3,
        alreadyWatched: [s(0), s(1)],
        refused: [
          { entry: s(2), reason: 'no-name' },
          { entry: s(3), reason: 'too-long' },
        ],
        watchOn: true,
      }),
    ],
  }),
  watchListAnswer: (s) => ({
    messages: [
      watchListAnswer(
        [0, 1, 2, 3].map((n) => account(s, n)),
        1,
        '2027-01-01',
      ),
    ],
  }),
  chosenAnswer: (s) => ({ messages: [chosenAnswer(account(s, 0), '4100', [show(s, 1)])] }),
  choiceRefused: (s) => ({
    mrkdwn: [
      choiceRefused(s(0), null),
      choiceRefused(s(1), { ...account(s, 2), resolution: 'resolved', chosenBy: 'U0ALICE' }),
    ],
  }),
  watchHomeBlocks: (s) => ({
    blocks: watchHomeBlocks(
      {
        channels: [
          homeWatchOf(
            'C0GENERAL',
            [0, 1, 2].map((n) => account(s, n)),
            '2027-01-01',
          ),
        ],
        more: 0,
      },
      errorMessage('x').text,
    ),
  }),
  watchCsv: (s) => ({
    csv: toCsv(
      WATCH_CSV_HEADER,
      watchCsvRows(
        [0, 1].map((n) => account(s, n)),
        '2027-01-01',
      ),
    ),
  }),
  planCard: (s) => ({ messages: [planCard(planView(s))] }),
  planCanvasMarkdown: (s) => ({
    canvas: { markdown: planCanvasMarkdown(planView(s)), benign: planCanvasMarkdown(planView(() => 'x')) },
  }),
  planHomeBlocks: (s) => ({
    blocks: planHomeBlocks(
      {
        plans: [
          {
            channelId: 'C0GENERAL',
            shows: planView(s).rows.map((row) => row.show),
            budgets: { [s(7)]: { credits: 5000, setBy: 'U0BOSS', setAt: '2027-01-01T00:00:00.000Z' } },
          },
        ],
        more: 0,
      } as unknown as Parameters<typeof planHomeBlocks>[0],
      errorMessage('x').text,
    ),
  }),
  budgetWarningMessage: (s) => ({
    messages: [budgetWarningMessage({ quarterLabel: s(0), quarterKey: s(1), budget: 1000, spent: 900 })],
  }),
  watchStatusAnswer: (s) => ({
    messages: [
      watchStatusAnswer({
        settings: {
          type: 'watch-settings',
          teamId: 'T0TEST',
          channelId: 'C0GENERAL',
          status: 'on',
          budgetCredits: 100,
          budgetSetBy: 'U0BOSS',
          spentCredits: 0,
          revision: 1,
          createdAt: '2027-01-01T00:00:00.000Z',
          updatedAt: '2027-01-01T00:00:00.000Z',
          nextCheckAt: '2027-01-01T01:00:00.000Z',
        },
        accounts: [0, 1].map((n) => account(s, n)),
        now: new Date('2027-01-01T00:00:00Z'),
      }),
    ],
  }),
  budgetsAnswer: (s) => ({ messages: [budgetsAnswer(planView(s))] }),
};
