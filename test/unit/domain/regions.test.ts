import { describe, expect, it } from 'vitest';
import { isInRegion, readRegion, REGION_NAMES, REGIONS } from '../../../src/domain/regions.ts';

describe('the regions table', () => {
  it('names the seven regions a seller plans by', () => {
    expect(REGION_NAMES).toEqual([
      'Europe',
      'DACH',
      'Nordics',
      'North America',
      'LATAM',
      'APAC',
      'Middle East',
    ]);
  });

  it('reads a region in any case, hyphenated, quoted or by another common name', () => {
    expect(readRegion('europe')).toBe('Europe');
    expect(readRegion('dach')).toBe('DACH');
    expect(readRegion('North America')).toBe('North America');
    expect(readRegion('north-america')).toBe('North America');
    expect(readRegion('"Middle East"')).toBe('Middle East');
    expect(readRegion('middle_east')).toBe('Middle East');
    expect(readRegion('Latin America')).toBe('LATAM');
    expect(readRegion('asia-pacific')).toBe('APAC');
    expect(readRegion('Nordic')).toBe('Nordics');
  });

  it('knows no other region', () => {
    expect(readRegion('Antarctica')).toBeUndefined();
    expect(readRegion('Nevada')).toBeUndefined();
    expect(readRegion('')).toBeUndefined();
  });

  it('places a show by its country, in any case or a common other spelling', () => {
    expect(isInRegion('Germany', 'DACH')).toBe(true);
    expect(isInRegion('germany', 'Europe')).toBe(true);
    expect(isInRegion('United States', 'North America')).toBe(true);
    expect(isInRegion('USA', 'North America')).toBe(true);
    expect(isInRegion('UK', 'Europe')).toBe(true);
    expect(isInRegion('UAE', 'Middle East')).toBe(true);
    expect(isInRegion('Brazil', 'LATAM')).toBe(true);
    expect(isInRegion('Mexico', 'North America')).toBe(false);
    expect(isInRegion('France', 'DACH')).toBe(false);
    expect(isInRegion(null, 'Europe')).toBe(false);
  });

  it('keeps DACH and the Nordics inside Europe, and lists each country once per region', () => {
    const europe: readonly string[] = REGIONS.Europe;
    for (const country of [...REGIONS.DACH, ...REGIONS.Nordics]) expect(europe).toContain(country);
    for (const countries of Object.values(REGIONS)) expect(new Set(countries).size).toBe(countries.length);
  });
});
