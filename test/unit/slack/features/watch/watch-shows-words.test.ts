import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../../../src/slack/commands/index.ts';
import { WatchPageValueSchema, watchPageWords } from '../../../../../src/slack/features/watch/buttons.ts';

describe('`watch shows` words', () => {
  it('reads a region and a quarter as search reads them, and a page before them', () => {
    expect(parseCommand('watch shows 3 region:north-america when:2027-q2')).toEqual({
      ok: true,
      command: { name: 'watch-shows', page: 3, region: 'North America', when: 'Q2-2027' },
    });
    expect(parseCommand('watch shows')).toEqual({ ok: true, command: { name: 'watch-shows', page: 1 } });
  });

  it('refuses other filters, words that are no page, and filters given twice', () => {
    for (const text of [
      'watch shows keywords:fintech',
      'watch shows Europe',
      'watch shows region:Europe region:DACH',
      'watch shows when:Q5-2027',
    ])
      expect(parseCommand(text).ok, text).toBe(false);
  });

  it('runs the same page again from a Previous / Next button', () => {
    // Prepare
    const value = WatchPageValueSchema.parse({
      view: 'shows',
      page: 2,
      region: 'North America',
      when: 'Q2-2027',
    });

    // Act
    const parsed = parseCommand(watchPageWords(value));

    // Assess
    expect(parsed).toEqual({
      ok: true,
      command: { name: 'watch-shows', page: 2, region: 'North America', when: 'Q2-2027' },
    });
    expect(parseCommand(watchPageWords({ view: 'list', page: 4 }))).toEqual({
      ok: true,
      command: { name: 'watch-list', page: 4 },
    });
  });
});
