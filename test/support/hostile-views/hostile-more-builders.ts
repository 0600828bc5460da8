/* The hostile-text property test's builders of the Home, follow-ups, unlocks, paid searches and settings. */
import type { FollowUpResult } from '../../../src/domain/follow-up.ts';
import type { Confirmation } from '../../../src/domain/ports/index.ts';
import { storedConfirmationCard } from '../../../src/slack/kit/recorded-card.ts';
import { paidSearchResults } from '../../../src/slack/features/charges/paid-search-views.ts';
import {
  followUpReply,
  followUpTimeoutReply,
  linkedinFinalCard,
  linkedinPendingCard,
  outreachStartedNotice,
} from '../../../src/slack/features/follow-up/views.ts';
import { homeView } from '../../../src/slack/features/home/views.ts';
import type { HomePlans } from '../../../src/slack/features/plan/home-views.ts';
import { personEventList } from '../../../src/slack/features/lists/event-views.ts';
import {
  companyExhibitorList,
  similarExhibitorList,
} from '../../../src/slack/features/lists/exhibitor-views.ts';
import { contactList } from '../../../src/slack/features/lists/people-views.ts';
import {
  unlockAccountChangedReply,
  unlockCardUpdate,
  unlockTimeoutReply,
  unlockWaitingCard,
} from '../../../src/slack/features/unlock-results/views.ts';
import { homeWatchOf } from '../../../src/slack/features/watch/home-views.ts';
import {
  connectHomeView,
  workspaceSettingsModal,
} from '../../../src/slack/features/workspace-admin/views.ts';
import { escapeMrkdwn, mk } from '../../../src/slack/views/mrkdwn.ts';
import {
  type Pool,
  type Rendered,
  account,
  event,
  page,
  planView,
} from '../hostile-fixtures.ts';
import { approverRules } from '../approver-rules.ts';

const exhibitor = (s: Pool, n: number) => ({
  id: `410${n}`,
  companyName: s(n),
  industry: s(n + 1),
  country: s(n + 2),
  website: s(n + 3),
  domain: s(n + 4),
});

const person = (s: Pool, n: number) => ({
  id: `P${n}`,
  fullName: s(n),
  title: s(n + 1),
  companyName: s(n + 2),
  email: s(n + 3),
  phone: s(n + 4),
  contactUnlockStatus: 'unlocked',
});

/** A paid search's page of results, as the service gave it. */
const searchResults = (results: object) => results as Parameters<typeof paidSearchResults>[1];

/** Names of people by id, as the service gave them. */
const names = (s: Pool) => ({ P1: s(0), P2: s(1), P3: s(2) });
const skipped = (s: Pool) => [
  { personnelId: 'P3', reason: 'not-found' },
  { personnelId: 'P2', reason: s(3) },
];

/** A stored confirmation of each status, its action and outcome holding the service's and users' words. */
function confirmations(s: Pool): Confirmation[] {
  const base = {
    type: 'confirmation',
    id: 'c1',
    teamId: 'T0TEST',
    channelId: 'C0GENERAL',
    requestedBy: 'U0ALICE',
    confirmedBy: 'U0BOSS',
    price: { credits: 2000, upTo: false },
    createdAt: '2027-01-01T00:00:00.000Z',
    deadline: '2027-01-01T00:15:00.000Z',
    expiresAt: 1_800_000_000,
  };
  const eventUnlock = {
    kind: 'event-unlock',
    eventId: '26855',
    event: { name: s(0), dateStart: '2027-03-01', dateEnd: null, city: s(1) },
  };
  const search = { kind: 'people-by-name', fullName: s(2) };
  const emails = { kind: 'email-unlock', personnelIds: ['P1', 'P2'], names: names(s) };
  const stored = [
    { action: eventUnlock, status: 'running' },
    {
      action: eventUnlock,
      status: 'succeeded',
      outcome: {
        facts: {
          kind: 'event-unlocked',
          layer: 'event',
          eventId: '26855',
          eventName: s(4),
          alreadyUnlocked: false,
        },
        creditsSpent: 2000,
        balanceAfter: 10,
      },
    },
    {
      action: search,
      status: 'succeeded',
      outcome: { facts: { kind: 'search', search: 'people-by-name', query: s(5), found: true, total: 3 } },
    },
    { action: emails, status: 'succeeded', outcome: { summary: [s(6), s(7)], resultsPending: true } },
    { action: search, status: 'failed', outcome: { message: s(8) } },
    { action: emails, status: 'failed', outcome: { outcomeUnknown: true, reason: 'worker-died' } },
    { action: { kind: s(9), name: s(10) }, status: 'cancelled', cancelledBy: 'U0BOSS' },
    { action: search, status: 'expired' },
  ];
  return stored.map((record) => ({ ...base, ...record }) as unknown as Confirmation);
}

