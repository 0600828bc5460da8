import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_CHANNELS, DEV_USERS, type DevStack, startDevStack } from '../../../local/dev-stack.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { EARLY_POLLS, GIVE_UP_AFTER_MS } from '../../../src/domain/poll-cadence.ts';
import { visibleText } from '../../support/bot.ts';

/**
 * `npm run dev`: seconds after Confirm, while the service still works on the unlock, "Run now" for the
 * poller says a task is waiting; it once said none was (issue 41, item 6).
 */
describe('the local stack while an unlock waits for the service', () => {
  let stack: DevStack;
  const channel = DEV_CHANNELS.general;
  const alice = DEV_USERS.alice.id;
  const runNow = async (job: string) => {
    const response = await fetch(`${stack.slackUrl}/local/jobs/${job}`, { method: 'POST' });
    return (await response.json()) as { ok: boolean; said?: string };
  };

  beforeAll(async () => {
    // The service takes a day: the task stays waiting while the test looks.
    stack = await startDevStack({
      dynamoEndpoint: inject('dynamoEndpoint'),
      taskDurationMs: GIVE_UP_AFTER_MS,
    });
  });
  afterAll(() => stack.stop());

  it('counts the waiting task in Run now’s words', async () => {
    // Prepare: an email unlock, confirmed by Alice.
    const person = stack.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    await stack.slack.sendCommand({ user: alice, channel, text: `emails ${person?.id}` });
    await stack.idle();
    const card = stack.slack
      .messages(channel)
      .findLast((m) => visibleText(m).includes(ACTION_IDS.confirmYes));
    if (!card) throw new Error('no confirmation card');
    await stack.slack.click({ user: alice, channel, ts: card.ts, actionId: ACTION_IDS.confirmYes });
    // The worker's first poll found the service still working and said so on the card.
    const cardNow = () => visibleText(stack.slack.messages(channel).find((m) => m.ts === card.ts) ?? card);
    await expect.poll(cardNow, { timeout: 30_000 }).toContain('Waiting for the service');

    // Act
    const run = await runNow('poll-unlock-tasks');

    // Assess
    expect(run.ok).toBe(true);
    expect(run.said).not.toContain('No unlock task is waiting');
    expect(run.said).toMatch(/1 unlock task/);

    // The service finishing: the next poll posts the result in the card's thread.
    expect((await runNow('finish-service-tasks')).said).toContain('The service finished its pending tasks.');
    await stack.idle();
    // The worker's next early poll (or a run's) sees it done.
    await expect
      .poll(() => stack.slack.messages(channel).some((m) => m.threadTs === card.ts), {
        timeout: 3 * EARLY_POLLS.everyMs,
      })
      .toBe(true);
  });
});
