import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DistributedBot,
  startDistributedBot,
  type TestWorkspace,
  testWorkspace,
} from '../support/distributed-bot.ts';

const A = testWorkspace('T0DEFA');
const B = testWorkspace('T0DEFB');

/**
 * A distributed app's workspace defaults for digests (issue 15): A's admin set 08:30 Berlin time, B
 * set none. A digest set up without a time starts at the workspace's time, or at 09:00; the
 * workspace's zone stands in for a user whose own Slack does not give.
 */
describe('digest defaults per workspace (distributed app)', () => {
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [A, B] });
    for (const workspace of [A, B]) {
      expect(await bot.install(workspace.teamId)).toBe(200);
      await bot.connectKey(workspace.teamId, bot.newKey());
    }
    // As the workspace settings modal saves it.
    await bot.store.workspaces.putPolicy(
      A.teamId,
      { digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' } },
      'U0ADMIN',
    );
  });

  afterAll(async () => {
    await bot?.close();
  });

  const subscriptionOf = (workspace: TestWorkspace) =>
    bot.store.digestSubscriptions.get(workspace.teamId, workspace.channel);

  it('opens a bare `/events digest on` at the workspace’s default time, else 09:00', async () => {
    for (const workspace of [A, B]) {
      await bot.command('digest on', workspace.member);
      await bot.idle();
    }

    const modalOf = (workspace: TestWorkspace) =>
      JSON.stringify(bot.slack.modal(workspace.member.userId)?.view.blocks);
    expect(modalOf(A)).toContain('"initial_time":"08:30"');
    expect(modalOf(B)).toContain('"initial_time":"09:00"');
  });

  it('sets up `/events digest on` with filters but no time at the workspace’s default, else 09:00', async () => {
    await bot.command('digest on keywords:expo', A.member);
    await bot.command('digest on keywords:expo', B.member);
    await bot.idle();

    // The member's own zone (UTC) wins over the workspace's.
    expect(await subscriptionOf(A)).toMatchObject({
      time: '08:30',
      timeZone: 'UTC',
      filters: { keywords: 'expo' },
    });
    expect(await subscriptionOf(B)).toMatchObject({ time: '09:00', filters: { keywords: 'expo' } });
  });

  it('uses the workspace’s zone for a member whose Slack gives none', async () => {
    const nowhere = { teamId: A.teamId, userId: 'U0NOZONEDEFA', channelId: A.channel };
    bot.slack.addUser(nowhere.userId, { name: 'nowhere', tz: '', teamId: A.teamId });

    await bot.command('digest on keywords:expo', nowhere);
    await bot.idle();

    expect(await subscriptionOf(A)).toMatchObject({ time: '08:30', timeZone: 'Europe/Berlin' });
  });

  it('keeps a time the command names over the workspace’s default', async () => {
    await bot.command('digest on 07:15', A.member);
    await bot.idle();

    expect(await subscriptionOf(A)).toMatchObject({ time: '07:15' });
  });
});
