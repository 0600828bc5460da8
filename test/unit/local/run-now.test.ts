import { describe, expect, it } from 'vitest';
import { digestRunWords, pollWords, watchRunWords, whenWords } from '../../../local/run-now.ts';
import { emptyDigestRun } from '../../../src/domain/digest.ts';
import { emptySummary } from '../../../src/domain/unlock-polling.ts';
import { emptyWatchCheck } from '../../../src/domain/watch/check.ts';

// What "Run now" on the local page says a job did, from the job's own summary.

const NOW = new Date('2027-03-01T10:00:00Z');
const name = (id: string) => ({ C0GENERAL: '#general', C0EVENTS: '#events' })[id] ?? id;
const watchRun = { workspaces: 1, due: 2, sent: 0, checked: 2, failed: 0, outOfTime: false };
const check = (channelId: string, postedAlert: boolean, looked = 3) => ({
  request: { teamId: 'T0LOCAL', channelId, checkId: 'r1@x' },
  summary: { ...emptyWatchCheck(), accounts: looked, looked, postedAlert },
});

describe('Run now’s words', () => {
  it('names the channels a watch run checked and where it posted alerts', () => {
    const words = watchRunWords(
      { summary: watchRun, checks: [check('C0GENERAL', false), check('C0EVENTS', true, 1)] },
      [],
      name,
      NOW,
    );
    expect(words).toBe(
      'Checked 2 channels (#general and #events), 4 accounts looked up; 1 alert posted in #events.',
    );
  });

  it('says a failed channel stays due', () => {
    const words = watchRunWords(
      { summary: { ...watchRun, due: 1, checked: 0, failed: 1 }, checks: [] },
      [],
      name,
      NOW,
    );
    expect(words).toBe('1 channel could not be checked (the log says why); it stays due.');
  });

  it('says when each watching channel is next checked when none is due', () => {
    const words = watchRunWords(
      { summary: { ...watchRun, due: 0, checked: 0 }, checks: [] },
      [
        { channelId: 'C0GENERAL', nextCheckAt: '2027-03-01T10:42:00.000Z' },
        { channelId: 'C0EVENTS', nextCheckAt: '2027-03-02T09:30:00.000Z' },
      ],
      name,
      NOW,
    );
    expect(words).toBe(
      'No watch check due. Next: #general at 10:42 UTC (in 42 minutes); #events at 09:30 UTC (in 24 hours).',
    );
    expect(whenWords('2027-03-01T09:59:00.000Z', NOW)).toBe('09:59 UTC (due now)');
  });

  it('names the channels whose digests were due, and counts what happened to them', () => {
    const before = [
      {
        channelId: 'C0EVENTS',
        time: '08:00',
        timeZone: 'Europe/Berlin',
        nextRunAt: '2027-03-01T07:00:00.000Z',
      },
      { channelId: 'C0GENERAL', time: '18:00', timeZone: 'UTC', nextRunAt: '2027-03-01T18:00:00.000Z' },
    ];
    const posted = digestRunWords({ ...emptyDigestRun(), due: 1, posted: 1 }, before, name, NOW);
    expect(posted).toBe('1 digest due (#events): 1 posted.');
    const none = digestRunWords(emptyDigestRun(), before, name, NOW);
    expect(none).toBe(
      "No digest due: #events's digest is at 08:00 Europe/Berlin; #general's digest is at 18:00 UTC.",
    );
    const again = digestRunWords({ ...emptyDigestRun(), due: 1, alreadyPosted: 1 }, before, name, NOW);
    expect(again).toBe('1 digest due (#events): 0 posted; 1 already posted today.');
  });

  it('counts the unlock results the poller posted and the tasks still running', () => {
    expect(pollWords({ ...emptySummary(), polled: 3, posted: 1, rescheduled: 2 }, 2)).toBe(
      "Polled 3 unlock tasks: 1 result posted in the card's thread, 2 still running at the service (polled again soon).",
    );
    expect(pollWords(emptySummary(), 0)).toBe(
      'No unlock task is waiting for the service: results already in their threads.',
    );
    expect(pollWords(emptySummary(), 1)).toContain('1 unlock task waiting for the service');
  });
});
