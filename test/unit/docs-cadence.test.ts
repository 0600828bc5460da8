import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EARLY_POLLS, EVERY_RUN_FOR_MS, MAX_BACKOFF_MS, YOUNG_STEPS } from '../../src/domain/poll-cadence.ts';

/**
 * The poll cadence as docs/using.md and docs/performance.md quote it is the source's
 * (`src/domain/poll-cadence.ts`): a changed cadence fails here until the docs say it too.
 */

const read = (doc: string) =>
  readFileSync(new URL(`../../docs/${doc}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const seconds = (ms: number) => ms / 1_000;
const minutes = (ms: number) => ms / 60_000;
const [FIRST, SECOND] = YOUNG_STEPS;
/** How long the submitting worker polls at most: its first polls, a step apart. */
const EARLY_FOR_MS = EARLY_POLLS.count * EARLY_POLLS.everyMs;

describe('the poll cadence the docs quote', () => {
  it('is the source’s in docs/using.md', () => {
    const text = read('using.md');
    expect(text).toContain(
      `polls it every ${seconds(EARLY_POLLS.everyMs)} s until a scheduled run has taken it over (at most ${seconds(EARLY_FOR_MS)} s)`,
    );
    expect(text).toContain(
      `each every ${seconds(FIRST.everyMs)} s for its first ${minutes(FIRST.untilAgeMs)} minutes and every ${seconds(SECOND.everyMs)} s until it is ${minutes(SECOND.untilAgeMs)} minutes old, then once at the start of every run until ${minutes(EVERY_RUN_FOR_MS)} minutes, then backing off to every ${minutes(MAX_BACKOFF_MS)} minutes`,
    );
  });

  it('is the source’s in docs/performance.md', () => {
    const text = read('performance.md');
    expect(text).toContain(
      `every ${seconds(FIRST.everyMs)} s until a task is ${minutes(FIRST.untilAgeMs)} minutes old, every ${seconds(SECOND.everyMs)} s until ${minutes(SECOND.untilAgeMs)} minutes, then once as each run starts until ${minutes(EVERY_RUN_FOR_MS)} minutes`,
    );
    expect(text).toContain(`then backing off to ${minutes(MAX_BACKOFF_MS)} minutes`);
    expect(text).toContain(
      `polls it at the same ${seconds(EARLY_POLLS.everyMs)}-s step until a run has taken it over (the run held its lease or polled it since) or for ${seconds(EARLY_FOR_MS)} s`,
    );
  });
});
