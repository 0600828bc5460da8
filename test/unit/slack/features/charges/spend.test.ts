import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { ChargeActionSchema } from '../../../../../src/domain/charging.ts';
import { parseSpendPeriod } from '../../../../../src/domain/periods.ts';
import { spendCard, type SpendCardInput } from '../../../../../src/slack/features/charges/spend-views.ts';
import type { LedgerEntry, SlackMessage } from '../../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const shown = (message: SlackMessage) => textsOf(message.blocks).join('\n');
const NOW = new Date('2027-03-01T18:00:00Z');
const periodOf = (word: string) => {
  const period = parseSpendPeriod(word, NOW);
  if (!period) throw new Error(`no period ${word}`);
  return period;
};
const entry = (overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  at: '2027-03-01T10:15:00.000Z',
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: 'event-unlock',
  credits: 2000,
  eventId: '26855',
  ...overrides,
});
const card = (ledger: LedgerEntry[], word = 'today', more: Partial<SpendCardInput> = {}) =>
  spendCard({ period: periodOf(word), ledger, exportPeriod: word, ...more });

describe('spendCard', () => {
  // what production stores as the ledger's action: the charge action's kind
  const kinds = ChargeActionSchema.options.map((option) => option.shape.kind.value);

  it('names a month, a quarter, this week and today truly, in UTC', () => {
    expect(card([], '2027-03').text).toBe('Credits spent in March 2027 (UTC): 0 credits.');
    expect(card([], 'Q2-2027').text).toBe('Credits spent in Q2 2027 (UTC): 0 credits.');
    expect(card([], 'week').text).toBe('Credits spent this week, 1–7 Mar 2027 (UTC): 0 credits.');
    expect(card([], 'today').text).toMatch(/^Credits spent on 1 Mar 2027 \(UTC\)/);
  });

  it('totals by person, by show (named where known) and by action, with the daily cap for today', () => {
    // Act
    const message = card(
      [
        entry(),
        entry({
          requestedBy: 'U2',
          confirmedBy: 'U2',
          action: 'email-unlock',
          credits: 45,
          eventId: undefined,
          personnelIds: ['1', '2', '3'],
        }),
        entry({ requestedBy: 'U2', confirmedBy: 'U2', eventId: '27317' }),
      ],
      'today',
      { dailyCap: 10_000, names: new Map([['26855', 'Fintech <Expo>']]) },
    );

    // Assess
    const text = shown(message);
    expect(text).toContain(
      '*Total: 4,045 credits* in 3 charges · 5,955 credits left under the daily cap of 10,000',
    );
    expect(text).toContain(
      '*By who asked*\n<@U2> · *2,045 credits* · 2 charges\n<@U1> · *2,000 credits* · 1 charge',
    );
    expect(text).toContain('Fintech &lt;Expo&gt; `26855` · *2,000 credits* · 1 charge');
    expect(text).toContain('Event `27317` · *2,000 credits*');
    expect(text).toContain('Not for one show (searches, contacts) · *45 credits* · 1 charge');
    expect(text).toContain(
      '*By action*\nEvent unlock · *4,000 credits* · 2 charges\nEmail unlock · *45 credits*',
    );
    expect(text).toContain(
      '<!date^1803896100^{time}|10:15 UTC> <@U1> · Event unlock `26855` · *2,000 credits*',
    );
    expect(text).toContain('<@U2> · Email unlock (3 contacts) · *45 credits*');
  });

  it('shows no daily cap and no charge list for a longer period', () => {
    // Act
    const text = shown(card([entry()], '2027-03', { dailyCap: 10_000 }));

    // Assess
    expect(text).not.toContain('daily cap');
    expect(text).not.toContain('10:15 UTC');
    expect(text).toContain('*Total: 2,000 credits* in 1 charge');
  });

  it('leaves out charges the service refused, and marks credits in flight or unconfirmed', () => {
    // Act
    const text = shown(
      card([
        entry({ status: 'refused', credits: 0, eventId: '1' }),
        entry({ status: 'pending', eventId: '2' }),
        entry({ status: 'unknown', eventId: '3' }),
        entry({ outcomeUnknown: true, eventId: '4', requestedBy: 'U2', confirmedBy: 'U2' }),
        entry({ status: 'charged', eventId: '5' }),
      ]),
    );

    // Assess
    expect(text).not.toContain('`1`');
    expect(text).toContain(
      '*Total: 8,000 credits* in 4 charges (2,000 credits charging now; 4,000 credits unconfirmed by the service: check the balance)',
    );
    expect(text).toContain('<@U2> · *2,000 credits* · 1 charge (2,000 credits unconfirmed by the service)');
    expect(text).toContain('`2` · *2,000 credits* (charging now)');
    expect(text).toContain('`3` · *2,000 credits* (unconfirmed by the service: check the balance)');
  });

  it.each(kinds)('names the charge action %s in words', (kind) => {
    // Act
    const text = shown(card([entry({ action: kind })]));

    // Assess
    expect(text).toMatch(/<@U1> · [A-Z][A-Za-z]+ [a-z ]+ `26855` · \*2,000 credits\*/);
    expect(text).not.toContain(kind);
  });

  it('shows an unknown stored action as it is, escaped', () => {
    // Act
    const text = shown(card([entry({ action: 'legacy<thing>' }), entry({ action: 'constructor' })]));

    // Assess
    expect(text).toContain('<@U1> · legacy&lt;thing&gt; `26855`');
    expect(text).toContain('constructor · *2,000 credits* · 1 charge');
  });

  it('keeps each total to its largest rows, says how many more, and stays within Block Kit limits', () => {
    // Prepare: 2,000 charges by 40 people on 30 shows
    const entries = Array.from({ length: 2000 }, (_, index) =>
      entry({
        requestedBy: `U${index % 40}`,
        confirmedBy: `U${index % 40}`,
        credits: 15 + (index % 40),
        eventId: String(1000 + (index % 30)),
      }),
    );

    // Act
    const message = card(entries, 'today');

    // Assess
    const text = shown(message);
    expect(text).toContain('*Total: 69,000 credits* in 2,000 charges');
    expect(text).toMatch(/\*By who asked\*\n<@U39> · \*2,700 credits\* · 50 charges\n/);
    expect(text).toContain('…and 32 more people');
    expect(text).toContain('…and 22 more shows');
    expect(text).toMatch(/…and [\d,]+ more charges/);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('says when nothing was spent, and offers Export CSV only when the ledger has entries', () => {
    // Act
    const empty = card([], 'today', { dailyCap: 5000 });
    const month = card([entry()], '2027-03');

    // Assess
    expect(shown(empty)).toContain('No credits spent.');
    expect(shown(empty)).toContain('5,000 credits left under the daily cap of 5,000');
    expect(buttonsOf(empty.blocks)).toEqual([]);
    expect(buttonsOf(month.blocks)).toMatchObject([
      { text: { text: 'Export CSV' }, action_id: 'spend.export', value: '{"period":"2027-03"}' },
    ]);
  });

  it('says when the period held more charges than were counted', () => {
    expect(shown(card([entry()], 'quarter', { capped: true }))).toContain(
      'Counted from the first 1 charge of the period only.',
    );
  });
});
