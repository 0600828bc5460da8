import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_READS_PER_POLL } from '../../src/domain/follow-up.ts';
import { POLL_IN_FLIGHT } from '../../src/eis/limiter.ts';

/**
 * docs/performance.md states the poller's bounds beside the figures measured under them (issue 41):
 * the share of calls in flight and the reads per task a poll. They are the source's, or the doc is
 * wrong.
 */

const DOC = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
/** The doc's text with its line breaks as spaces (a sentence may wrap anywhere). */
const text = DOC.replace(/\s+/g, ' ');

describe('docs/performance.md, polls bounded by calls', () => {
  it('states the poller’s share of the key’s calls in flight as the source sets it', () => {
    const { total, perMember, perTask } = POLL_IN_FLIGHT;
    expect(text).toContain(`at most ${total} in flight (\`POLL_IN_FLIGHT.total\`)`);
    expect(text).toContain(`at most ${perMember} of them for one member's tasks`);
    expect(text).toContain(`and ${perTask} for one task`);
  });

  it('states the reads per task a poll beside the measured reply p95', () => {
    expect(text).toContain(
      `at most ${FOLLOW_UP_READS_PER_POLL} people per poll (\`FOLLOW_UP_READS_PER_POLL\``,
    );
    const paragraphs = DOC.split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s+/g, ' '));
    const besideP95 = paragraphs.filter(
      (paragraph) =>
        paragraph.includes('p95') &&
        paragraph.includes(`≤ ${FOLLOW_UP_READS_PER_POLL} reads per task a poll`),
    );
    expect(besideP95).not.toEqual([]);
  });
});