/** The rest of the view builders, by name, with the fields a user or the service fills taken from the pool. */
export const MORE_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  homeView: (s) => ({
    blocks: homeView({
      userId: 'U0ALICE',
      now: new Date('2027-03-01T10:00:00Z'),
      notice: mk`Removed ${escapeMrkdwn(s(0))} from the watch.`,
      balance: 100,
      spentToday: 50,
      dailyCap: 5000,
      confirmations: [
        {
          id: 'c1',
          description: s(1),
          price: { credits: 50, upTo: true },
          requestedBy: 'U0BOSS',
          channelId: 'C0GENERAL',
          deadline: '2027-03-01T10:15:00.000Z',
          confirmRefusal: s(2),
        },
      ],
      tasks: [
        {
          kind: 'email',
          people: 2,
          channelId: 'C0GENERAL',
          threadTs: '1.2',
          createdAt: '2027-03-01T09:00:00Z',
        },
      ],
      digests: [
        {
          channelId: 'C0GENERAL',
          time: '08:30',
          timeZone: 'Europe/Berlin',
          filters: { keywords: s(3), city: s(4) },
        },
      ],
      watches: {
        channels: [
          homeWatchOf(
            'C0GENERAL',
            [0, 1].map((n) => account(s, n)),
            '2027-01-01',
          ),
        ],
        more: 0,
      },
      plans: {
        plans: [
          {
            channelId: 'C0GENERAL',
            shows: planView(s).rows.map((row) => row.show),
            budgets: { [s(5)]: { credits: 5000, setBy: 'U0BOSS', setAt: '2027-01-01T00:00:00.000Z' } },
          },
        ],
        more: 0,
        today: '2026-11-28',
      } as unknown as HomePlans,
      charges: [
        {
          at: '2027-03-01T09:30:00.000Z',
          action: s(6),
          credits: 50,
          eventId: s(7),
          status: 'charged',
          requestedBy: 'U0ALICE',
          confirmedBy: 'U0BOSS',
        },
        {
          at: '2027-03-01T09:40:00.000Z',
          action: 'email-unlock',
          credits: 2,
          personnelIds: ['P1'],
          status: 'unknown',
          requestedBy: 'U0ALICE',
          confirmedBy: 'U0ALICE',
        },
      ],
      settingsButton: true,
      needsAttention: [
        {
          at: '2027-03-01T09:40:00.000Z',
          action: s(8),
          credits: 50,
          requestedBy: 'U0ALICE',
          confirmedBy: 'U0ALICE',
          eventId: s(9),
        },
      ],
    }).blocks,
  }),
  followUpReply: (s) => {
    const outreach: FollowUpResult = {
      kind: 'outreach',
      people: [
        { personnelId: 'P1', drafts: { email: s(4), linkedin: s(5) } },
        { personnelId: 'P2', drafts: null, problem: 'generation-failed' },
      ],
      skipped: skipped(s),
    };
    const linkedin: FollowUpResult = {
      kind: 'linkedin',
      people: [
        { personnelId: 'P1', activity: { level: s(6), isActive: true, latestPostAt: s(7) } },
        { personnelId: 'P2', activity: null, problem: s(8) },
      ],
      skipped: skipped(s),
    };
    return { messages: [followUpReply(outreach, names(s)), followUpReply(linkedin, names(s))] };
  },
  followUpTimeoutReply: () => ({
    messages: [followUpTimeoutReply({ followUp: { kind: 'linkedin' }, requestedBy: 'U0ALICE' })],
  }),
  outreachStartedNotice: (s) => ({
    messages: [
      outreachStartedNotice({ drafting: 1, skipped: skipped(s) }, names(s)),
      outreachStartedNotice({ drafting: 0, skipped: skipped(s) }, names(s)),
    ],
  }),
  linkedinPendingCard: (s) => ({
    messages: [
      linkedinPendingCard({
        description: s(0),
        requestedBy: 'U0ALICE',
        mayConfirm: { approvers: ['U0BOSS'] },
        confirmationId: 'c1',
        balance: 100,
        buttons: true,
        deadline: '2027-03-01T10:15:00.000Z',
      }),
    ],
  }),
  linkedinFinalCard: (s) => ({
    messages: [true, false].map((succeeded) =>
      linkedinFinalCard({
        description: s(0),
        requestedBy: 'U0ALICE',
        confirmedBy: 'U0BOSS',
        succeeded,
        lines: [s(1), s(2)],
        creditsSpent: 5,
        balanceAfter: 95,
      }),
    ),
  }),
  unlockAccountChangedReply: () => ({ messages: [unlockAccountChangedReply({ requestedBy: 'U0ALICE' })] }),
  unlockTimeoutReply: () => ({
    messages: [unlockTimeoutReply({ kind: 'phone', personnelIds: ['P1', 'P2'], requestedBy: 'U0ALICE' })],
  }),
  unlockCardUpdate: (s) => ({
    messages: [
      unlockCardUpdate(
        {
          description: s(0),
          price: { credits: 4, upTo: true },
          requestedBy: 'U0ALICE',
          confirmedBy: 'U0BOSS',
          creditsSpent: 2,
          balanceAfter: 98,
        },
        'email',
        { status: 'completed', unlocked: 1, notUnlocked: 1, skipped: 1 },
      ),
    ],
  }),
  unlockWaitingCard: (s) => ({
    messages: [
      unlockWaitingCard(
        {
          description: s(0),
          price: { credits: 4, upTo: true },
          requestedBy: 'U0ALICE',
          confirmedBy: 'U0BOSS',
          creditsSpent: 2,
          balanceAfter: 98,
        },
        { contacts: 3, startedAgo: { unit: 'seconds', count: 15 }, expected: 'within-a-minute' },
      ),
    ],
  }),
  paidSearchResults: (s) => ({
    messages: [
      paidSearchResults(
        { kind: 'people-by-name', fullName: s(0), page: 2 },
        searchResults({ kind: 'events', page: { ...page([event(s, 1), event(s, 2)]), hasMore: true } }),
        50,
      ),
      paidSearchResults(
        { kind: 'exhibitor-search', companyName: s(3) },
        searchResults({ kind: 'exhibitors', page: page([exhibitor(s, 4)]) }),
        50,
      ),
      paidSearchResults(
        { kind: 'exhibitor-events', companyName: s(5) },
        searchResults({ kind: 'events', page: page([event(s, 6)]) }),
        50,
      ),
    ],
  }),
  personEventList: (s) => ({
    messages: [
      personEventList({ page: page([event(s, 0), event(s, 1)]), query: { personnelId: 'P1' }, label: s(2) }),
    ],
  }),
  companyExhibitorList: (s) => ({
    messages: [
      companyExhibitorList({ page: page([exhibitor(s, 0)]), query: { companyName: s(5) }, label: s(6) }),
    ],
  }),
  similarExhibitorList: (s) => ({
    messages: [
      similarExhibitorList({
        page: page([exhibitor(s, 0), exhibitor(s, 5)]),
        query: { exhibitorId: '4100' },
        names: { exhibitorId: s(10) },
      }),
    ],
  }),
  contactList: (s) => ({
    messages: [
      contactList({
        page: page([person(s, 0), person(s, 5)]),
        query: { companyName: s(10), role: s(11) },
      }),
    ],
  }),
  storedConfirmationCard: (s) => ({ messages: confirmations(s).map(storedConfirmationCard) }),
  connectHomeView: (s) => ({
    blocks: connectHomeView(s(0), mk`Saved: ${escapeMrkdwn(s(1))}`).blocks,
  }),
  workspaceSettingsModal: (s) => ({
    blocks: (['admin', 'appManager'] as const).flatMap(
      (role) =>
        workspaceSettingsModal(
          {
            type: 'workspace-service-key',
            teamId: 'T0TEST',
            serviceAccountId: 'acct-1',
            last4: s(0),
            connectedBy: 'U0ALICE',
            connectedAt: '2027-01-01T00:00:00.000Z',
          },
          {
            type: 'workspace-policy',
            teamId: 'T0TEST',
            approverUserIds: ['U0BOSS'],
            approverUserGroupId: s(1),
            appManagerUserIds: ['U0ALICE'],
            digestDefaults: { time: '08:30', timeZone: s(2) },
            updatedBy: 'U0BOSS',
            updatedAt: '2027-01-01T00:00:00.000Z',
            revision: 'r1',
          } as unknown as Parameters<typeof workspaceSettingsModal>[1],
          role,
          // A single workspace's environment, its approvers the ids the deploy would refuse.
          role === 'admin'
            ? {
                fixes: true,
                approvers: approverRules({ users: [s(3)], userGroups: [s(4)] }),
                dailyCap: 5,
                keySetBy: 'EIS_API_KEY',
              }
            : { fixes: false, approvers: approverRules() },
        ).blocks,
    ),
  }),
};
