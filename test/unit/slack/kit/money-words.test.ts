import { describe, expect, it } from 'vitest';
import { type ChargeAction, CHARGE_BASIS, PRECHECK_ACTION } from '../../../../src/domain/charging.ts';
import type { Confirmation } from '../../../../src/domain/ports/index.ts';
import { confirmationCard } from '../../../../src/slack/kit/confirmation-card.ts';
import { storedConfirmationCard } from '../../../../src/slack/kit/recorded-card.ts';
import { homeView } from '../../../../src/slack/features/home/views.ts';
import { cardPrice } from '../../../../src/slack/kit/money-words.ts';
import { unlockCardUpdate } from '../../../../src/slack/features/unlock-results/views.ts';
import type { SlackMessage } from '../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../support/views.ts';
import { escapeMrkdwn } from '../../../../src/slack/views/mrkdwn.ts';

/** One action of every kind of charge, with the price its confirmation stores. */
const KINDS: { action: ChargeAction; price: Confirmation['price'] }[] = [
  { action: { kind: 'event-unlock', eventId: '26855' }, price: { credits: 2000, upTo: false } },
  { action: { kind: 'visitors-unlock', eventId: '26855' }, price: { credits: 3000, upTo: false } },
  { action: { kind: 'full-access-unlock', eventId: '26855' }, price: { credits: 5000, upTo: true } },
  {
    action: { kind: 'email-unlock', personnelIds: ['100001', '100002'] },
    price: { credits: 30, upTo: true },
  },
  {
    action: { kind: 'phone-unlock', personnelIds: ['100001', '100002'] },
    price: { credits: 300, upTo: true },
  },
  { action: { kind: 'people-by-name', fullName: 'Jane Smith' }, price: { credits: 50, upTo: true } },
  { action: { kind: 'exhibitor-events', companyName: 'Acme' }, price: { credits: 50, upTo: true } },
  { action: { kind: 'exhibitor-search', companyName: 'Acme' }, price: { credits: 50, upTo: true } },
  { action: { kind: 'linkedin-activity', personnelIds: ['100001'] }, price: { credits: 150, upTo: true } },
];

/** Every state a card can be in, as the confirmation stores it. */
const STATES: [string, Partial<Confirmation>][] = [
  ['charging', { status: 'running', confirmedBy: 'U9' }],
  [
    'succeeded, balance read after',
    {
      status: 'succeeded',
      confirmedBy: 'U9',
      outcome: { creditsSpent: 50, balanceAfter: 950, summary: ['Done.'] },
    },
  ],
  [
    'succeeded, balance not readable after',
    {
      status: 'succeeded',
      confirmedBy: 'U9',
      outcome: { creditsSpent: 50, balanceAfter: null, summary: ['Done.'] },
    },
  ],
  [
    'failed',
    {
      status: 'failed',
      confirmedBy: 'U9',
      outcome: { reason: 'service-error', message: 'No.', creditsSpent: 0 },
    },
  ],
  [
    'refused by the daily cap',
    {
      status: 'failed',
      confirmedBy: 'U9',
      outcome: { reason: 'daily-cap', message: 'The daily credit cap would be passed.', creditsSpent: 0 },
    },
  ],
  [
    'outcome unknown',
    {
      status: 'failed',
      confirmedBy: 'U9',
      outcome: { reason: 'worker-died', outcomeUnknown: true, message: 'The service cannot say.' },
    },
  ],
  ['cancelled', { status: 'cancelled', cancelledBy: 'U9' }],
  ['expired', { status: 'expired' }],
];

function stored(kind: (typeof KINDS)[number], fields: Partial<Confirmation> = {}): Confirmation {
  return {
    type: 'confirmation',
    id: 'conf-1',
    teamId: 'T1',
    channelId: 'C1',
    requestedBy: 'U123',
    action: kind.action,
    price: kind.price,
    status: 'pending',
    createdAt: '2027-03-01T10:00:00.000Z',
    deadline: '2027-03-01T10:15:00.000Z',
    expiresAt: 1_804_000_000,
    ...fields,
  };
}

/** The pending card as the worker posts it, its balance unreadable. */
const pendingCard = (confirmation: Confirmation) =>
  confirmationCard({
    description: 'What',
    price: cardPrice(confirmation),
    requestedBy: confirmation.requestedBy,
    state: 'pending',
    confirmationId: confirmation.id,
    balance: null,
    expiresAt: confirmation.deadline,
    mayConfirm: { requestedBy: confirmation.requestedBy, approvers: [] },
  });

