import { describe, expect, it } from 'vitest';
import { unlockWaitingOf, WAITING_STEP_MS, waitingShownKey } from '../../../src/domain/unlock-waiting.ts';
import { unlockWaitingWords } from '../../../src/slack/features/unlock-results/views.ts';

const task = {
  personnelIds: ['1', '2', '3', '4'],
  skipped: [{ personnelId: '4', reason: 'already unlocked' }],
};
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('the card’s line while an unlock waits for the service', () => {
  it('says how many contacts, since when, and what to expect', () => {
    const words = (ageMs: number) => unlockWaitingWords(unlockWaitingOf(task, ageMs));

    expect(words(4 * SECOND)).toBe(
      'Waiting for the service: 3 contacts, just started; results usually arrive within a minute.',
    );
    expect(words(44 * SECOND)).toBe(
      'Waiting for the service: 3 contacts, started 30 s ago; results usually arrive within a minute.',
    );
    expect(words(2 * MINUTE + 50 * SECOND)).toBe(
      'Waiting for the service: 3 contacts, started 2 min ago; this one is taking longer than most; I will keep checking for up to 24 hours.',
    );
    expect(words(3 * 60 * MINUTE + 5 * SECOND)).toBe(
      'Waiting for the service: 3 contacts, started 3 h ago; this one is taking longer than most; I will keep checking for up to 24 hours.',
    );
    expect(unlockWaitingWords(unlockWaitingOf({ personnelIds: ['1'], skipped: [] }, 0))).toBe(
      'Waiting for the service: 1 contact, just started; results usually arrive within a minute.',
    );
  });

  it('changes its words at most every 15 s, so polls every 5 s rewrite the card at most every 15 s', () => {
    // Act: the words at every second of a day.
    const changes: number[] = [];
    let shown = '';
    for (let age = 0; age <= 24 * 60 * MINUTE; age += SECOND) {
      const key = waitingShownKey(unlockWaitingOf(task, age));
      if (key !== shown) changes.push(age);
      shown = key;
    }

    // Assess: 4 rewrites in the first minute, one a minute until an hour, then one an hour.
    const gaps = changes.slice(1).map((at, i) => at - (changes[i] ?? 0));
    expect(Math.min(...gaps)).toBe(WAITING_STEP_MS);
    expect(changes).toHaveLength(4 + 59 + 24);
  });
});
