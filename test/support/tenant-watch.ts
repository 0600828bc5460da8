import fc from 'fast-check';
import { KNOWN_COMPANY_NAME, type Simulator } from '../../simulator/server.ts';
import { exhibitorMatches } from '../../src/domain/watch/names.ts';
import { createKillSwitch } from './kill-switch.ts';
import type { WatchCheckRequest } from '../../src/scheduling/watch-dispatch.ts';
import type { Tenant } from './tenant-harness.ts';
import type { WatchPool } from './tenant-watch-pool.ts';

import { observeAlerts, watchCounts } from './tenant-watch-alerts.ts';
import type { WatchContext, WatchRecord } from './tenant-watch-record.ts';

export { DATA_HOSTS, watchPool, type WatchPool } from './tenant-watch-pool.ts';
export { observeAlerts, watchCounts } from './tenant-watch-alerts.ts';
export { newWatchRecord, type WatchContext, type WatchRecord } from './tenant-watch-record.ts';

/** A check whose Lambda runs out of time dies after this many calls (service and store), every time. */
const TIMEOUT_CALLS = 40;
const DAY_SECONDS = 86_400;

/**
 * The account watch in the tenant model (issue 32): its steps, played through the real handlers (the
 * `/events watch` words, the import form, the hourly run inline), and what a sequence records to judge
 * them by: the shows each account's company was on when it was added, the alerts posted, the budgets.
 */

export type WatchStep =
  | { kind: 'watch-add'; team: number; labels: number[] }
  | { kind: 'watch-hostile'; team: number; label: number; via: 'add' | 'import' }
  | { kind: 'watch-side'; team: number; label: number }
  | { kind: 'watch-remove'; team: number; label: number }
  | { kind: 'watch-read'; team: number }
  | { kind: 'watch-readd'; team: number; label: number; gap: 'week' | 'month' }
  | { kind: 'watch-import'; team: number; size: number }
  | { kind: 'watch-budget'; team: number; credits: number; by: 'approver' | 'admin' | 'member' }
  | { kind: 'watch-check'; killAfter: number | null; twice: boolean; nextDay: boolean }
  | { kind: 'watch-timeout'; team: number; size: number }
  | { kind: 'watch-appear'; company: number; show: number }
  | { kind: 'watch-appear-hostile'; company: number }
  | { kind: 'external-budget'; team: number }
  | { kind: 'external-confirm'; team: number };

const team = fc.constantFrom(0, 1, 2);
const label = fc.nat(20);
const step = <T extends WatchStep>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const kind = <K extends WatchStep['kind']>(k: K) => fc.constant(k);

/** The watch's steps (the first always an add, so most sequences watch something). */
export const firstWatchStep: fc.Arbitrary<Extract<WatchStep, { kind: 'watch-add' }>> = fc.record({
  kind: kind('watch-add'),
  team,
  labels: fc.array(label, { minLength: 1, maxLength: 3 }),
});
export const watchStep: fc.Arbitrary<WatchStep> = fc.oneof(
  step(2, firstWatchStep),
  step(
    2,
    fc.record({
      kind: kind('watch-hostile'),
      team,
      label,
      via: fc.constantFrom('add' as const, 'import' as const),
    }),
  ),
  step(1, fc.record({ kind: kind('watch-side'), team, label })),
  step(1, fc.record({ kind: kind('watch-remove'), team, label })),
  step(1, fc.record({ kind: kind('watch-read'), team })),
  step(
    3,
    fc.record({
      kind: kind('watch-readd'),
      team,
      label,
      gap: fc.constantFrom('week' as const, 'month' as const),
    }),
  ),
  step(1, fc.record({ kind: kind('watch-import'), team, size: fc.integer({ min: 26, max: 30 }) })),
  step(
    3,
    fc.record({
      kind: kind('watch-budget'),
      team,
      credits: fc.constantFrom(0, 50, 100, 500),
      by: fc.constantFrom('approver' as const, 'approver' as const, 'admin' as const, 'member' as const),
    }),
  ),
  step(
    3,
    fc.record({
      kind: kind('watch-check'),
      killAfter: fc.oneof(
        { weight: 2, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }) },
      ),
      twice: fc.boolean(),
      nextDay: fc.boolean(),
    }),
  ),
  step(1, fc.record({ kind: kind('watch-timeout'), team, size: fc.integer({ min: 26, max: 30 }) })),
  step(2, fc.record({ kind: kind('watch-appear'), company: fc.nat(2), show: fc.nat(40) })),
  step(1, fc.record({ kind: kind('watch-appear-hostile'), company: fc.nat(2) })),
  step(1, fc.record({ kind: kind('external-budget'), team })),
  step(1, fc.record({ kind: kind('external-confirm'), team })),
);

