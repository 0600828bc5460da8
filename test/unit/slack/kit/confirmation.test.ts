import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../local/fake-slack/block-kit-check.ts';
import type { Confirmation } from '../../../../src/domain/ports/index.ts';
import {
  CONFIRMATION_WORDS,
  type ConfirmationCardInput,
  confirmationCard,
  NAMED_APPROVERS,
} from '../../../../src/slack/kit/confirmation-card.ts';
import { storedConfirmationCard } from '../../../../src/slack/kit/recorded-card.ts';
import { showAllPeopleButton } from '../../../../src/slack/features/lists/people-views.ts';
import { linkedinPendingCard } from '../../../../src/slack/features/follow-up/views.ts';
import { homeView } from '../../../../src/slack/features/home/views.ts';
import { cardPrice } from '../../../../src/slack/kit/money-words.ts';
import type { SlackMessage } from '../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../support/views.ts';

const shown = (message: SlackMessage) =>
  textsOf(message.blocks.filter((block) => block.type !== 'actions')).join('\n');

/** Start again on a closed card of an event unlock: the unlock, asked for again. */
const UNLOCK_AGAIN = { askAgain: { kind: 'event-unlock' as const, eventId: '26855' } };

const base = {
  description: 'Unlock all exhibitors and people of Fintech Expo (26855)',
  price: { credits: 2000, upTo: false, kind: 'event-unlock' as const },
  requestedBy: 'U123',
};

function pending(overrides: Partial<Extract<ConfirmationCardInput, { state: 'pending' }>> = {}) {
  return confirmationCard({
    ...base,
    state: 'pending',
    confirmationId: 'conf-1',
    balance: 12_500,
    expiresAt: '2027-03-01T10:15:00.000Z',
    mayConfirm: { requestedBy: 'U123', approvers: [] },
    ...overrides,
  });
}

