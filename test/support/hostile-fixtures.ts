/* Fixtures of the hostile-text property test: records whose user and service fields come from a pool. */
import type { WatchAccount, WatchShow } from '../../src/domain/ports/index.ts';
import { type PlanView } from '../../src/slack/features/plan/views.ts';

/** What a builder made: messages (text and blocks), block lists, mrkdwn strings, canvases, files. */
export interface Rendered {
  messages?: { text: string; blocks: unknown[] }[];
  blocks?: unknown[];
  mrkdwn?: string[];
  canvas?: { markdown: string; benign: string };
  csv?: string;
}

export type Pool = (index: number) => string;

export const show = (s: Pool, n: number): WatchShow => ({
  eventId: `2685${n}`,
  name: s(n),
  dateStart: '2027-03-01',
  dateEnd: '2027-03-03',
  city: s(n + 1),
});

export const account = (s: Pool, n: number): WatchAccount => ({
  type: 'watch-account',
  teamId: 'T0TEST',
  channelId: 'C0GENERAL',
  // The first (resolved) one added by a domain, named by its company: both shown.
  key: n === 0 ? `domain:${s(n)}` : `name:${s(n)}`,
  label: s(n),
  kind: n % 2 === 0 ? 'target' : 'competitor',
  resolution: (['resolved', 'ambiguous', 'not-found', 'pending'] as const)[n % 4] ?? 'resolved',
  exhibitorIds: ['4100', '4101'],
  candidates: [{ id: '4100', companyName: s(n + 2), domain: s(n + 3), website: s(n + 4), country: s(n + 5) }],
  ...(n % 4 === 0 ? { companyName: s(n + 6) } : {}),
  muted: n % 3 === 0,
  addedBy: 'U0ALICE',
  addedAt: '2027-01-01T00:00:00.000Z',
  told: [show(s, n), show(s, n + 6)],
});

export const event = (s: Pool, n: number) => ({
  eventId: `2685${n}`,
  name: s(n),
  url: s(n + 1),
  dateStart: '2027-03-01',
  dateEnd: '2027-03-03',
  venue: s(n + 2),
  city: s(n + 3),
  region: s(n + 4),
  country: s(n + 5),
  exhibitorCount: 12,
  hasVisitors: true,
  matchedExhibitors: [{ companyName: s(n + 6) }],
  matchedWords: [s(n + 7)],
  description: s(n + 8),
  nickname: s(n + 9),
});

export const page = <T>(items: T[]) => ({
  items,
  page: 1,
  total: items.length,
  totalPages: 1,
  hasMore: false,
});

export const planView = (s: Pool): PlanView => ({
  channelId: 'C0GENERAL',
  today: '2026-11-28',
  rows: [0, 1].map((n) => ({
    show: {
      eventId: `2685${n}`,
      name: s(n),
      dateStart: '2027-03-01',
      dateEnd: null,
      city: s(n + 1),
      addedBy: 'U0ALICE',
      addedAt: '2027-01-01T00:00:00.000Z',
    },
    fit: { score: 7.5, band: 'Recommended' as const },
    country: s(n + 4),
    watched: [{ label: s(n + 2), kind: 'competitor' as const }],
    cost: { state: 'not-offered', reason: s(n + 3) },
  })),
  costs: {
    quarters: [
      {
        quarter: { key: 'Q1-2027', label: s(5) },
        shows: 2,
        locked: 1,
        toUnlock: 2000,
        estimated: false,
        budget: { credits: 5000, setBy: 'U0BOSS', setAt: '2027-01-01T00:00:00.000Z' },
        spent: 100,
      },
    ],
    undated: { shows: 0, locked: 0, toUnlock: 0, estimated: false },
    toUnlock: 2000,
    estimated: false,
  } as unknown as PlanView['costs'],
  balance: 10_000,
  spendCapped: false,
});
