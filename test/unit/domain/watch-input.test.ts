import { describe, expect, it } from 'vitest';
import { WATCH_LIMITS } from '../../../src/domain/ports/index.ts';
import { readWatchList } from '../../../src/domain/watch/index.ts';
import { competitorWithoutColon } from '../../../src/domain/watch/input.ts';

describe('reading a watch list', () => {
  it('takes names and domains, comma- or newline-separated, with competitors marked', () => {
    const reading = readWatchList('Acme Robotics, globex.com, competitor:Initech\nHooli Ltd\n\n');

    expect(reading).toEqual({
      ok: true,
      accounts: [
        { key: 'name:acme robotics', label: 'Acme Robotics', kind: 'target' },
        { key: 'domain:globex.com', label: 'globex.com', kind: 'target' },
        { key: 'name:initech', label: 'Initech', kind: 'competitor' },
        { key: 'name:hooli', label: 'Hooli Ltd', kind: 'target' },
      ],
      refused: [],
    });
  });

  it('merges entries that are the same account, a competitor if any says so', () => {
    const reading = readWatchList(
      'Acme Inc.\nacme\nCompetitor: ACME, LLC\nhttps://www.globex.com/\nglobex.com',
    );

    expect(reading.ok && reading.accounts).toEqual([
      { key: 'name:acme', label: 'Acme Inc.', kind: 'competitor' },
      { key: 'domain:globex.com', label: 'https://www.globex.com/', kind: 'target' },
    ]);
  });

  it('keeps a legal form after a comma with its name', () => {
    const reading = readWatchList('Acme Robotics, Inc., Globex GmbH, Initech, LLC');

    expect(reading.ok && reading.accounts.map((account) => account.label)).toEqual([
      'Acme Robotics, Inc.',
      'Globex GmbH',
      'Initech, LLC',
    ]);
  });

  it('refuses blank and over-long entries with a reason, and keeps the rest', () => {
    const long = 'A'.repeat(WATCH_LIMITS.entryLength + 1);
    const reading = readWatchList(`Acme,, Globex\ncompetitor:\n${long}\n&&\nHooli,`);

    expect(reading.ok && reading.accounts.map((account) => account.label)).toEqual([
      'Acme',
      'Globex',
      'Hooli',
    ]);
    expect(reading.ok && reading.refused).toEqual([
      { entry: '', reason: 'blank' },
      { entry: 'competitor:', reason: 'blank' },
      { entry: long.slice(0, WATCH_LIMITS.entryLength), reason: 'too-long' },
      { entry: '&&', reason: 'no-name' },
    ]);
  });

  it('reads an import of 1,000 lines and refuses one of 1,001 whole', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, index) => `Company ${index}`).join('\n');

    const thousand = readWatchList(lines(1000));
    expect(thousand.ok && thousand.accounts).toHaveLength(1000);
    expect(readWatchList(lines(1001))).toEqual({ ok: false, reason: 'too-many', count: 1001, limit: 1000 });
  });
});

describe('a competitor mark written without its colon', () => {
  it('reads `competitor Stripe` as `competitor:Stripe` was meant, and leaves marked ones and other names alone', () => {
    expect(competitorWithoutColon('Acme, competitor Stripe')).toBe('competitor:Stripe');
    expect(competitorWithoutColon('Acme\nCompetitor  Globex Payments')).toBe('competitor:Globex Payments');
    expect(competitorWithoutColon('competitor:Stripe, competitor : Initech')).toBeUndefined();
    expect(competitorWithoutColon('Competitors Inc, Acme Competitor')).toBeUndefined();
  });
});