describe('confirmationCard', () => {
  it('shows what will happen, the price, the balance, who asked and when it expires', () => {
    // Act
    const message = pending();

    // Assess
    const text = shown(message);
    expect(text).toContain(CONFIRMATION_WORDS.heading);
    expect(text).toContain('Unlock all exhibitors and people of Fintech Expo (26855)');
    expect(text).toContain('*Price:* 2,000 credits');
    expect(text).toContain('*Balance:* 12,500 credits');
    expect(text).toContain('<@U123>');
    expect(text).toContain('<!date^1803896100^{time}|10:15 UTC>');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('asks again in a dialog on Confirm, repeating the price; Cancel needs no dialog', () => {
    // Act
    const [confirm, cancel] = buttonsOf(pending().blocks);

    // Assess
    expect(confirm).toMatchObject({ action_id: 'confirm.yes', style: 'primary', text: { text: 'Confirm' } });
    expect(confirm?.confirm?.title?.text).toBe(CONFIRMATION_WORDS.dialogTitle);
    expect(confirm?.confirm?.text?.text).toContain('2,000 credits');
    expect(confirm?.confirm?.confirm?.text).toBe('Spend 2,000 credits');
    expect(confirm?.confirm?.deny?.text).toBe(CONFIRMATION_WORDS.goBack);
    expect(cancel).toMatchObject({ action_id: 'confirm.no', text: { text: 'Cancel' } });
    expect(cancel?.confirm).toBeUndefined();
    expect(JSON.parse(confirm?.value ?? '')).toEqual({ confirmationId: 'conf-1' });
    expect(JSON.parse(cancel?.value ?? '')).toEqual({ confirmationId: 'conf-1' });
  });

  it('lays a pending card out as what, price, small print, then Confirm, Cancel and Show all', () => {
    // Act
    const ids = Array.from({ length: 12 }, (_, index) => String(100001 + index));
    const message = pending({ showAll: showAllPeopleButton(ids) });

    // Assess
    expect(message.blocks.map((block) => block.type)).toEqual(['section', 'section', 'context', 'actions']);
    expect(message.blocks[3]).toMatchObject({ block_id: 'confirmation' });
    expect(buttonsOf(message.blocks).map((element) => element.action_id)).toEqual([
      'confirm.yes',
      'confirm.no',
      'people.all',
    ]);
  });

  it('leaves the buttons off the first post, keeping the rest of the card', () => {
    // Act
    const first = pending({ buttons: false });

    // Assess
    expect(first.blocks).toEqual(pending().blocks.filter((block) => block.type !== 'actions'));
    expect(first.text).toBe(pending().text);
  });

  it('words a search’s price as "up to", charged only on a match, and an unknown balance as not available', () => {
    // Act
    const message = pending({ price: { credits: 50, upTo: true, kind: 'people-by-name' }, balance: null });

    // Assess
    const text = shown(message);
    expect(text).toContain('up to 50 credits (charged only if something matches)');
    expect(text).toContain('*Balance:* not available right now');
    expect(buttonsOf(message.blocks)[0]?.confirm?.confirm?.text).toBe('Spend up to 50 credits');
  });

  it('cuts a 5,000-character description to fit a section, keeping the price in the dialog', () => {
    // Act
    const message = pending({ description: 'd'.repeat(5000) });

    // Assess
    for (const block of message.blocks) {
      if (block.type === 'section') expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    }
    expect(shown(message)).toContain('…');
    expect(buttonsOf(message.blocks)[0]?.confirm?.text?.text).toContain('2,000 credits');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('escapes a channel ping in the description', () => {
    // Act
    const message = pending({ description: 'Unlock <!channel> expo' });

    // Assess
    expect(shown(message)).toContain('Unlock &lt;!channel&gt; expo');
    expect(message.text).not.toContain('<!channel>');
  });

  it.each<ConfirmationCardInput>([
    { ...base, state: 'running', confirmedBy: 'U9' },
    {
      ...base,
      state: 'succeeded',
      confirmedBy: 'U9',
      outcome: ['Event unlocked'],
      creditsSpent: 2000,
      balanceAfter: 10,
    },
    { ...base, state: 'failed', errorMessage: 'Not enough credits.' },
    { ...base, state: 'cancelled', cancelledBy: 'U9' },
    { ...base, state: 'expired' },
  ])('has no buttons once $state', (input) => {
    // Act
    const message = confirmationCard(input);

    // Assess
    expect(message.blocks.some((block) => block.type === 'actions')).toBe(false);
    expect(buttonsOf(message.blocks)).toEqual([]);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it.each<ConfirmationCardInput>([
    { ...base, state: 'cancelled', cancelledBy: 'U9', restart: UNLOCK_AGAIN },
    { ...base, state: 'expired', restart: UNLOCK_AGAIN },
  ])('offers to start again once $state, with the charge to ask for again', (input) => {
    // Act
    const message = confirmationCard(input);

    // Assess
    expect(message.blocks.at(-1)).toMatchObject({ type: 'actions', block_id: 'restart' });
    const [again, ...others] = buttonsOf(message.blocks);
    expect(others).toEqual([]);
    expect(again).toMatchObject({ action_id: 'confirm.restart', text: { text: 'Start again' } });
    expect(JSON.parse(again?.value ?? '')).toEqual(UNLOCK_AGAIN);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('says who confirmed while charging', () => {
    // Act
    const text = shown(confirmationCard({ ...base, state: 'running', confirmedBy: 'U9' }));

    // Assess
    expect(text).toContain('Charging… confirmed by <@U9>');
  });

  it('reports the outcome, credits spent, new balance and who confirmed on success', () => {
    // Act
    const text = shown(
      confirmationCard({
        ...base,
        state: 'succeeded',
        confirmedBy: 'U9',
        outcome: ['Event unlocked: 312 exhibitors, 1,204 people'],
        creditsSpent: 2000,
        balanceAfter: 10_500,
      }),
    );

    // Assess
    expect(text).toContain('• Event unlocked: 312 exhibitors, 1,204 people');
    expect(text).toContain('Spent 2,000 credits');
    expect(text).toContain('Balance now 10,500 credits');
    expect(text).toContain('Confirmed by <@U9>');
  });

  it('reports a failure in plain words with the credits spent when they are known', () => {
    // Act
    const text = shown(
      confirmationCard({ ...base, state: 'failed', errorMessage: 'Not enough credits.', creditsSpent: 0 }),
    );

    // Assess
    expect(text).toContain('Not enough credits.');
    expect(text).toContain('Nothing was charged');
  });

  it('claims no amount for a failure whose outcome is unknown', () => {
    // Act
    const text = shown(
      confirmationCard({ ...base, state: 'failed', errorMessage: 'The outcome is unknown.' }),
    );

    // Assess
    expect(text).toContain('The outcome is unknown.');
    expect(text).not.toMatch(/Spent|Nothing was charged/);
  });

  it('says who cancelled, and that an expired card charged nothing', () => {
    // Act
    const cancelled = shown(confirmationCard({ ...base, state: 'cancelled', cancelledBy: 'U9' }));
    const expired = shown(confirmationCard({ ...base, state: 'expired' }));

    // Assess
    expect(cancelled).toContain('Cancelled* by <@U9>');
    expect(expired).toContain('Expired');
    expect(expired).toContain('nothing was charged');
  });
});

describe('storedConfirmationCard for LinkedIn activity (a price the service does not publish)', () => {
  const linkedin: Confirmation = {
    type: 'confirmation',
    id: 'conf-9',
    teamId: 'T1',
    channelId: 'C1',
    requestedBy: 'U123',
    action: { kind: 'linkedin-activity', personnelIds: ['100001'], names: { '100001': 'Jane Smith' } },
    price: { credits: 0, upTo: true },
    status: 'pending',
    createdAt: '2027-03-01T10:00:00.000Z',
    deadline: '2027-03-01T10:15:00.000Z',
    expiresAt: 1_804_000_000,
  };

  it.each([
    ['running', { status: 'running', confirmedBy: 'U123' }],
    ['cancelled', { status: 'cancelled', cancelledBy: 'U123' }],
    ['expired', { status: 'expired' }],
    [
      'settled by the reconciler',
      {
        status: 'failed',
        confirmedBy: 'U123',
        outcome: { reason: 'worker-died', outcomeUnknown: true, message: 'The bot was interrupted.' },
      },
    ],
  ] as const)('names the action and never says "up to 0" when %s', (_state, fields) => {
    // Act
    const message = storedConfirmationCard({ ...linkedin, ...fields });

    // Assess
    const text = `${message.text}\n${textsOf(message.blocks).join('\n')}`;
    expect(text).toContain('Analyse the LinkedIn activity of 1 person: Jane Smith');
    expect(text).not.toContain('A credit-spending action');
    expect(text).not.toMatch(/up to 0/i);
    if (fields.status !== 'failed') expect(text).toContain('The service publishes no price for this');
    // asked for by a button, not a command: nothing to start again
    expect(buttonsOf(message.blocks).map((button) => button.action_id)).toEqual([]);
  });

  it('asks to spend credits, not "up to 0 credits", in the Confirm dialog', () => {
    // Act
    const message = confirmationCard({
      description: 'Analyse the LinkedIn activity of 1 person: Jane Smith',
      price: cardPrice(linkedin),
      requestedBy: 'U123',
      state: 'pending',
      confirmationId: 'conf-9',
      balance: 12_500,
      expiresAt: '2027-03-01T10:15:00.000Z',
      mayConfirm: { requestedBy: 'U123', approvers: [] },
    });

    // Assess
    const text = textsOf(message.blocks).join('\n');
    expect(text).toContain(
      '*Price:* The service publishes no price for this: the card will show what was spent',
    );
    expect(text).toContain('Spend credits');
    expect(text).not.toMatch(/up to 0/i);
  });
});

describe('the one confirmation card and its dialog', () => {
  it('asks in the same "Spend credits?" dialog on a charge’s card, the LinkedIn activity card and the Home', () => {
    // Prepare
    const description = 'Analyse the LinkedIn activity of 1 person: Jane Smith';
    const price = { credits: 0, upTo: true, kind: 'linkedin-activity' as const };
    const asked = {
      description,
      requestedBy: 'U123',
      confirmationId: 'conf-9',
      balance: 12_500,
      mayConfirm: { requestedBy: 'U123', approvers: [] },
    };

    // Act
    const card = confirmationCard({
      ...asked,
      price,
      state: 'pending',
      expiresAt: '2027-03-01T10:15:00.000Z',
    });
    const linkedin = linkedinPendingCard({ ...asked, buttons: true, deadline: '2027-03-01T10:15:00.000Z' });
    const home = homeView({
      userId: 'U123',
      now: new Date('2027-03-01T10:00:00.000Z'),
      balance: 12_500,
      spentToday: 0,
      confirmations: [
        {
          id: 'conf-9',
          description,
          price,
          requestedBy: 'U123',
          channelId: 'C1',
          deadline: '2027-03-01T10:15:00.000Z',
          mayConfirm: asked.mayConfirm,
        },
      ],
      tasks: [],
      digests: [],
      charges: [],
    });

    // Assess
    const [onCard, onLinkedin, onHome] = [card.blocks, linkedin.blocks, home.blocks].map(
      (blocks) => buttonsOf(blocks).find((button) => button.action_id === 'confirm.yes')?.confirm,
    );
    expect(onCard).toMatchObject({
      title: { text: CONFIRMATION_WORDS.dialogTitle },
      confirm: { text: 'Spend credits' },
      deny: { text: CONFIRMATION_WORDS.goBack },
    });
    expect(onCard?.text?.text).toContain(description);
    expect(onCard?.text?.text).toContain('Only the person who asked or an approver can confirm.');
    expect(onLinkedin).toEqual(onCard);
    expect(onHome).toEqual(onCard);
    expect(shown(linkedin)).toContain(CONFIRMATION_WORDS.heading);
  });
});

describe('who may confirm, on the pending card', () => {
  it('names the requester and the approvers under the threshold, only approvers at or above it', () => {
    // Act
    const under = shown(pending({ mayConfirm: { requestedBy: 'U123', approvers: ['U0CAROL', 'U0DAN'] } }));
    const over = shown(pending({ mayConfirm: { approvers: ['U0CAROL', 'U0DAN'] } }));
    const none = shown(pending({ mayConfirm: { approvers: [] } }));

    // Assess
    expect(under).toContain('<@U123> or an approver (<@U0CAROL>, <@U0DAN>) can confirm.');
    expect(over).toContain(`${CONFIRMATION_WORDS.needsApprover}: <@U0CAROL> or <@U0DAN>.`);
    expect(over).not.toContain('<@U123> or an approver');
    expect(none).toContain(`${CONFIRMATION_WORDS.needsApprover}: ${CONFIRMATION_WORDS.noApprover}.`);
  });

  it('names a few approvers and counts the rest, however many a user group holds', () => {
    // Act
    const approvers = Array.from({ length: 40 }, (_, index) => `U0A${index}`);
    const text = shown(pending({ mayConfirm: { approvers } }));

    // Assess
    expect(text).toContain(`<@U0A${NAMED_APPROVERS - 1}> or ${40 - NAMED_APPROVERS} more.`);
    expect(text).not.toContain(`<@U0A${NAMED_APPROVERS}>`);
  });
});