const labelOf = (pool: WatchPool, n: number) => {
  const all = [...pool.plain, ...pool.hostile];
  return all[n % all.length] ?? KNOWN_COMPANY_NAME;
};
const bare = (text: string) => text.replace(/^competitor\s*:\s*/i, '');
/** The `n`-th label added to the tenant's channel (of the pool's when none was). */
const addedTo = (ctx: WatchContext, t: Tenant, n: number) => {
  const added = ctx.watch.added.get(t.channel) ?? [];
  return added[n % Math.max(1, added.length)] ?? labelOf(ctx.pool, n);
};

/** Every show the companies an account key names are on now (whatever their dates), by public event id. */
function showsNow(sim: Simulator, key: string): Set<string> {
  const publicId = new Map(sim.events.map((e) => [e.id, e.eventId]));
  const matching = sim.seed.exhibitors.filter((x) => exhibitorMatches(key, x));
  return new Set(matching.flatMap((x) => x.eventIds.map((id) => publicId.get(id) ?? id)));
}

/** `user` of `tenant` (or an outsider in its channel) sends `/events <text>` in `channel`, then the jobs finish. */
async function say(ctx: WatchContext, tenant: Tenant, user: string, channel: string, text: string) {
  await ctx.stack.slack.sendCommand({ user, channel, text, teamId: tenant.teamId }).catch(() => undefined);
  await ctx.seq.idle();
  if (process.env.MODEL_DEBUG === 'watch') {
    const answer = ctx.stack.slack
      .messages(channel)
      .filter((m) => m.visibleTo === user)
      .at(-1);
    console.info(
      `${user} in ${channel}: /events ${text}\n  → ${answer?.text ?? ''} ${JSON.stringify(answer?.blocks ?? []).slice(0, 600)}`,
    );
  }
}

/** Adds (or imports) `labels` in `channel`: each account new to the channel records the shows its company is on now. */
async function addLabels(
  ctx: WatchContext,
  tenant: Tenant,
  channel: string,
  labels: string[],
  how: 'add' | 'import',
) {
  const keysIn = async () =>
    new Set((await ctx.seq.truth.watchLists.allAccounts(tenant.teamId, channel)).map((a) => a.key));
  const before = await keysIn();
  ctx.watch.added.set(channel, [...(ctx.watch.added.get(channel) ?? []), ...labels]);
  if (how === 'add') await say(ctx, tenant, tenant.member, channel, `watch add ${labels.join(', ')}`);
  else {
    await say(ctx, tenant, tenant.member, channel, 'watch import');
    const value = { type: 'plain_text_input', value: labels.join('\n') };
    await ctx.stack.slack
      .submitView({ user: tenant.member, values: { 'accounts-1': { value } } })
      .catch(() => undefined);
    await ctx.seq.idle();
    if (process.env.MODEL_DEBUG === 'watch') {
      const answer = ctx.stack.slack
        .messages(channel)
        .filter((m) => m.visibleTo === tenant.member)
        .at(-1);
      console.info(`  imported ${labels.length} lines → ${answer?.text ?? ''}`);
    }
    while (ctx.stack.slack.modal(tenant.member))
      await ctx.stack.slack.closeView({ user: tenant.member }).catch(() => undefined);
  }
  for (const key of await keysIn())
    if (!before.has(key)) ctx.watch.knownAtAdd.set(`${channel}|${key}`, showsNow(ctx.stack.sim, key));
}

