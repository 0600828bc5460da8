import fc from 'fast-check';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';
import { confirmationIdOf } from './charge-harness.ts';
import type { DiedPosting, Tenant, TenantStack } from './tenant-harness.ts';

/**
 * A poller killed between taking a finished task (its lease: the reply is the run's to post) and
 * posting the reply, in the tenant model (issue 41; src/domain/unlock-posting.ts): a member's email
 * unlock is confirmed, the service finishes it, and the poll run that takes it dies as it posts. The
 * reply must still come, once: from a later run, once the dead run's lease ran out.
 */

export type DyingPollStep = { kind: 'dying-poll'; team: number };

export const dyingPollStep: fc.Arbitrary<DyingPollStep> = fc.record({
  kind: fc.constant('dying-poll' as const),
  team: fc.constantFrom(0, 1, 2),
});

export interface DyingPollContext {
  stack: TenantStack;
  seq: ReturnType<TenantStack['begin']>;
  died: DiedPosting[];
}

export async function playDyingPoll(ctx: DyingPollContext, s: DyingPollStep) {
  const { slack, sim } = ctx.stack;
  const tenant = ctx.seq.tenants[s.team] as Tenant;
  const before = slack.messages(tenant.channel).length;
  await slack
    .sendCommand({
      user: tenant.member,
      channel: tenant.channel,
      text: 'emails 100003 100004',
      teamId: tenant.teamId,
    })
    .catch(() => undefined);
  await ctx.seq.idle();
  const card = slack
    .messages(tenant.channel)
    .slice(before)
    .findLast((m) => !m.visibleTo && !m.threadTs && confirmationIdOf(m));
  if (card)
    await slack
      .click({
        user: tenant.approver,
        channel: tenant.channel,
        ts: card.ts,
        actionId: ACTION_IDS.confirmYes,
        teamId: tenant.teamId,
      })
      .catch(() => undefined);
  await ctx.seq.idle();
  sim.completeTasks();
  const died = await ctx.seq.dyingPoll(tenant.teamId).catch(() => undefined);
  if (died) ctx.died.push(died);
}

type Item = Record<string, unknown>;

/**
 * Each reply a poll run died posting is in its thread once after the settling runs: never twice, and
 * not missing while its task says it was posted (without a Slack failure or a stop to explain it) or
 * while its task still waits although its workspace is not paused.
 */
export function dyingPollsBroken(
  items: Item[],
  died: readonly DiedPosting[],
  stack: TenantStack,
  paused: (teamId: string) => boolean,
) {
  const broken: string[] = [];
  for (const d of died) {
    const posted = stack.slack
      .messages(d.channel)
      .filter((m) => m.threadTs === d.threadTs && !m.visibleTo && m.text === d.text).length;
    const task = items.find(
      (i) => i.type === 'unlock-task' && i.channelId === d.channel && i.threadTs === d.threadTs,
    );
    const said = `the reply a killed poller was posting in ${d.channel} (thread ${d.threadTs})`;
    if (posted > 1) broken.push(`${said} was posted ${posted} times`);
    if (posted > 0 || !task) continue;
    const explained = task.stoppedAt !== undefined || Number(task.slackFailures ?? 0) > 0;
    if (task.resultPostedAt !== undefined && !explained)
      broken.push(
        `${said} is marked posted (at ${JSON.stringify(task.resultPostedAt)}) and was never posted`,
      );
    if (task.resultPostedAt === undefined && !explained && !paused(String(task.teamId)))
      broken.push(`${said} was never posted by a later run`);
  }
  return broken;
}
