import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_CHANNELS, DEV_USERS, type DevStack, startDevStack } from '../../../local/dev-stack.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { GIVE_UP_AFTER_MS } from '../../../src/domain/poll-cadence.ts';
import { visibleText } from '../../support/bot.ts';

/**
 * `npm run dev`: seconds after Confirm, a waiting card once said "started 2 h ago", because the local
 * poller ran on a clock ten times fast (issue 41, item 6). Checked through the stack: once the
 * scheduled poller (Run now) has polled a task the service still works on, the card's age is no more
 * than the real time since the click.
 */

/**
 * The worker polls its task once, this long after the charge, then leaves it to the scheduled poller:
 * Run now finds the task at least this old, so a poller clock running even eight times fast would call
 * it past the card's first 15-s step.
 */
const ONE_EARLY_POLL = { count: 1, everyMs: 2_000 };
const MS_PER_UNIT: Record<string, number> = { s: 1_000, min: 60_000, h: 60 * 60_000 };

const WAITING_AGE = /Waiting for the service: [^;]*?(just started|started (\d+) (s|min|h) ago);/;

/** How old the card says its task is, in ms ("just started" is 0), or undefined when it says no age. */
function claimedAgeMs(card: string): number | undefined {
  const said = WAITING_AGE.exec(card);
  if (!said) return undefined;
  const [, words, count, unit] = said;
  return words === 'just started' ? 0 : Number(count) * (MS_PER_UNIT[unit ?? ''] ?? Number.NaN);
}

describe('the local stack’s waiting card after the scheduled poller polled it', () => {
  let stack: DevStack;
  const channel = DEV_CHANNELS.general;
  const alice = DEV_USERS.alice.id;
  const runNow = async (job: string) => {
    const response = await fetch(`${stack.slackUrl}/local/jobs/${job}`, { method: 'POST' });
    return (await response.json()) as { ok: boolean; said?: string };
  };

  beforeAll(async () => {
    stack = await startDevStack({
      dynamoEndpoint: inject('dynamoEndpoint'),
      // The service takes a day: the task stays waiting while the test looks.
      taskDurationMs: GIVE_UP_AFTER_MS,
      earlyPolls: ONE_EARLY_POLL,
      // No timed run during the test: Run now is the scheduled poller's one run.
      pollEveryMs: GIVE_UP_AFTER_MS,
    });
  });
  afterAll(() => stack.stop());

  it('never says the task started longer ago than the real time since Confirm', async () => {
    // Prepare: an email unlock, confirmed by Alice; the worker's one early poll shows it waiting.
    const person = stack.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    await stack.slack.sendCommand({ user: alice, channel, text: `emails ${person?.id}` });
    await stack.idle();
    const card = stack.slack
      .messages(channel)
      .findLast((m) => visibleText(m).includes(ACTION_IDS.confirmYes));
    if (!card) throw new Error('no confirmation card');
    const clickedAt = performance.now();
    await stack.slack.click({ user: alice, channel, ts: card.ts, actionId: ACTION_IDS.confirmYes });
    await stack.idle();
    const cardNow = () => visibleText(stack.slack.messages(channel).find((m) => m.ts === card.ts) ?? card);
    expect(claimedAgeMs(cardNow())).toBeDefined();

    // Act: Run now until the scheduled poller's run is the one that polls the task (once it is due).
    await expect
      .poll(async () => (await runNow('poll-unlock-tasks')).said, {
        timeout: 4 * ONE_EARLY_POLL.everyMs,
        interval: 200,
      })
      .toMatch(/^Polled 1 unlock task/);

    // Assess: the card's age, against the real time since the click (rounded up to a whole second).
    const claimed = claimedAgeMs(cardNow());
    const elapsedMs = Math.ceil((performance.now() - clickedAt) / 1_000) * 1_000;
    const said = `the card: "${WAITING_AGE.exec(cardNow())?.[0]}", ${elapsedMs} ms after Confirm`;
    expect(claimed, said).toBeDefined();
    expect(claimed, said).toBeLessThanOrEqual(elapsedMs);
  });
});