/** Time passes (a week, or into the next month) with the scheduled jobs running, and TTL deleting what expired. */
async function passTime(ctx: WatchContext, gap: 'week' | 'month') {
  const { clock } = ctx.stack;
  if (gap === 'week') clock.advanceSeconds(8 * DAY_SECONDS);
  else {
    const now = clock.now();
    clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1)));
  }
  await ctx.runScheduled().catch(() => undefined);
  ctx.watch.swept.push(...(await ctx.stack.sweepExpired()));
}

/** How the watch run checks a channel: killed when its channel times out, else as `mode` says. */
function checker(ctx: WatchContext, mode: { killAfter: number | null; twice: boolean }) {
  let killNext = mode.killAfter;
  // A killed check hands nothing on (its Lambda is gone); the hourly run takes the channel again.
  const killed = async (request: WatchCheckRequest, after: number) => {
    const summary = await ctx.seq.killableCheck(request, createKillSwitch(after));
    if (summary !== 'killed') return summary;
    watchCounts.killedChecks++;
    return {};
  };
  return async (request: WatchCheckRequest): Promise<{ next?: WatchCheckRequest }> => {
    watchCounts.checks++;
    if (ctx.watch.timeouts.has(request.channelId)) return killed(request, TIMEOUT_CALLS);
    if (killNext !== null) {
      const after = killNext;
      killNext = null;
      return killed(request, after);
    }
    const check = async () => (await ctx.seq.scheduled()).checkWatchedChannel(request);
    if (!mode.twice) return check();
    // Delivered twice at once (a queue's redelivery racing the first): one next slice is handed on.
    const [first, second] = await Promise.all([check(), check()]);
    return first.next ? first : second;
  };
}

/** The hourly watch run, as `mode` says (a first check killed mid-way, or each delivered twice). */
export async function runWatchChecks(
  ctx: WatchContext,
  mode = { killAfter: null as number | null, twice: false },
) {
  await ctx.seq.watchRun(checker(ctx, mode)).catch(() => undefined);
  await ctx.seq.idle();
}