/** Everything a reader sees, the Confirm dialog included. */
const readable = (message: SlackMessage) =>
  [
    message.text,
    ...textsOf(message.blocks),
    ...buttonsOf(message.blocks).flatMap((b) => [
      b.confirm?.text?.text ?? '',
      b.confirm?.confirm?.text ?? '',
    ]),
  ].join('\n');

/** What no money words may ever say. */
function expectTrueMoneyWords(text: string, kind: ChargeAction['kind']) {
  expect(text).not.toMatch(/balance unavailable|Balance now (balance|not)/i);
  expect(text).not.toMatch(/price not published by the service; the credits spent are shown after/i);
  expect(text).not.toMatch(/Price was (price|not|the service)/i);
  expect(text).not.toMatch(/up to 0 credits/i);
  if (CHARGE_BASIS[kind] === 'per-contact') expect(text).not.toContain('charged only if something matches');
}

describe('money words on every card of every kind of charge', () => {
  it('covers every kind of charge', () => {
    expect(KINDS.map((k) => k.action.kind).sort()).toEqual(Object.keys(PRECHECK_ACTION).sort());
  });

  describe.each(KINDS.map((kind) => [kind.action.kind, kind] as const))('%s', (name, kind) => {
    it('says before confirming what is charged, and what is charged when nothing is found', () => {
      // Act
      const text = readable(pendingCard(stored(kind)));

      // Assess
      expectTrueMoneyWords(text, name);
      expect(text).toContain('*Balance:* not available right now');
      const basis = CHARGE_BASIS[name];
      if (basis === 'per-contact')
        expect(text).toMatch(/per contact, charged even if no (email address|phone number) is found/);
      if (basis === 'if-found')
        expect(text).toContain('up to 50 credits (charged only if something matches)');
      if (basis === 'unpublished') expect(text).toContain('The service publishes no price for this');
      if (basis === 'fixed')
        expect(text).toContain(`*Price:* ${kind.price.credits.toLocaleString('en-US')} credits`);
    });

    it.each(STATES)('is true once %s', (state, fields) => {
      // Act
      const text = readable(storedConfirmationCard(stored(kind, fields)));

      // Assess
      expectTrueMoneyWords(text, name);
      if (state === 'succeeded, balance not readable after')
        expect(text).toContain(
          // Without a published price the spend is the balance's drop: unknown with the balance.
          CHARGE_BASIS[name] === 'unpublished'
            ? 'Credits spent not known: the balance could not be read right now'
            : 'Spent 50 credits · Balance not available right now',
        );
      if (state === 'succeeded, balance read after')
        expect(text).toContain('Spent 50 credits · Balance now 950 credits');
      if (fields.status === 'cancelled' || fields.status === 'expired') {
        expect(text).toContain('Nothing was charged');
        expect(text).toContain(
          CHARGE_BASIS[name] === 'unpublished' ? 'The service publishes no price for this' : 'Price was ',
        );
      }
    });

    it('is true on the Home, where it can be confirmed too', () => {
      // Act
      const confirmation = stored(kind);
      const view = homeView({
        userId: 'U123',
        now: new Date('2027-03-01T10:00:00.000Z'),
        balance: null,
        spentToday: null,
        confirmations: [
          {
            id: confirmation.id,
            description: 'What',
            price: cardPrice(confirmation),
            requestedBy: 'U123',
            channelId: 'C1',
            deadline: confirmation.deadline,
          },
        ],
        tasks: [],
        digests: [],
        charges: [],
      });

      // Assess
      expectTrueMoneyWords(readable({ text: escapeMrkdwn(''), blocks: view.blocks }), name);
    });
  });

  it.each(['email', 'phone'] as const)(
    'says a %s unlock of a contact found for nothing was charged, as its price said it would be',
    (kind) => {
      // Prepare
      const action = KINDS.find((k) => k.action.kind === `${kind}-unlock`);
      if (!action) throw new Error('no such kind');
      const price = cardPrice(stored(action));

      // Act
      const before = readable(pendingCard(stored(action)));
      const after = readable(
        unlockCardUpdate(
          {
            description: 'What',
            price,
            requestedBy: 'U123',
            confirmedBy: 'U123',
            creditsSpent: action.price.credits,
            balanceAfter: null,
          },
          kind,
          { status: 'failed', unlocked: 0, notUnlocked: 2, skipped: 0 },
        ),
      );

      // Assess
      expect(before).toContain('charged even if no');
      expect(after).toContain('2 charged but not found');
      expect(after).not.toMatch(/failed: nothing was unlocked/);
      expect(after).toContain(`Spent ${action.price.credits} credits · Balance not available right now`);
    },
  );
});
