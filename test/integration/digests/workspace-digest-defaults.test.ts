import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormInputs } from '../../../local/fake-slack/fake-slack.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import {
  type DistributedBot,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const A = testWorkspace('T0DEFA');
const B = testWorkspace('T0DEFB');
/** A's workspace admin (by Slack role), who sets the defaults in the settings modal. */
const ADMIN = 'U0ADMINDEFA';
const MINUTE = 60_000;

/** `at`'s wall-clock time in `timeZone`, `HH:MM`. */
const wallTime = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );

/**
 * A distributed app's workspace defaults for digests (issue 15): A's admin sets 08:30 Berlin time in
 * the workspace settings modal, B sets none. A digest set up without a time starts at the workspace's
 * time, or at 09:00; the workspace's zone stands in for a user whose own Slack does not give one. The
 * steps run in order.
 */
describe('digest defaults per workspace (distributed app)', () => {
  let bot: DistributedBot;

  /** A's admin opens the settings from the Home, as Slack shows it. */
  const openSettings = async () => {
    await bot.slack.openHome(ADMIN, A.teamId);
    await bot.idle();
    const home = bot.slack.home(ADMIN);
    if (!home) throw new Error(`${ADMIN} has no Home`);
    await bot.slack.clickInView({ user: ADMIN, viewId: home.id, actionId: ACTION_IDS.openWorkspaceSettings });
    return bot.slack.modal(ADMIN);
  };
  /** A's admin saves the open settings modal with `inputs` changed, the rest as shown. */
  const saveSettings = async (inputs: FormInputs) => {
    const answer = await bot.slack.submitForm({ user: ADMIN, inputs });
    await bot.idle();
    return answer;
  };

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
    bot.slack.addUser(ADMIN, { name: 'admin', tz: 'UTC', teamId: A.teamId, isAdmin: true });
    await openSettings();
    await saveSettings({ digest_time: { value: '08:30' }, digest_zone: { value: 'Europe/Berlin' } });
  });

  afterAll(async () => {
    await bot?.close();
  });

  const subscriptionOf = (workspace: TestWorkspace) =>
    bot.store.digestSubscriptions.get(workspace.teamId, workspace.channel);

  it('saves the default time and zone an admin picks in the workspace settings', async () => {
    expect(bot.slack.modal(ADMIN)).toBeUndefined();
    expect(await bot.store.workspaces.getPolicy(A.teamId)).toMatchObject({
      digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' },
      updatedBy: ADMIN,
    });
  });

  it('opens a bare `/events digest on` at the workspace’s default time and zone, else 09:00 in my zone', async () => {
    for (const workspace of [A, B]) {
      await bot.command('digest on', workspace.member);
      await bot.idle();
    }

    const modalOf = (workspace: TestWorkspace) =>
      JSON.stringify(bot.slack.modal(workspace.member.userId)?.view.blocks);
    expect(modalOf(A)).toContain('"initial_time":"08:30"');
    expect(modalOf(A)).toMatch(/"initial_option":\{"text":\{[^}]*\},"value":"Europe\/Berlin"\}/);
    expect(modalOf(A)).not.toContain('My Slack time zone');
    expect(modalOf(B)).toContain('"initial_time":"09:00"');
    expect(modalOf(B)).toContain('My Slack time zone');
  });

  it('sets up `/events digest on` with filters but no time at the workspace’s default time and zone, else 09:00', async () => {
    await bot.command('digest on keywords:expo', A.member);
    await bot.command('digest on keywords:expo', B.member);
    await bot.idle();

    // The workspace's zone goes before the member's own (UTC).
    expect(await subscriptionOf(A)).toMatchObject({
      time: '08:30',
      timeZone: 'Europe/Berlin',
      filters: { keywords: 'expo' },
    });
    expect(await subscriptionOf(B)).toMatchObject({ time: '09:00', filters: { keywords: 'expo' } });
  });

  it('runs the digest of a member whose Slack gives no zone at 08:30 in the workspace’s zone', async () => {
    const nowhere = { teamId: A.teamId, userId: 'U0NOZONEDEFA', channelId: A.channel };
    bot.slack.addUser(nowhere.userId, { name: 'nowhere', tz: '', teamId: A.teamId });
    await bot.command('digest on keywords:expo', nowhere);
    await bot.idle();
    const subscription = await subscriptionOf(A);
    const due = new Date(subscription?.nextRunAt ?? '');
    const runDigestsAt = async (at: number) => (await bot.scheduled(() => new Date(at))()).runDigests();

    const early = await runDigestsAt(due.getTime() - MINUTE);
    const onTime = await runDigestsAt(due.getTime() + MINUTE);

    expect(subscription).toMatchObject({ time: '08:30', timeZone: 'Europe/Berlin' });
    expect(wallTime(due, 'Europe/Berlin')).toBe('08:30');
    expect([early.posted, onTime.posted]).toEqual([0, 1]);
    expect(bot.slack.messages(A.channel).filter((m) => /Digest for/.test(m.text))).toHaveLength(1);
  });

  it('keeps a time the command names over the workspace’s default', async () => {
    await bot.command('digest on 07:15', A.member);
    await bot.idle();

    expect(await subscriptionOf(A)).toMatchObject({ time: '07:15' });
  });

  it('shows the stored zone and time in the settings reopened, and keeps them when saved unchanged', async () => {
    const modal = await openSettings();
    const shown = (field: string) =>
      (modal?.view.blocks as { block_id?: string; element?: unknown }[]).find(
        (block) => block.block_id === field,
      )?.element;

    const answer = await saveSettings({});

    expect(shown('digest_time')).toMatchObject({ initial_time: '08:30' });
    expect(shown('digest_zone')).toMatchObject({ initial_option: { value: 'Europe/Berlin' } });
    expect(modal?.warnings).toEqual([]);
    expect(answer?.status).toBe(200);
    expect(bot.slack.modal(ADMIN)).toBeUndefined();
    expect((await bot.store.workspaces.getPolicy(A.teamId))?.digestDefaults).toEqual({
      time: '08:30',
      timeZone: 'Europe/Berlin',
    });
  });

  it('lets the admin go back to no default zone, keeping the time', async () => {
    await openSettings();

    await saveSettings({ digest_zone: { value: 'slack' } });

    expect((await bot.store.workspaces.getPolicy(A.teamId))?.digestDefaults).toEqual({ time: '08:30' });
  });
});