/** One watch step (`external-confirm` is the model's: it is a charge step). */
export async function playWatch(ctx: WatchContext, s: WatchStep) {
  watchCounts.steps++;
  const t = ('team' in s ? ctx.seq.tenants[s.team] : ctx.seq.tenants[0]) as Tenant;
  const { pool, watch } = ctx;
  switch (s.kind) {
    case 'watch-add':
      return addLabels(
        ctx,
        t,
        t.channel,
        s.labels.map((n) => labelOf(pool, n)),
        'add',
      );
    case 'watch-hostile':
      // Typed (the command's words refuse mentions) or pasted in the import form.
      return addLabels(ctx, t, t.channel, [pool.hostile[s.label % pool.hostile.length] ?? ''], s.via);
    case 'watch-side':
      // The workspace's second channel watches one of the first's accounts, within a budget of its own.
      budgetAsked(watch, t.teamId, t.side, 100);
      await say(ctx, t, t.approver, t.side, 'watch budget 100');
      return addLabels(ctx, t, t.side, [addedTo(ctx, t, s.label)], 'add');
    case 'watch-remove':
      return say(ctx, t, t.member, t.channel, `watch remove ${bare(addedTo(ctx, t, s.label))}`);
    case 'watch-read':
      // What shows the labels back: the list, the status, the CSV export.
      for (const text of ['watch list', 'watch status', 'watch export'])
        await say(ctx, t, t.member, t.channel, text);
      return;
    case 'watch-readd': {
      const text = addedTo(ctx, t, s.label);
      await say(ctx, t, t.member, t.channel, `watch remove ${bare(text)}`);
      await passTime(ctx, s.gap);
      observeAlerts(ctx);
      return addLabels(ctx, t, t.channel, [text], 'add');
    }
    case 'watch-import':
      return addLabels(ctx, t, t.channel, importLines(pool, s.size), 'import');
    case 'watch-budget': {
      const user = s.by === 'approver' ? t.approver : s.by === 'admin' ? t.admins[0] : t.member;
      budgetAsked(watch, t.teamId, t.channel, s.credits);
      return say(ctx, t, user, t.channel, `watch budget ${s.credits}`);
    }
    case 'external-budget':
      budgetAsked(watch, t.teamId, t.channel, 1_000);
      return say(ctx, t, t.external, t.channel, 'watch budget 1000');
    case 'watch-check':
      // The next day every channel is due again (a changed one is due at once).
      if (s.nextDay) ctx.stack.clock.advanceSeconds(DAY_SECONDS);
      return runWatchChecks(ctx, s);
    case 'watch-timeout':
      // A list too long for one Lambda: the import's check dies of its timeout, and so does every check after.
      watch.timeouts.add(t.channel);
      ctx.seq.killNextJob('watch-import', TIMEOUT_CALLS);
      return addLabels(ctx, t, t.channel, importLines(pool, s.size), 'import');
    case 'watch-appear':
    case 'watch-appear-hostile':
      // A watched company gets a new show, and the next day's run checks every channel.
      appear(ctx, s);
      ctx.stack.clock.advanceSeconds(DAY_SECONDS);
      return runWatchChecks(ctx);
    case 'external-confirm':
      return;
  }
}

/**
 * An import's lines: the pool's plain labels, then a name and domains the service does not know (a
 * name costs a check about 20 calls until it has been searched in every upcoming show; a domain one).
 */
const importLines = (pool: WatchPool, size: number) =>
  [
    ...pool.plain,
    ...Array.from({ length: size }, (_, i) =>
      i === 0 ? `Nowhere Import Company ${i}` : `nowhere-import-${i}.example`,
    ),
  ].slice(0, size);

function budgetAsked(watch: WatchRecord, teamId: string, channel: string, credits: number) {
  const key = `${teamId}|${channel}`;
  watch.budgets.set(key, Math.max(credits, watch.budgets.get(key) ?? 0));
}

/** A pool company becomes an exhibitor of an upcoming show it is not at (the hostile-named one, or another). */
function appear(ctx: WatchContext, s: Extract<WatchStep, { kind: 'watch-appear' | 'watch-appear-hostile' }>) {
  const { sim, clock } = ctx.stack;
  // A company some channel watches (of the pool's, when none is watched yet).
  const keys = [...ctx.watch.knownAtAdd.keys()].map((key) => key.slice(key.indexOf('|') + 1));
  const watched = ctx.pool.companies.filter((id) => {
    const company = sim.seed.exhibitors.find((x) => x.id === id);
    return company && keys.some((key) => exhibitorMatches(key, company));
  });
  const companies = watched.length > 0 ? watched : ctx.pool.companies;
  const exhibitor = companies[s.company % companies.length] ?? '';
  const today = clock.now().toISOString().slice(0, 10);
  const open = sim.events.filter((e) => e.dateStart >= today && !e.exhibitorIds.includes(exhibitor));
  const event =
    s.kind === 'watch-appear-hostile' ? ctx.pool.hostileEvent : open[s.show % Math.max(1, open.length)]?.id;
  if (!event) return;
  if (sim.changeData({ kind: 'appear', exhibitor, event }).changed)
    ctx.watch.appeared.push({ exhibitor, event });
}

/** Undoes the sequence's appearances (the simulator is shared by every sequence). */
export function undoAppearances(sim: Simulator, watch: WatchRecord) {
  for (const { exhibitor, event } of watch.appeared.reverse())
    sim.changeData({ kind: 'drop', exhibitor, event });
  watch.appeared = [];
}
