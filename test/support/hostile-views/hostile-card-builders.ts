/* The hostile-text property test's builders of cards, lists and messages. */
import { contactsCard } from '../../../src/slack/features/lists/contacts-views.ts';
import { accountCard, linkedinCard } from '../../../src/slack/features/account/views.ts';
import { needsAttentionBlocks } from '../../../src/slack/features/home/needs-attention-views.ts';
import { unlockResultReply } from '../../../src/slack/features/unlock-results/views.ts';
import { confirmationCard } from '../../../src/slack/kit/confirmation-card.ts';
import { compareCard } from '../../../src/slack/features/compare/views.ts';
import { digestMessage } from '../../../src/slack/features/digests/views.ts';
import { briefCard } from '../../../src/slack/features/events/brief.ts';
import { eventCard } from '../../../src/slack/features/events/event-card.ts';
import { fitCard } from '../../../src/slack/features/events/fit-card.ts';
import { eventList } from '../../../src/slack/features/lists/event-views.ts';
import {
  exhibitorList,
  recommendedExhibitorList,
} from '../../../src/slack/features/lists/exhibitor-views.ts';
import { exportComment } from '../../../src/slack/features/lists/export-views.ts';
import { peopleList } from '../../../src/slack/features/lists/people-views.ts';
import { recommendedEventList } from '../../../src/slack/features/lists/recommended-events-views.ts';
import { eventUnfurl } from '../../../src/slack/features/unfurls/views.ts';
import { errorMessage, notFoundText, workingMessage } from '../../../src/slack/views/messages.ts';
import { unknownCommand, usageError } from '../../../src/slack/commands/help-views.ts';
import { spendCard } from '../../../src/slack/features/charges/spend-views.ts';
import {
  digestStatusMessage,
  digestSubscribedMessage,
} from '../../../src/slack/features/digests/views.ts';
import { type Rendered, type Pool, event, page } from '../hostile-fixtures.ts';

