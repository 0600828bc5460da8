import { describe, expect, it } from 'vitest';
import { yearPeriod } from '../../../../src/domain/outcome-return.ts';
import { parseQuarter } from '../../../../src/domain/periods.ts';
import { parseCommand } from '../../../../src/slack/commands/index.ts';

describe('`/events return`', () => {
  it('reads a show, a quarter, a year, or nothing (the last full quarter)', () => {
    expect(parseCommand('return')).toEqual({ ok: true, command: { name: 'return' } });
    expect(parseCommand('return 26855')).toEqual({ ok: true, command: { name: 'return', eventId: '26855' } });
    expect(parseCommand('return q2-2027')).toEqual({
      ok: true,
      command: { name: 'return', period: parseQuarter('Q2-2027') },
    });
    expect(parseCommand('return 2027')).toEqual({
      ok: true,
      command: { name: 'return', period: yearPeriod('2027') },
    });
  });

  it('refuses anything else with the usage, naming what was wrong', () => {
    const word = parseCommand('return last-year');
    expect(word).toMatchObject({ ok: false, spec: { word: 'return' } });
    expect(!word.ok && word.problem).toContain('`last-year` is not an event id, a quarter');
    expect(parseCommand('return 26855 Q2-2027')).toMatchObject({ ok: false, spec: { word: 'return' } });
  });
});
