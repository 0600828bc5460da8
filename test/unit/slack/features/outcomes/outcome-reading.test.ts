import { describe, expect, it } from 'vitest';
import { OUTCOME_LIMITS } from '../../../../../src/domain/outcomes.ts';
import { commandOf, problemOf } from '../../../../support/commands.ts';

/** `/events outcome …` as typed: the kind with its grade or amount, the account, the note. */
describe('reading /events outcome', () => {
  it('reads each kind with what it carries, the account quoted or not, and the rest as the note', () => {
    expect(commandOf('outcome 26855 meeting-booked Acme')).toEqual({
      name: 'outcome',
      eventId: '26855',
      kind: 'meeting-booked',
      account: 'Acme',
    });
    expect(commandOf('outcome 26855 lead b "Acme Robotics" met their CTO')).toEqual({
      name: 'outcome',
      eventId: '26855',
      kind: 'lead',
      grade: 'B',
      account: 'Acme Robotics',
      note: 'met their CTO',
    });
    expect(commandOf('outcome 26855 won 48,000 eur Globex signed')).toMatchObject({
      kind: 'won',
      amount: { hundredths: 4_800_000, currency: 'EUR' },
      account: 'Globex',
      note: 'signed',
    });
    // The amount after the account, as the order has it.
    expect(commandOf('outcome 26855 opportunity "Acme Robotics" 12000.50 first call')).toMatchObject({
      amount: { hundredths: 1_200_050 },
      account: 'Acme Robotics',
      note: 'first call',
    });
    // A meeting's note may start with a number: no amount is read for it.
    expect(commandOf('outcome 26855 meeting-held Acme 3 people came')).toMatchObject({
      note: '3 people came',
    });
    expect(commandOf('outcome delete 0a1b2c3d')).toEqual({ name: 'outcome-delete', id: '0a1b2c3d' });
    expect(commandOf('outcome edit 0a1b2c3d lead a Acme')).toEqual({
      name: 'outcome-edit',
      id: '0a1b2c3d',
      kind: 'lead',
      grade: 'A',
      account: 'Acme',
    });
  });

  it.each([
    ['outcome', 'Say which show'],
    ['outcome 26855', 'Say what the show brought'],
    ['outcome 26855 meeting Acme', '`meeting` is not a kind of outcome'],
    ['outcome 26855 lead Acme', '`Acme` is none'],
    ['outcome 26855 lead D Acme', '`D` is none'],
    ['outcome 26855 won -500 Acme', '`-500` is below 0'],
    ['outcome 26855 won 12k Acme', '`12k` is not an amount'],
    ['outcome 26855 won 1.234 Acme', 'has more than 2 decimals'],
    ['outcome 26855 won Acme', 'won takes an amount'],
    ['outcome 26855 opportunity Acme soon', '`soon` is not an amount'],
    ['outcome 26855 meeting-held', 'Name the account'],
    ['outcome 26855 won 500', 'Name the account'],
    [`outcome 26855 meeting-held Acme ${'x'.repeat(OUTCOME_LIMITS.noteChars + 1)}`, 'The note is'],
  ])('refuses `%s` with the usage', (text, problem) => {
    expect(problemOf(text)).toContain(problem);
    expect(problemOf(text)).toContain('Kinds: meeting-booked');
  });

  it('refuses a delete without an entry’s id', () => {
    expect(problemOf('outcome delete 42')).toContain("Give the entry's id");
    expect(problemOf('outcome delete')).toContain("Give the entry's id");
    expect(problemOf('outcome edit 42 lead A Acme')).toContain("Give the entry's id");
    expect(problemOf('outcome edit 0a1b2c3d won -1 Acme')).toContain('Nothing was changed.');
  });
});
