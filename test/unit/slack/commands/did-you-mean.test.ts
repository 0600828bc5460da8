import { describe, expect, it } from 'vitest';
import { unknownCommand } from '../../../../src/slack/commands/help-views.ts';
import { chargeActionOf, COMMAND_SPECS, parseCommand } from '../../../../src/slack/commands/index.ts';
import { nearestWord } from '../../../../src/slack/commands/nearest-word.ts';
import { textsOf } from '../../../support/views.ts';

describe('did-you-mean', () => {
  it('offers the free word when a free and a charging word are as near, whatever their order', () => {
    // Prepare: `exhibitorz` is one edit from both
    const words = [
      { word: 'exhibitor', charges: true },
      { word: 'exhibitors', charges: false },
    ];

    // Act
    const guess = nearestWord('exhibitorz', words);

    // Assess
    expect(guess).toBe('exhibitors');
    expect(nearestWord('exhibitr', words)).toBe('exhibitor');
  });

  it('never turns ids into a paid name search (compnay → company), and reads them as a compare', () => {
    // Act
    const result = parseCommand('compnay 27317 27053 27251');

    // Assess
    expect(result).toMatchObject({
      ok: false,
      showHelp: true,
      problem: '`compnay` is not an /events command.',
    });
    expect(result).not.toHaveProperty('suggestion');
    const typed = parseCommand('company 27317 27053 27251');
    expect(typed).toMatchObject({ ok: false, spec: { word: 'company' } });
    if (!typed.ok) expect(typed.problem).toContain('are ids, not a company name');
    expect(parseCommand('compare 27317 27053 27251')).toEqual({
      ok: true,
      command: { name: 'compare', eventIds: ['27317', '27053', '27251'] },
    });
    expect(parseCommand('compary 27317 27053')).toMatchObject({ suggestion: 'compare 27317 27053' });
  });

  it('says what a suggested charging command spends, from its credits text', () => {
    // Act
    const result = parseCommand('compny Acme Analytics');

    // Assess
    expect(result).toMatchObject({
      ok: false,
      suggestion: 'company Acme Analytics',
      suggestionCharges: '50 if anything matches, per page',
    });
  });

  it('says so for a word that charges in one form only, and not for its free form', () => {
    expect(parseCommand('acount Acme Analytics')).toMatchObject({
      suggestion: 'account Acme Analytics',
      suggestionCharges: 'up to 50 credits (charged only if something matches)',
    });
    expect(parseCommand('acount 4100')).toMatchObject({ suggestion: 'account 4100' });
    expect(parseCommand('acount 4100')).not.toHaveProperty('suggestionCharges');
    expect(parseCommand('fitt 26855')).not.toHaveProperty('suggestionCharges');
  });

  it('puts the charge in the answer, next to the suggestion', () => {
    // Act
    const message = unknownCommand(
      '`compny` is not an /events command.',
      'company Acme Analytics',
      '50 if anything matches, per page',
    );

    // Assess
    expect(textsOf(message.blocks).join('\n')).toContain(
      'Did you mean `/events company Acme Analytics`? That one spends credits: *50 if anything matches, per page*',
    );
  });
});

describe('the registry', () => {
  it('asks for a charge on the example of every word that lists credits, and on no other', () => {
    for (const spec of COMMAND_SPECS) {
      const parsed = parseCommand(spec.example);
      if (!parsed.ok) throw new Error(`${spec.example}: ${parsed.problem}`);
      expect(chargeActionOf(parsed.command) !== undefined, spec.word).toBe(spec.credits !== undefined);
    }
  });
});
