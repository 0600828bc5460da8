import { describe, expect, it } from 'vitest';
import { commandOf, problemOf } from '../../support/commands.ts';

describe('search words: regions, quarters and months', () => {
  it('reads region: in any case, multi-word names as typed, hyphenated or quoted', () => {
    expect(commandOf('search fintech region:europe')).toEqual({
      name: 'search',
      filters: { keywords: 'fintech', region: 'Europe' },
    });
    expect(commandOf('search region:North America when:Q2-2027')).toMatchObject({
      filters: { region: 'North America' },
    });
    expect(commandOf('search region:north-america')).toMatchObject({ filters: { region: 'North America' } });
    expect(commandOf('search expo region:"Middle East"')).toMatchObject({
      filters: { region: 'Middle East' },
    });
  });

  it('reads when: as the first and last day of a quarter or a month', () => {
    expect(commandOf('search fintech when:Q2-2027')).toEqual({
      name: 'search',
      filters: { keywords: 'fintech', from: '2027-04-01', to: '2027-06-30' },
    });
    expect(commandOf('search when:2027-02')).toMatchObject({
      filters: { from: '2027-02-01', to: '2027-02-28' },
    });
  });

  it('names the known regions for an unknown one', () => {
    const problem = problemOf('search fintech region:Antarctica');
    expect(problem).toContain('`region:Antarctica` is not a region I know');
    for (const name of [
      '`Europe`',
      '`DACH`',
      '`Nordics`',
      '`North-America`',
      '`LATAM`',
      '`APAC`',
      '`Middle-East`',
    ])
      expect(problem).toContain(name);
  });

  it('refuses a quarter or month that is none, and when: beside from: or to:', () => {
    expect(problemOf('search when:Q5-2027')).toContain('`when:Q5-2027` is not a quarter or a month');
    expect(problemOf('search when:2027-13')).toContain('is not a quarter or a month');
    expect(problemOf('search fintech when:Q2-2027 to:2027-05-01')).toContain(
      '`when:Q2-2027` and `to:2027-05-01` both give the dates',
    );
  });

  it('refuses country: with region:, and more than five search words', () => {
    expect(problemOf('search country:Germany region:DACH')).toBe(
      'Give `country:Germany` or `region:DACH`, not both.',
    );
    expect(problemOf('search a1 b2 c3 d4 e5 f6')).toContain('Search takes up to 5 words');
    // Link words and repeats are not counted, so the answer names the words it counted
    expect(problemOf('search a b1 c2 d3 e4 f5 b1 and g6')).toContain(
      'this one has 6: `b1`, `c2`, `d3`, `e4`, `f5`, `g6`.',
    );
    expect(commandOf('search fintech and payments in Europe')).toMatchObject({
      filters: { keywords: 'fintech and payments in Europe' },
    });
  });

  it('lets the digest take region: and when: too', () => {
    expect(commandOf('digest on 08:30 UTC keywords:fintech payments region:DACH when:2027-03')).toMatchObject(
      {
        name: 'digest-on',
        filters: { keywords: 'fintech payments', region: 'DACH', from: '2027-03-01', to: '2027-03-31' },
      },
    );
    expect(problemOf('digest on region:Mars')).toContain('is not a region I know');
  });
});

describe('shows-for words: region: is the seller’s region, state: the service’s', () => {
  it('keeps region: as a region of the table and state: as the service’s region', () => {
    expect(commandOf('shows-for payment teams region:latam state:São Paulo')).toEqual({
      name: 'shows-for',
      targetAudience: 'payment teams',
      filters: { region: 'LATAM', state: 'São Paulo' },
    });
  });

  it('reads when: into from: and to:, and refuses it beside them', () => {
    expect(commandOf('shows-for acme.example when:Q1-2027')).toMatchObject({
      filters: { from: '2027-01-01', to: '2027-03-31' },
    });
    expect(problemOf('shows-for acme.example when:Q1-2027 from:2027-02-01')).toContain('both give the dates');
    expect(problemOf('shows-for acme.example region:Nevada')).toContain(
      '`region:Nevada` is not a region I know',
    );
    expect(problemOf('shows-for acme.example region:Nevada')).toContain(
      'A state or province is `state:Nevada`.',
    );
  });
});
