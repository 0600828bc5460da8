import { describe, expect, it } from 'vitest';
import { isValidTimeZone } from '../../../../src/time/local-time.ts';
import { closest, editDistance } from '../../../../src/slack/kit/closest-word.ts';
import { readTimeOfDay, readTimeZone } from '../../../../src/slack/kit/schedule-reading.ts';

describe('readTimeOfDay', () => {
  it.each([
    ['08:30', '08:30'],
    ['8:30', '08:30'],
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    ['8am', '08:00'],
    ['8:30pm', '20:30'],
    ['12am', '00:00'],
    ['12pm', '12:00'],
    ['11:15PM', '23:15'],
    ['7a.m.', '07:00'],
  ])('reads %s as %s', (word, time) => {
    expect(readTimeOfDay(word)).toEqual({ ok: true, time });
  });

  it.each([
    ['8.30', 'Did you mean `08:30`?'],
    ['8', 'Did you mean `08:00`?'],
    ['0830', 'Did you mean `08:30`?'],
    ['8h30', 'Did you mean `08:30`?'],
    ['13pm', 'Did you mean `13:00`?'],
    ['24:00', 'Did you mean `00:00`?'],
  ])('refuses %s and says what was probably meant', (word, hint) => {
    const result = readTimeOfDay(word);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain(`\`${word}\``);
    expect(result.problem).toContain(hint);
  });

  it.each(['25:00', '8:75', '0am', '99'])('refuses %s, which is no time at all', (word) => {
    expect(readTimeOfDay(word)).toMatchObject({ ok: false });
  });
});

describe('readTimeZone', () => {
  it('takes an IANA name in any case and gives its canonical spelling', () => {
    expect(readTimeZone('europe/berlin')).toEqual({ ok: true, timeZone: 'Europe/Berlin' });
    expect(readTimeZone('UTC')).toEqual({ ok: true, timeZone: 'UTC' });
  });

  it.each([
    ['EST', 'America/New_York'],
    ['edt', 'America/New_York'],
    ['CST', 'America/Chicago'],
    ['MDT', 'America/Denver'],
    ['PST', 'America/Los_Angeles'],
    ['GMT', 'UTC'],
    ['CET', 'Europe/Berlin'],
    ['BST', 'Europe/London'],
    ['IST', 'Asia/Kolkata'],
    ['JST', 'Asia/Tokyo'],
    ['AEST', 'Australia/Sydney'],
  ])('reads the abbreviation %s as %s, with a note saying so', (word, timeZone) => {
    expect(readTimeZone(word)).toEqual({ ok: true, timeZone, note: `${word} read as ${timeZone}` });
    expect(isValidTimeZone(timeZone)).toBe(true);
  });

  it('reads a link name as the zone it points to, with a note', () => {
    expect(readTimeZone('US/Eastern')).toEqual({
      ok: true,
      timeZone: 'America/New_York',
      note: 'US/Eastern read as America/New_York',
    });
  });

  it.each([
    ['UTC+2', 'Etc/GMT-2'],
    ['GMT-5', 'Etc/GMT+5'],
    ['utc+02:00', 'Etc/GMT-2'],
    ['UTC+14', 'Etc/GMT-14'],
  ])('reads the whole-hour offset %s as the fixed zone %s (IANA counts the other way)', (word, timeZone) => {
    const result = readTimeZone(word);

    expect(result).toMatchObject({ ok: true, timeZone });
    expect(result.ok && result.note).toContain(`${word} read as ${timeZone}`);
    expect(isValidTimeZone(timeZone)).toBe(true);
  });

  it('reads UTC+0 as UTC', () => {
    expect(readTimeZone('UTC+0')).toEqual({ ok: true, timeZone: 'UTC' });
  });

  it('refuses a half-hour offset and names a place that has it', () => {
    const result = readTimeZone('UTC+5:30');

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain('whole-hour');
    expect(result.problem).toContain('Asia/Kolkata');
  });

  it('refuses an offset past the real range', () => {
    expect(readTimeZone('UTC+15')).toMatchObject({ ok: false });
  });

  it.each([
    ['EST5', 'EST'],
    ['Europe/Berln', 'Europe/Berlin'],
    ['Berlin', 'Europe/Berlin'],
    ['america/new_yrok', 'America/New_York'],
  ])('refuses %s and suggests %s', (word, suggestion) => {
    const result = readTimeZone(word);

    expect(result).toMatchObject({ ok: false, suggestion });
    if (result.ok) return;
    expect(result.problem).toContain(`Did you mean \`${suggestion}\`?`);
  });

  it('refuses a made-up zone without a suggestion', () => {
    const result = readTimeZone('Mars/Base');

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain('`Mars/Base` is not a time zone');
    expect(result.suggestion).toBeUndefined();
  });
});

describe('editDistance and closest', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('unlcok', 'unlock')).toBe(1);
    expect(editDistance('fitt', 'fit')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests only near words, and prefers the one the word starts', () => {
    const words = ['on', 'off', 'status', 'now'];

    expect(closest('of', words)).toBe('off');
    expect(closest('stauts', words)).toBe('status');
    expect(closest('teleport', words)).toBeUndefined();
  });
});
