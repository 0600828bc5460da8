import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { RUN_EVERY_MS } from '../../../src/domain/poll-cadence.ts';
import { visibleText } from '../../support/bot.ts';
import {
  type DistributedBot,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');
const MINUTE = 60_000;

/*
 * A poll-tasks run of a distributed app (a pass per workspace, in fair turns) polls tasks older than
 * 10 minutes once, and makes them due when the next run starts: it does not stay up for them.
 */
describe('a poll run over two workspaces (distributed app)', () => {
  let bot: DistributedBot;
  const threads: string[] = [];

  async function confirmedUnlock(workspace: TestWorkspace, nth: number): Promise<void> {
    const person = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable)[nth];
    await bot.command(`emails ${person?.id}`, workspace.member);
    await bot.idle();
    const card: SlackMessage | undefined = bot.slack.messages(workspace.channel).at(-1);
    if (!card || !visibleText(card).includes('confirm.yes'))
      throw new Error(`no card in ${workspace.teamId}`);
    await bot.click(card, 'confirm.yes', workspace.member);
    await bot.idle();
    threads.push(card.ts);
  }

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
    // Tasks the service works on for a day: still running when the run below polls them.
    bot.sim.setTaskDuration(24 * 60 * MINUTE);
    await confirmedUnlock(A, 0);
    await confirmedUnlock(B, 1);
  });
  afterAll(() => bot.close());

  it('polls each workspace’s 15-minute-old task once and ends, both due when the next run starts', async () => {
    // Prepare: the run starts 15 minutes after the unlocks (its clock stands still).
    const startedAt = new Date(Date.now() + 15 * MINUTE);
    const load = bot.scheduled(() => startedAt);

    // Act
    const summary = await load.pollRun();

    // Assess
    expect(summary).toMatchObject({ polled: 2, posted: 0, passes: 1 });
    const tasks = (
      await load.store.unlockTasks.due({ now: new Date(startedAt.getTime() + MINUTE), limit: 50 })
    ).filter((task) => threads.includes(task.threadTs));
    expect(tasks.map((task) => [task.teamId, task.nextPollAt]).sort()).toEqual([
      [A.teamId, new Date(startedAt.getTime() + RUN_EVERY_MS).toISOString()],
      [B.teamId, new Date(startedAt.getTime() + RUN_EVERY_MS).toISOString()],
    ]);
  });
});
