import { describe, expect, it } from 'vitest';
import {
  currencyProblem,
  deletion,
  editedOutcome,
  mayChangeOutcome,
  newOutcome,
  OUTCOME_LIMITS,
  readGrade,
  readOutcomeAmount,
  readOutcomeKind,
  startsTooFarAhead,
  watchedCompanyOf,
} from '../../../src/domain/outcomes.ts';
import { OutcomeEntrySchema } from '../../../src/domain/ports/records.ts';

const TODAY = '2031-03-10';
const daysAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('the rules of a logged outcome', () => {
  it('reads the kinds and a lead’s grades, case aside, and nothing else', () => {
    expect(readOutcomeKind('Meeting-Held')).toBe('meeting-held');
    expect(readOutcomeKind('meeting')).toBeUndefined();
    expect(['a', 'B', 'c'].map(readGrade)).toEqual(['A', 'B', 'C']);
    expect(readGrade('D')).toBeUndefined();
    expect(readGrade('AB')).toBeUndefined();
  });

  it('reads amounts as the plan’s costs do: never negative, at most 2 decimals', () => {
    expect(readOutcomeAmount('48,000.5')).toEqual({ ok: true, hundredths: 4_800_050 });
    expect(readOutcomeAmount('-5')).toEqual({ ok: false, reason: 'negative' });
    expect(readOutcomeAmount('12k')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(readOutcomeAmount('1.234')).toEqual({ ok: false, reason: 'decimals' });
  });

  it('refuses a show starting more than the limit ahead, and only that', () => {
    const limit = daysAfter(TODAY, OUTCOME_LIMITS.aheadDays);

    expect(startsTooFarAhead({ dateStart: limit }, TODAY)).toBe(false);
    expect(startsTooFarAhead({ dateStart: daysAfter(limit, 1) }, TODAY)).toBe(true);
    expect(startsTooFarAhead({ dateStart: daysAfter(TODAY, -200) }, TODAY)).toBe(false);
    expect(startsTooFarAhead({ dateStart: null }, TODAY)).toBe(false);
  });

  it('takes an amount in the plan’s currency or without one, and refuses any other', () => {
    expect(currencyProblem(undefined, 'EUR')).toBeUndefined();
    expect(currencyProblem(undefined, undefined)).toBeUndefined();
    expect(currencyProblem('EUR', 'EUR')).toBeUndefined();
    expect(currencyProblem('USD', 'EUR')).toBe('other-currency');
    expect(currencyProblem('EUR', undefined)).toBe('no-plan-currency');
  });

  it('matches an account to the watch’s company on its name or label, case aside, once resolved', () => {
    const watched = [
      {
        label: 'acme',
        companyName: 'Acme Analytics',
        resolution: 'resolved' as const,
        exhibitorIds: ['4100'],
      },
      { label: 'Globex', resolution: 'ambiguous' as const, exhibitorIds: ['1', '2'] },
    ];

    expect(watchedCompanyOf('ACME ANALYTICS', watched)).toEqual({
      exhibitorId: '4100',
      name: 'Acme Analytics',
    });
    expect(watchedCompanyOf(' Acme ', watched)).toEqual({ exhibitorId: '4100', name: 'Acme Analytics' });
    expect(watchedCompanyOf('Globex', watched)).toBeUndefined();
    expect(watchedCompanyOf('Initech', watched)).toBeUndefined();
  });

  it('builds a record the store can keep, its history starting with who logged it', () => {
    const at = new Date('2031-03-10T09:30:00Z');
    const entry = newOutcome({
      id: '0a1b2c3d',
      teamId: 'T1',
      channelId: 'C1',
      show: { eventId: '26855', name: 'Show', dateStart: '2031-02-01', dateEnd: null },
      kind: 'won',
      hundredths: 100,
      currency: 'EUR',
      account: 'Acme',
      loggedBy: 'U1',
      at,
    });

    expect(OutcomeEntrySchema.parse(entry)).toEqual(entry);
    expect(entry).toMatchObject({
      currency: 'EUR',
      history: [{ action: 'logged', by: 'U1', at: at.toISOString() }],
    });
    const meeting = newOutcome({
      id: '0a1b2c3e',
      teamId: 'T1',
      channelId: 'C1',
      show: { eventId: '26855', name: null, dateStart: null, dateEnd: null },
      kind: 'meeting-held',
      currency: 'EUR',
      account: 'Acme',
      loggedBy: 'U1',
      at,
    });
    expect(meeting).not.toHaveProperty('currency');
  });

  it('lets its logger or an admin delete an entry, no one else', () => {
    const entry = { loggedBy: 'U1' };

    expect(mayChangeOutcome(entry, { userId: 'U1', admin: false })).toBe(true);
    expect(mayChangeOutcome(entry, { userId: 'U2', admin: true })).toBe(true);
    expect(mayChangeOutcome(entry, { userId: 'U2', admin: false })).toBe(false);
    expect(deletion('U2', new Date('2031-03-11T00:00:00Z'))).toEqual({
      action: 'deleted',
      by: 'U2',
      at: '2031-03-11T00:00:00.000Z',
    });
  });

  it('keeps an edited entry’s show and logger, and what it said before in its history', () => {
    const at = new Date('2031-03-10T09:30:00Z');
    const entry = newOutcome({
      id: '0a1b2c3d',
      teamId: 'T1',
      channelId: 'C1',
      show: { eventId: '26855', name: 'Show', dateStart: '2031-02-01', dateEnd: null },
      kind: 'lead',
      grade: 'C',
      account: 'Acme',
      note: 'first talk',
      loggedBy: 'U1',
      at,
    });
    const later = new Date('2031-03-12T00:00:00Z');

    const edited = editedOutcome(
      entry,
      { kind: 'won', hundredths: 500, currency: 'EUR', account: 'Acme' },
      'U9',
      later,
    );

    expect(OutcomeEntrySchema.parse(edited)).toEqual(edited);
    expect(edited).toMatchObject({
      eventId: '26855',
      loggedBy: 'U1',
      kind: 'won',
      hundredths: 500,
      currency: 'EUR',
    });
    expect(edited).not.toHaveProperty('grade');
    expect(edited).not.toHaveProperty('note');
    expect(edited.history).toEqual([
      ...entry.history,
      {
        action: 'edited',
        by: 'U9',
        at: later.toISOString(),
        was: { kind: 'lead', grade: 'C', account: 'Acme', note: 'first talk' },
      },
    ]);
  });
});