/** Cards, lists and messages, by name, with the fields a user or the service fills taken from the pool. */
export const CARD_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  eventCard: (s) => ({ messages: [eventCard(event(s, 0))] }),
  briefCard: (s) => ({
    messages: [
      briefCard({
        event: event(s, 0),
        summary: { attendeeCount: 5, exhibitorCount: 9, topCategories: [s(1), s(2)], dataFreshness: s(3) },
      }),
    ],
  }),
  fitCard: (s) => ({
    messages: [
      fitCard({ event: event(s, 0), score: 7.2, recommendation: s(1) }, { name: s(2), hasVisitors: true }),
    ],
  }),
  eventUnfurl: (s) => ({
    messages: [
      eventUnfurl(
        { event: event(s, 0), score: 6, recommendation: s(1) },
        { event: event(s, 2), summary: { attendeeCount: 5, exhibitorCount: 9 } },
      ),
    ],
  }),
  compareCard: (s) => ({
    messages: [
      compareCard({
        shows: [
          {
            found: true,
            event: event(s, 0),
            fit: { score: 6, recommendation: s(1), breakdown: null },
            watched: [{ label: s(2), kind: 'competitor' }],
            unlock: { state: 'not-offered', reason: s(3) },
          },
          { found: false, eventId: s(4), reason: 'not-found' },
        ],
        watchesAccounts: true,
      } as unknown as Parameters<typeof compareCard>[0]),
    ],
  }),
  accountCard: (s) => ({
    messages: [
      accountCard(
        {
          id: '4100',
          companyName: s(0),
          industry: s(1),
          country: s(2),
          fundingRound: s(3),
          website: s(4),
          linkedinUrl: s(5),
          description: s(6),
          categories: [s(7)],
        },
        { items: [event(s, 8)], total: 4 },
        '2027-01-01',
      ),
    ],
  }),
  linkedinCard: (s) => ({
    messages: [
      linkedinCard(
        { id: 'P1', fullName: s(0), title: s(1), companyName: s(2), linkedinUrl: s(3) },
        { items: [event(s, 4)], total: 1 },
        '2027-01-01',
      ),
    ],
  }),
  eventList: (s) => ({
    messages: [eventList({ page: page([event(s, 0), event(s, 1)]), query: { keywords: s(2) }, label: s(3) })],
  }),
  exhibitorList: (s) => ({
    messages: [
      exhibitorList({
        eventId: '26855',
        page: page([
          { id: '4100', companyName: s(0), industry: s(1), country: s(2), website: s(3), domain: s(4) },
        ]),
        query: { eventId: '26855', keywords: s(5) },
        names: { eventId: s(6) },
      }),
    ],
  }),
  recommendedExhibitorList: (s) => ({
    messages: [
      recommendedExhibitorList({
        page: page([
          {
            id: '4100',
            companyName: s(0),
            industry: s(1),
            companySize: s(2),
            website: s(3),
            categories: [s(4)],
            reason: s(5),
          },
        ]),
        query: { eventId: '26855' },
        label: s(6),
      }),
    ],
  }),
  peopleList: (s) => ({
    messages: [
      peopleList({
        eventId: '26855',
        page: page([
          {
            id: 'P1',
            fullName: s(0),
            title: s(1),
            companyName: s(2),
            sourceType: [s(3)],
            email: s(4),
            contactUnlockStatus: s(5),
          },
        ]),
        query: { eventId: '26855' },
        label: s(6),
      }),
    ],
  }),
  recommendedEventList: (s) => ({
    messages: [
      recommendedEventList({
        page: page([
          {
            ...event(s, 0),
            id: 'e1',
            rank: 1,
            match_score: 0.8,
            matched_exhibitor_count: 3,
            matched_personnel_count: 2,
            unlocked: true,
            relevanceReason: s(1),
          },
        ]),
        query: { companyName: s(2) },
      }),
    ],
  }),
  contactsCard: (s) => ({
    messages: [
      contactsCard({
        page: page([
          {
            id: 'P1',
            fullName: s(0),
            title: s(1),
            companyName: s(2),
            email: s(3),
            phone: s(4),
            contactUnlockStatus: 'unlocked',
          },
        ]),
        query: { companyName: s(5), role: s(6), personName: s(7) },
      }),
    ],
  }),
  exportComment: (s) => ({
    mrkdwn: [
      exportComment({ noun: s(0), rows: 3, total: 5, locked: 2, capped: false, limit: 5000, title: s(1) }),
    ],
  }),
  confirmationCard: (s) => ({
    messages: (['pending', 'failed'] as const).map((state) =>
      confirmationCard({
        state,
        description: s(0),
        requestedBy: 'U0ALICE',
        mayConfirm: { requestedBy: 'U0ALICE', approvers: ['U0BOSS'] },
        confirmedBy: 'U0BOSS',
        confirmationId: 'c1',
        price: { credits: 50, upTo: true },
        balance: 100,
        expiresAt: '2027-01-01T00:00:00.000Z',
        errorMessage: s(1),
      }),
    ),
  }),
  digestMessage: (s) => ({
    messages: [
      digestMessage({
        channelId: 'C0GENERAL',
        localDate: '2027-03-01',
        timeZone: 'Europe/Berlin',
        filters: { keywords: s(0), city: s(1), country: s(2) },
        balance: 10,
        spentLast24h: 0,
        lowBalance: true,
        eventUnlockCredits: 2000,
        events: [{ event: event(s, 3), fit: { score: 5, recommendation: s(4) }, unlocked: false }],
        moreEvents: 0,
        unlocks: [],
        eventUnlocks: [
          {
            eventId: '26855',
            eventName: s(5),
            action: 'event-unlock',
            credits: 2000,
            requestedBy: 'U0ALICE',
            confirmedBy: 'U0BOSS',
            at: '2027-03-01T00:00:00Z',
          },
        ],
      } as unknown as Parameters<typeof digestMessage>[0]),
    ],
  }),
  errorMessage: (s) => ({ messages: [errorMessage(s(0))] }),
  workingMessage: (s) => ({ messages: [workingMessage(s(0))] }),
  notFoundText: (s) => ({ mrkdwn: [notFoundText(`show ${s(0)}`)] }),
  usageError: (s) => ({ messages: [usageError(s(0), s(1), s(2))] }),
  unknownCommand: (s) => ({ messages: [unknownCommand(s(0), s(1), s(2))] }),
  digestSubscribedMessage: (s) => ({
    messages: [
      digestSubscribedMessage(
        {
          channelId: 'C0GENERAL',
          time: '08:30',
          timeZone: 'Europe/Berlin',
          filters: { keywords: s(0), city: s(1) },
          status: 'active',
          nextRunAt: '2027-03-01T07:30:00.000Z',
        },
        { now: new Date('2027-03-01T00:00:00Z'), note: s(2) },
      ),
    ],
  }),
  digestStatusMessage: (s) => ({
    messages: [
      digestStatusMessage(
        {
          channelId: 'C0GENERAL',
          time: '08:30',
          timeZone: 'Europe/Berlin',
          filters: { keywords: s(0) },
          status: 'disabled',
          disabledReason: s(1),
          nextRunAt: '2027-03-01T07:30:00.000Z',
        },
        new Date('2027-03-01T00:00:00Z'),
      ),
    ],
  }),
  spendCard: (s) => ({
    messages: [
      spendCard({
        period: { label: 'today', key: '2027-03-01', from: '2027-03-01', to: '2027-03-01' },
        ledger: [
          {
            at: '2027-03-01T10:00:00.000Z',
            requestedBy: 'U0ALICE',
            confirmedBy: 'U0BOSS',
            action: s(0),
            credits: 50,
            eventId: '26855',
            status: 'settled',
          },
          {
            at: '2027-03-01T11:00:00.000Z',
            requestedBy: 'U0BOSS',
            confirmedBy: 'U0BOSS',
            action: 'event-unlock',
            credits: 2000,
            eventId: '26856',
            status: 'settled',
          },
        ] as unknown as Parameters<typeof spendCard>[0]['ledger'],
        names: new Map([
          ['26855', s(1)],
          ['26856', s(2)],
        ]),
        dailyCap: 5000,
        exportPeriod: 'today',
      }),
    ],
  }),
  needsAttentionBlocks: (s) => ({
    blocks: needsAttentionBlocks([
      {
        at: '2027-01-01T00:00:00.000Z',
        action: s(0),
        credits: 50,
        requestedBy: 'U0ALICE',
        confirmedBy: 'U0BOSS',
        channelId: 'C0GENERAL',
        eventId: s(1),
      },
    ] as Parameters<typeof needsAttentionBlocks>[0]),
  }),
  unlockResultReply: (s) => ({
    messages: [
      unlockResultReply(
        {
          kind: 'email',
          status: 'completed',
          people: [
            { personnelId: 'P1', value: s(0) },
            { personnelId: 'P2', value: null, problem: s(1) },
          ],
          skipped: [],
        },
        { P1: s(2), P2: s(3) },
        '1700000000.000100',
        '26855',
      ),
    ],
  }),
};
