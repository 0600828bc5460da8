import fc from 'fast-check';
import type { Simulator } from '../../simulator/server.ts';
import { quarterContaining } from '../../src/domain/periods.ts';
import { pastWarningLine } from '../../src/domain/plan/rules.ts';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';
import { confirmationIdOf } from './charge-harness.ts';
import type { Tenant, TenantStack } from './tenant-harness.ts';

/**
 * One show, two ids, in the tenant model (issue 41; src/domain/show-ids.ts): the service takes a
 * show's public `eventId` and its internal `id` alike. A member plans a show by one id and again by
 * the other, an approver sets its quarter's budget, and the show is unlocked by either id. One show it
 * stays: one row of the plan, ledger entries under its public id, and its charge counted once, on the
 * plan's show (so the budget's warning comes).
 */

type Which = 'public' | 'internal';
export type ShowIdsStep = { kind: 'show-ids'; team: number; show: number; first: Which; unlock: Which };

export const showIdsStep: fc.Arbitrary<ShowIdsStep> = fc.record({
  kind: fc.constant('show-ids' as const),
  team: fc.constantFrom(0, 1, 2),
  show: fc.nat(30),
  first: fc.constantFrom('public' as const, 'internal' as const),
  unlock: fc.constantFrom('public' as const, 'internal' as const),
});

/** A budget the show's unlock passes the warning line of, whatever its price (the service's). */
const BUDGET = 1_000;

/** A show planned by both its ids and unlocked by one, in a channel. */
export interface PlannedTwice {
  teamId: string;
  channel: string;
  publicId: string;
  internalId: string;
  quarter: string;
  /** The unlock's confirmation, once its card was posted (its charge comes after the budget). */
  confirmationId?: string;
}

export interface ShowIdsContext {
  stack: TenantStack;
  seq: ReturnType<TenantStack['begin']>;
  planned: PlannedTwice[];
}

async function say(ctx: ShowIdsContext, tenant: Tenant, user: string, text: string) {
  await ctx.stack.slack
    .sendCommand({ user, channel: tenant.channel, text, teamId: tenant.teamId })
    .catch(() => undefined);
  await ctx.seq.idle();
}

export async function playShowIds(ctx: ShowIdsContext, s: ShowIdsStep) {
  const { sim, slack, clock } = ctx.stack;
  const tenant = ctx.seq.tenants[s.team] as Tenant;
  const today = clock.now().toISOString().slice(0, 10);
  const shows = sim.events.filter((e) => e.dateStart > today && e.id !== e.eventId);
  const show = shows[s.show % Math.max(1, shows.length)];
  if (!show) return;
  const id = (which: Which) => (which === 'public' ? show.eventId : show.id);
  const quarter = quarterContaining(new Date(show.dateStart)).key;
  const planned: PlannedTwice = {
    teamId: tenant.teamId,
    channel: tenant.channel,
    publicId: show.eventId,
    internalId: show.id,
    quarter,
  };
  ctx.planned.push(planned);
  await say(ctx, tenant, tenant.member, `plan add ${id(s.first)}`);
  await say(ctx, tenant, tenant.member, `plan add ${id(s.first === 'public' ? 'internal' : 'public')}`);
  await say(ctx, tenant, tenant.approver, `plan budget ${BUDGET} ${quarter}`);
  const before = slack.messages(tenant.channel).length;
  await say(ctx, tenant, tenant.member, `unlock ${id(s.unlock)}`);
  const card = slack
    .messages(tenant.channel)
    .slice(before)
    .findLast((m) => !m.visibleTo && !m.threadTs && confirmationIdOf(m));
  const confirmationId = card && confirmationIdOf(card);
  if (!card || !confirmationId) return;
  planned.confirmationId = confirmationId;
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
}

type Item = Record<string, unknown>;

/** Each internal id the simulator's shows have, with its public id (an id that is both is neither). */
function internalIds(sim: Simulator) {
  const publicIds = new Set(sim.events.map((e) => e.eventId));
  return new Map(sim.events.filter((e) => !publicIds.has(e.id)).map((e) => [e.id, e.eventId]));
}

/**
 * One id per show in what was kept: no plan row, cost or removed show under an internal id or twice
 * under one show's two ids; no ledger entry under an internal id. And each show planned twice whose
 * unlock, confirmed after its quarter's budget was set, took the show's spend past the budget's
 * warning line was warned about (the charge counted on the plan's show, not as other spend), unless
 * `warningMayFail` (Slack or DynamoDB failed during the sequence: a warning whose post failed waits
 * for the next charge).
 */
export function showIdsBroken(
  items: Item[],
  sim: Simulator,
  planned: readonly PlannedTwice[],
  warningMayFail: boolean,
) {
  const internal = internalIds(sim);
  const broken: string[] = [];
  for (const plan of items.filter((i) => i.type === 'plan')) {
    const where = `the plan of ${String(plan.channelId)}`;
    const rows = {
      shows: (plan.shows ?? []) as { eventId: string }[],
      removed: (plan.removed ?? []) as { eventId: string }[],
      costs: ((plan.costs ?? []) as { eventId: string; kind: string }[]).map((c) => ({
        eventId: c.eventId,
        kind: c.kind,
      })),
    };
    for (const [part, list] of Object.entries(rows)) {
      const seen = new Set<string>();
      for (const row of list) {
        if (internal.has(row.eventId))
          broken.push(
            `${where} keeps ${part} row ${row.eventId}, an internal id (${internal.get(row.eventId)})`,
          );
        const one = `${internal.get(row.eventId) ?? row.eventId}|${'kind' in row ? String(row.kind) : ''}`;
        if (seen.has(one)) broken.push(`${where} has two ${part} rows of show ${one.split('|')[0]}`);
        seen.add(one);
      }
    }
  }
  const ledger = items.filter((i) => i.type === 'ledger-entry');
  for (const entry of ledger)
    if (typeof entry.eventId === 'string' && internal.has(entry.eventId))
      broken.push(`ledger entry ${String(entry.id)} is kept under ${entry.eventId}, an internal id`);
  if (warningMayFail) return broken;
  for (const p of planned) {
    const plan = items.find((i) => i.type === 'plan' && i.teamId === p.teamId && i.channelId === p.channel);
    const budget = (plan?.budgets as Record<string, { credits: number }> | undefined)?.[p.quarter];
    const onPlan = ((plan?.shows ?? []) as { eventId: string }[]).some((s) => s.eventId === p.publicId);
    const charged = ledger.some(
      (e) => e.confirmationId === p.confirmationId && e.status === 'charged' && Number(e.credits) > 0,
    );
    if (!budget || !onPlan || !p.confirmationId || !charged) continue;
    const spent = ledger
      .filter((e) => e.teamId === p.teamId && e.channelId === p.channel)
      .filter((e) => e.eventId === p.publicId || e.eventId === p.internalId)
      .filter((e) => e.status === undefined || e.status === 'charged')
      .reduce((sum, e) => sum + Number(e.credits), 0);
    const warned = items.some(
      (i) =>
        i.type === 'plan-budget-warning' &&
        i.teamId === p.teamId &&
        i.channelId === p.channel &&
        i.quarter === p.quarter,
    );
    if (pastWarningLine(budget.credits, spent) && !warned)
      broken.push(
        `${p.channel} spent ${spent} credits on show ${p.publicId} (planned as ${p.internalId} too) against a ${p.quarter} budget of ${budget.credits}: no warning`,
      );
  }
  return broken;
}
