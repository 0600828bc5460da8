import { describe, expect, it } from 'vitest';
import {
  accountKey,
  type ExhibitorIdentity,
  matchAccount,
  nearMatches,
  normaliseCompanyName,
  normaliseDomain,
} from '../../../src/domain/watch/index.ts';

const exhibitor = (
  id: string,
  companyName: string,
  extra: Partial<ExhibitorIdentity> = {},
): ExhibitorIdentity => ({
  id,
  companyName,
  ...extra,
});

/** Whether the account as typed matches the exhibitor record. */
const matches = (typed: string, record: ExhibitorIdentity) => {
  const key = accountKey(typed);
  if (!key) throw new Error(`no key for ${typed}`);
  return matchAccount(key, [record]).kind === 'one';
};

describe('company names after normalisation', () => {
  it.each([
    ['Acme Robotics, Inc.', 'acme robotics'],
    ['ACME Robotics Inc', 'acme robotics'],
    ['Acme Robotics LLC', 'acme robotics'],
    ['Globex GmbH & Co. KG', 'globex'],
    ['Société Générale S.A.', 'societe generale'],
    ['Initech Corp.', 'initech'],
    ['Initech Corporation', 'initech'],
    ['Hooli Ltd', 'hooli'],
    ['Hooli Limited', 'hooli'],
    ['Vandelay Industries plc', 'vandelay industries'],
    ['Müller AG', 'muller'],
    ['Philips BV', 'philips'],
    ['Dassault SAS', 'dassault'],
    ['Procter & Gamble Co.', 'procter and gamble'],
    ["McDonald's", 'mcdonalds'],
  ])('%s is %s', (name, normalised) => {
    expect(normaliseCompanyName(name)).toBe(normalised);
  });

  it('never drops the whole name, even one that is only a legal form', () => {
    expect(normaliseCompanyName('AG')).toBe('ag');
  });
});

describe('domains after normalisation', () => {
  it.each([
    ['globex.com', 'globex.com'],
    ['https://www.Globex.com/about?x=1', 'globex.com'],
    ['http://globex.com:8080', 'globex.com'],
    ['WWW.GLOBEX.COM.', 'globex.com'],
  ])('%s is %s', (address, normalised) => {
    expect(normaliseDomain(address)).toBe(normalised);
  });

  it('tells a domain from a name', () => {
    expect(accountKey('globex.com')).toBe('domain:globex.com');
    expect(accountKey('Acme Robotics')).toBe('name:acme robotics');
    expect(accountKey('Acme S.A.')).toBe('name:acme');
  });
});

describe('an exhibitor record matches a watched account', () => {
  it('by company name, whatever its case, punctuation, accents and legal form', () => {
    expect(matches('Acme Robotics', exhibitor('1', 'ACME Robotics, Inc.'))).toBe(true);
    expect(matches('Societe Generale', exhibitor('2', 'Société Générale S.A.'))).toBe(true);
    expect(matches('Procter and Gamble', exhibitor('3', 'Procter & Gamble Co.'))).toBe(true);
  });

  it('by its domain or website when the account is a domain', () => {
    expect(matches('globex.com', exhibitor('1', 'Globex Corporation', { domain: 'globex.com' }))).toBe(true);
    expect(
      matches('www.globex.com', exhibitor('2', 'Globex', { website: 'https://www.globex.com/en' })),
    ).toBe(true);
  });

  it('not on a near miss: a longer name, another domain, a subdomain', () => {
    expect(matches('Acme', exhibitor('1', 'Acme Robotics'))).toBe(false);
    expect(matches('Acme Robotics', exhibitor('1', 'Acme'))).toBe(false);
    expect(matches('Initech', exhibitor('2', 'Initech Systems'))).toBe(false);
    expect(matches('globex.com', exhibitor('3', 'Globex', { domain: 'globex.co' }))).toBe(false);
    expect(matches('globex.com', exhibitor('4', 'Globex', { website: 'https://shop.globex.com' }))).toBe(
      false,
    );
  });

  it('never on its description, nor on a domain for a name account', () => {
    const record = {
      ...exhibitor('1', 'Umbrella Group', { domain: 'acme.com' }),
      description: 'Distributor of Acme Robotics arms',
    };
    expect(matches('Acme Robotics', record)).toBe(false);
    expect(matches('Acme', record)).toBe(false);
  });

  it('once per exhibitor id, however many shows list it', () => {
    const key = accountKey('Acme Robotics') ?? '';
    const match = matchAccount(key, [exhibitor('7', 'Acme Robotics'), exhibitor('7', 'Acme Robotics Inc')]);
    expect(match).toEqual({ kind: 'one', exhibitor: exhibitor('7', 'Acme Robotics') });
  });

  it('is ambiguous when several exhibitor ids match, with each one to choose from', () => {
    const key = accountKey('Acme Robotics') ?? '';
    const match = matchAccount(key, [
      exhibitor('7', 'Acme Robotics'),
      exhibitor('8', 'ACME ROBOTICS GmbH'),
      exhibitor('9', 'Acme Robotics Europe'),
    ]);
    expect(match.kind).toBe('ambiguous');
    expect(match.kind === 'ambiguous' && match.candidates.map((candidate) => candidate.id)).toEqual([
      '7',
      '8',
    ]);
  });
});

describe('the near matches of a name nothing matches', () => {
  const near = (typed: string, records: ExhibitorIdentity[], limit = 5) =>
    nearMatches(accountKey(typed) ?? '', records, limit).map((record) => record.companyName);

  it('are the records whose name holds the name’s words, in order, among others', () => {
    const records = [
      exhibitor('1', 'Initech Retail'),
      exhibitor('2', 'Big Initech Systems, Inc.'),
      exhibitor('3', 'Initechnology'),
      exhibitor('4', 'Retail Initech'),
      exhibitor('5', 'Globex', { domain: 'initech.com' }),
    ];
    expect(near('Initech', records)).toEqual([
      'Initech Retail',
      'Big Initech Systems, Inc.',
      'Retail Initech',
    ]);
    expect(near('Initech Retail', records)).toEqual([]);
    expect(
      near('Acme Robotics', [exhibitor('6', 'Acme Robotics Europe'), exhibitor('7', 'Acme Europe Robotics')]),
    ).toEqual(['Acme Robotics Europe']);
  });

  it('tolerate a letter added, dropped or changed, or a plural, in a word of four letters or more', () => {
    const records = [exhibitor('1', 'Globex Payments'), exhibitor('2', 'Globex AI'), exhibitor('3', 'Boxes Ltd')];
    expect(near('Globex Payment', records)).toEqual(['Globex Payments']);
    expect(near('Globex Paymants', records)).toEqual(['Globex Payments']);
    expect(near('Globx Payments', records)).toEqual(['Globex Payments']);
    expect(near('Globex Al', records)).toEqual([]);
    expect(near('Box', records)).toEqual(['Boxes Ltd']);
    expect(near('Globex Paymentsss', records)).toEqual([]);
  });

  it('are never the exact match, nor offered to a domain, and each id once, at most `limit`', () => {
    expect(near('Initech', [exhibitor('1', 'Initech Inc.')])).toEqual([]);
    expect(near('initech.com', [exhibitor('1', 'Initech Retail', { domain: 'initechretail.com' })])).toEqual(
      [],
    );
    const many = [1, 1, 2, 3, 4].map((n) => exhibitor(String(n), `Initech ${n}`));
    expect(near('Initech', many, 3)).toEqual(['Initech 1', 'Initech 2', 'Initech 3']);
  });
});
