import { describe, expect, it } from 'vitest';
import { type SpentEntry, spendStateOf, summarizeSpend } from '../../../src/domain/spend.ts';

const entry = (overrides: Partial<SpentEntry> = {}): SpentEntry => ({
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: 'event-unlock',
  credits: 2000,
  eventId: '26855',
  ...overrides,
});

describe('summarizeSpend', () => {
  it('totals the period by person, by show and by action, largest first', () => {
    // Act
    const summary = summarizeSpend([
      entry({ requestedBy: 'U1', confirmedBy: 'U1', credits: 2000, eventId: '26855' }),
      entry({
        requestedBy: 'U2',
        confirmedBy: 'U2',
        action: 'email-unlock',
        credits: 45,
        eventId: undefined,
      }),
      entry({ requestedBy: 'U2', confirmedBy: 'U2', credits: 2000, eventId: '27317' }),
      entry({
        requestedBy: 'U2',
        confirmedBy: 'U2',
        action: 'visitors-unlock',
        credits: 500,
        eventId: '26855',
      }),
    ]);

    // Assess
    expect(summary.total).toEqual({ credits: 4545, charges: 4, pending: 0, unconfirmed: 0 });
    expect(summary.byPerson.map(({ key, credits, charges }) => [key, credits, charges])).toEqual([
      ['U2', 2545, 3],
      ['U1', 2000, 1],
    ]);
    expect(summary.byShow.map(({ key, credits }) => [key, credits])).toEqual([
      ['26855', 2500],
      ['27317', 2000],
    ]);
    expect(summary.notForAShow).toMatchObject({ credits: 45, charges: 1 });
    expect(summary.byAction.map(({ key, credits }) => [key, credits])).toEqual([
      ['event-unlock', 4000],
      ['visitors-unlock', 500],
      ['email-unlock', 45],
    ]);
  });

  it('counts unconfirmed and in-flight credits as the ledger says, and keeps them apart', () => {
    // Act
    const summary = summarizeSpend([
      entry({ status: 'unknown', credits: 2000 }),
      entry({ outcomeUnknown: true, credits: 100, requestedBy: 'U2', confirmedBy: 'U2' }),
      entry({ status: 'pending', credits: 500 }),
      entry({ status: 'charged', credits: 30 }),
    ]);

    // Assess
    expect(summary.total).toEqual({ credits: 2630, charges: 4, pending: 500, unconfirmed: 2100 });
    expect(summary.byPerson).toEqual([
      {
        key: 'U1',
        credits: 2530,
        charges: 3,
        pending: 500,
        unconfirmed: 2000,
        confirmedBy: [{ userId: 'U1', charges: 3 }],
      },
      {
        key: 'U2',
        credits: 100,
        charges: 1,
        pending: 0,
        unconfirmed: 100,
        confirmedBy: [{ userId: 'U2', charges: 1 }],
      },
    ]);
  });

  it('leaves out charges the service refused: they spent nothing', () => {
    // Act
    const summary = summarizeSpend([
      entry({ status: 'refused', credits: 0, requestedBy: 'U9', confirmedBy: 'U9' }),
      entry(),
    ]);

    // Assess
    expect(summary.total.charges).toBe(1);
    expect(summary.byPerson.map((group) => group.key)).toEqual(['U1']);
  });

  it('orders equal spend by more charges, then by key, whatever the ledger order', () => {
    // Act
    const summary = summarizeSpend([
      entry({ requestedBy: 'UB', confirmedBy: 'UB', credits: 100 }),
      entry({ requestedBy: 'UC', confirmedBy: 'UC', credits: 50 }),
      entry({ requestedBy: 'UC', confirmedBy: 'UC', credits: 50 }),
      entry({ requestedBy: 'UA', confirmedBy: 'UA', credits: 100 }),
    ]);

    // Assess
    expect(summary.byPerson.map((group) => group.key)).toEqual(['UC', 'UA', 'UB']);
  });

  it('credits each charge to who asked, and counts each confirmer, the asker included', () => {
    // Act
    const summary = summarizeSpend([
      entry({ requestedBy: 'UALICE', confirmedBy: 'UALICE', credits: 45 }),
      entry({ requestedBy: 'UALICE', confirmedBy: 'UBOSS', credits: 2000 }),
      entry({ requestedBy: 'UALICE', confirmedBy: 'UBOSS', credits: 2000 }),
      entry({ requestedBy: 'UBOSS', confirmedBy: 'UBOSS', credits: 10 }),
    ]);

    // Assess
    expect(summary.byPerson.map(({ key, credits, confirmedBy }) => [key, credits, confirmedBy])).toEqual([
      [
        'UALICE',
        4045,
        [
          { userId: 'UBOSS', charges: 2 },
          { userId: 'UALICE', charges: 1 },
        ],
      ],
      ['UBOSS', 10, [{ userId: 'UBOSS', charges: 1 }]],
    ]);
  });
});

describe('spendStateOf', () => {
  it('reads the stored status, and an entry written whole with an unknown outcome', () => {
    expect(spendStateOf({})).toBe('charged');
    expect(spendStateOf({ outcomeUnknown: true })).toBe('unconfirmed');
    expect(spendStateOf({ status: 'unknown' })).toBe('unconfirmed');
    expect(spendStateOf({ status: 'pending' })).toBe('pending');
    expect(spendStateOf({ status: 'refused' })).toBe('refused');
  });
});
