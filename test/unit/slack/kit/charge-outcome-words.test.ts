import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../../../../src/domain/ports/index.ts';
import { storedConfirmationCard } from '../../../../src/slack/kit/recorded-card.ts';
import { textsOf } from '../../../support/views.ts';

/** A settled email unlock's confirmation as the store holds it, with `outcome` as given. */
const settled = (outcome: Confirmation['outcome']): Confirmation => ({
  type: 'confirmation',
  id: 'conf-1',
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: { kind: 'email-unlock', personnelIds: ['11', '12', '13'] },
  price: { credits: 45, upTo: true },
  status: 'succeeded',
  createdAt: '2027-03-01T10:00:00.000Z',
  deadline: '2027-03-01T10:15:00.000Z',
  expiresAt: 1_804_000_000,
  ...(outcome === undefined ? {} : { outcome }),
});

const cardText = (confirmation: Confirmation) =>
  textsOf(storedConfirmationCard(confirmation).blocks).join('\n');

const UNLOCKING = 'Unlocking 2 emails… (1 skipped: 1 already unlocked) Results will arrive in this thread.';

describe('the card of a settled charge, from its stored outcome', () => {
  it('words the facts a charge stores', () => {
    // Prepare
    const confirmation = settled({
      creditsSpent: 30,
      balanceAfter: 8000,
      facts: {
        kind: 'contacts-unlocking',
        contact: 'email',
        count: 2,
        skipped: [{ reason: 'already unlocked', count: 1 }],
      },
      resultsPending: true,
    });

    // Act
    const text = cardText(confirmation);

    // Assess
    expect(text).toContain(UNLOCKING);
  });

  it('still shows the words an older release stored in place of facts', () => {
    // Prepare
    const confirmation = settled({
      creditsSpent: 30,
      balanceAfter: 8000,
      summary: [UNLOCKING],
      resultsPending: true,
    });

    // Act
    const text = cardText(confirmation);

    // Assess
    expect(text).toContain(UNLOCKING);
    expect(text).toContain('Spent 30 credits');
  });

  it('keeps the credits and balance of an outcome whose facts it cannot read', () => {
    // Prepare: a kind of fact a later release may add
    const confirmation = settled({
      creditsSpent: 30,
      balanceAfter: 8000,
      facts: { kind: 'from-the-future' },
    });

    // Act
    const text = cardText(confirmation);

    // Assess
    expect(text).toContain('Spent 30 credits');
    expect(text).toContain('Balance now 8,000 credits');
  });
});
