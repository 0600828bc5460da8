import { describe, expect, it } from 'vitest';
import { bareWord, subWords } from '../../../../src/slack/kit/command-arguments.ts';
import type { Refusal } from '../../../../src/slack/kit/command-types.ts';

describe('subWords (a word read by its sub-words, as `watch add | off` will be)', () => {
  const fail = (problem: string): Refusal => ({ ok: false, problem });
  const watch = subWords('watch', {
    add: ({ lines }) => ({ ok: true as const, command: { name: 'watch-add' as const, accounts: lines } }),
    off: bareWord('watch-off', 'watch off'),
  });
  const read = (lines: string) => {
    const words = lines.split(/\s+/).filter(Boolean);
    return watch({ words, text: words.join(' '), lines, fail });
  };

  it('hands each sub-word the words after it', () => {
    expect(read('add Acme Robotics')).toEqual({
      ok: true,
      command: { name: 'watch-add', accounts: 'Acme Robotics' },
    });
    expect(read('OFF')).toEqual({ ok: true, command: { name: 'watch-off' } });
  });

  it('hands a sub-word its text with the line breaks kept', () => {
    expect(read('add Acme Robotics\nglobex.com')).toEqual({
      ok: true,
      command: { name: 'watch-add', accounts: 'Acme Robotics\nglobex.com' },
    });
  });

  it('asks for a missing sub-word, and answers a typo with the nearest one', () => {
    expect(read('')).toEqual({ ok: false, problem: 'Say add or off.' });
    expect(read('of')).toEqual({
      ok: false,
      problem: '`of` is not a watch action. Did you mean `watch off`?',
    });
    expect(read('off now')).toEqual({
      ok: false,
      problem: '`watch off` takes nothing after it; `now` is extra.',
    });
    expect(read('constructor')).toMatchObject({ ok: false });
  });
});
