import fc from 'fast-check';
import type { SlackMessage } from '../../local/fake-slack/fake-slack.ts';
import { mayUse, type Standing } from '../../src/domain/audience.ts';
import { quarterContaining } from '../../src/domain/periods.ts';
import { audienceOf, commandLabel, parseCommand } from '../../src/slack/commands/index.ts';
import { buttonAudienceOf, refusalText } from '../../src/slack/kit/permissions.ts';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';
import { WorkspaceNotConnectedError } from '../../src/platform/errors.ts';
import { confirmationIdOf } from './charge-harness.ts';
import { scanAll } from './dynamo.ts';
import type { Tenant, TenantStack } from './tenant-harness.ts';

/**
 * Outside users and guests in the tenant model (issue 41): a member of another organisation in a
 * Slack Connect channel, and a guest of the workspace, try what the permissions table
 * (src/domain/audience.ts, docs/using.md "Who may do what") keeps from them: the ledger, spend,
 * budgets, costs, the watch's contents, exports, changes to a plan or a watch, a charge or its Confirm.
 * Each answer is held against the declared audience of what they typed (a refusal where the table
 * says no), and what the workspace keeps (its plan, watch, ledger, charges, settings) must not move.
 */

/** What they try (`{show}` a show on the channel's plan, `{other}` one not on it, `{account}` a watched one). */
export const STRANGER_WORDS = [
  'spend',
  'spend today export',
  'spend quarter',
  'credits',
  'plan',
  'plan budget',
  'plan export',
  'plan cost {show} 12000 booth',
  'plan remove {show}',
  'plan add {other}',
  'plan budget 1000 {quarter}',
  'plan currency EUR',
  'watch list',
  'watch status',
  'watch export',
  'watch add Globex Payments',
  'watch remove {account}',
  'watch budget 1000',
  'watch off',
  'unlock {show}',
  'confirm',
] as const;

/**
 * The model's own rule (docs/using.md, "Who may do what"), held beside the declarations: an outside
 * user may none of these; a guest only reads the channel's plan and watch, and the credits.
 */
const GUEST_READS: ReadonlySet<(typeof STRANGER_WORDS)[number]> = new Set([
  'credits',
  'plan',
  'plan budget',
  'watch list',
  'watch status',
]);

export type StrangerStep = { kind: 'stranger'; team: number; who: 'external' | 'guest'; word: number };

export const strangerStep: fc.Arbitrary<StrangerStep> = fc.record({
  kind: fc.constant('stranger' as const),
  team: fc.constantFrom(0, 1, 2),
  who: fc.constantFrom('external' as const, 'guest' as const),
  word: fc.nat(STRANGER_WORDS.length - 1),
});

export interface StrangerContext {
  stack: TenantStack;
  seq: ReturnType<TenantStack['begin']>;
  violations: string[];
}

/** What a workspace keeps that a stranger's words could change: compared before and after them. */
const KEPT = new Set([
  'plan',
  'ledger-entry',
  'confirmation',
  'charged-unlock',
  'watch-settings',
  'watch-account',
  'workspace-policy',
  'workspace-service-key',
  'digest-subscription',
  'unlock-task',
]);

async function kept(ctx: StrangerContext, tenant: Tenant): Promise<string> {
  const items = await scanAll(ctx.seq.table);
  return JSON.stringify(
    items
      .filter((item) => item.teamId === tenant.teamId && KEPT.has(String(item.type)))
      .map((item) => `${String(item.pk)}|${String(item.sk)}|${JSON.stringify(item)}`)
      .sort(),
  );
}

const keyed = async (ctx: StrangerContext, tenant: Tenant) =>
  Boolean(await ctx.seq.truth.workspaces.getServiceKeyInfo(tenant.teamId).catch(() => undefined));

/** Upcoming shows of the simulator (public ids), the soonest first: ones a plan can take. */
function upcoming(ctx: StrangerContext) {
  const today = ctx.stack.clock.now().toISOString().slice(0, 10);
  return ctx.stack.sim.events
    .filter((e) => e.dateStart > today)
    .sort((a, b) => a.dateStart.localeCompare(b.dateStart) || a.eventId.localeCompare(b.eventId));
}

/** `user` sends `/events <text>` in the tenant's channel, then the jobs finish. */
async function say(ctx: StrangerContext, tenant: Tenant, user: string, text: string) {
  await ctx.stack.slack
    .sendCommand({ user, channel: tenant.channel, text, teamId: tenant.teamId })
    .catch(() => undefined);
  await ctx.seq.idle();
}

/** The channel's plan has a show with a cost (a member adds them when it has none): the words' `{show}`. */
async function plannedShow(ctx: StrangerContext, tenant: Tenant) {
  const planned = async () => (await ctx.seq.truth.plans.get(tenant.teamId, tenant.channel))?.shows[0];
  const shows = upcoming(ctx);
  if (!(await planned()) && shows[0]) {
    await say(ctx, tenant, tenant.member, `plan add ${shows[0].eventId}`);
    await say(ctx, tenant, tenant.member, `plan cost ${shows[0].eventId} 12000 booth`);
  }
  const show = await planned();
  const eventId = show?.eventId ?? shows[0]?.eventId ?? '26855';
  const other = shows.find((e) => e.eventId !== eventId)?.eventId ?? '26888';
  const dateStart = show?.dateStart ?? shows[0]?.dateStart ?? ctx.stack.clock.now().toISOString();
  return { eventId, other, quarter: quarterContaining(new Date(dateStart)).key };
}

/** The words typed, their placeholders filled from the channel's plan and watch. */
async function wordsFor(ctx: StrangerContext, tenant: Tenant, word: (typeof STRANGER_WORDS)[number]) {
  const show = await plannedShow(ctx, tenant);
  // A watched account a member could name (a hostile label's mentions are refused before any check).
  const account = (await ctx.seq.truth.watchLists.allAccounts(tenant.teamId, tenant.channel))
    .map((a) => a.label)
    .find((label) => parseCommand(`watch remove ${label}`).ok);
  return word
    .replace('{show}', show.eventId)
    .replace('{other}', show.other)
    .replace('{quarter}', show.quarter)
    .replace('{account}', account ?? 'Acme Analytics');
}

/** What the declarations say of `text` for this standing: whether they may, and the refusal they get if not. */
function declared(text: string, standing: Standing) {
  if (text === 'confirm') {
    const audience = buttonAudienceOf(ACTION_IDS.confirmYes) ?? 'askers';
    if (audience === 'what it runs') throw new Error('Confirm is declared to run a command');
    return { may: mayUse(audience, standing), refusal: refusalText(audience, standing, 'this button') };
  }
  const parsed = parseCommand(text);
  if (!parsed.ok) throw new Error(`the model's words "${text}" do not parse: ${parsed.problem}`);
  const audience = audienceOf(parsed.command);
  return {
    may: mayUse(audience, standing),
    refusal: refusalText(audience, standing, `\`/events ${commandLabel(parsed.command)}\``),
  };
}

const shown = (m: SlackMessage) => `${m.text}\n${JSON.stringify(m.blocks)}`;

/** What any user of a workspace without a key is told, before anything else is read: it shows nothing. */
const NOT_CONNECTED = new WorkspaceNotConnectedError('').userMessage;

/**
 * An outside user or a guest tries one thing: what the workspace keeps is unchanged after it, an
 * answer the table refuses is the refusal and nothing else, and nothing of theirs reaches Slack
 * beyond the answers in the channel (no file, no DM).
 */
export async function playStranger(ctx: StrangerContext, s: StrangerStep) {
  const tenant = ctx.seq.tenants[s.team] as Tenant;
  const user = tenant[s.who];
  const standing: Standing = { kind: s.who === 'external' ? 'outsider' : 'guest' };
  const word = STRANGER_WORDS[s.word % STRANGER_WORDS.length] ?? 'spend';
  const text = await wordsFor(ctx, tenant, word);
  const { slack } = ctx.stack;
  const card =
    text === 'confirm'
      ? await (async () => {
          const before = slack.messages(tenant.channel).length;
          await say(ctx, tenant, tenant.member, 'unlock 8453');
          return slack
            .messages(tenant.channel)
            .slice(before)
            .findLast((m) => !m.visibleTo && !m.threadTs && confirmationIdOf(m));
        })()
      : undefined;
  if (text === 'confirm' && !card) return;
  const before = await kept(ctx, tenant);
  const messagesFrom = slack.messages().length;
  const callsFrom = slack.calls.length;
  if (card)
    await slack
      .click({
        user,
        channel: tenant.channel,
        ts: card.ts,
        actionId: ACTION_IDS.confirmYes,
        teamId: tenant.teamId,
      })
      .catch(() => undefined);
  else await say(ctx, tenant, user, text);
  await ctx.seq.idle();
  const who = `${tenant.name}'s ${s.who === 'external' ? 'outside user' : 'guest'}`;
  const said = `${who} tried "${text}"`;
  if ((await kept(ctx, tenant)) !== before) ctx.violations.push(`${said}: what the workspace keeps changed`);
  const may = s.who === 'guest' && GUEST_READS.has(word);
  const { may: declaredMay, refusal } = declared(text, standing);
  if (declaredMay !== may)
    ctx.violations.push(
      `${said}: the declarations ${declaredMay ? 'let them' : 'refuse them'}, the permissions table says otherwise`,
    );
  const answers = slack
    .messages()
    .slice(messagesFrom)
    .filter((m) => m.visibleTo === user && !m.text.startsWith('/events'));
  // A workspace with no key connected (removed, uninstalled) answers everyone that, and shows nothing.
  const told = [refusal, ...(!(await keyed(ctx, tenant)) ? [NOT_CONNECTED] : [])];
  if (!may && !answers.some((m) => told.some((t) => shown(m).includes(t))))
    ctx.violations.push(
      `${said}: not refused as the table says ("${refusal}"); answered ${answers.map(shown).join(' / ') || 'nothing'}`,
    );
  if (!may && answers.some((m) => !told.some((t) => shown(m).includes(t))))
    ctx.violations.push(`${said}: told more than the refusal: ${answers.map(shown).join(' / ')}`);
  const toThem = slack.calls
    .slice(callsFrom)
    .filter((call) => call.method !== 'users.info' && JSON.stringify(call.args ?? {}).includes(user))
    .filter((call) => call.method.startsWith('files.') || call.method === 'conversations.open');
  if (!may && toThem.length > 0)
    ctx.violations.push(`${said}: Slack was asked ${toThem.map((c) => c.method).join(', ')} for them`);
}

/**
 * Nothing a stranger did stands in the workspace's records: no show, cost or budget of a plan, no
 * watched account or watch budget, no confirmation, no charge.
 */
export function strangersActed(items: Record<string, unknown>[], tenants: readonly Tenant[]) {
  const broken: string[] = [];
  for (const t of tenants) {
    const strangers = new Map([
      [t.external, 'an outside user'],
      [t.guest, 'a guest'],
    ]);
    const by = (what: string, id: unknown) => {
      const who = typeof id === 'string' ? strangers.get(id) : undefined;
      if (who) broken.push(`${t.name}: ${what} by ${String(id)}, ${who}`);
    };
    for (const item of items.filter((i) => i.teamId === t.teamId)) {
      if (item.type === 'plan') {
        const plan = item as {
          shows?: { addedBy: string; eventId: string }[];
          costs?: { setBy: string; eventId: string }[];
          budgets?: Record<string, { setBy: string }>;
          currency?: { setBy: string };
        };
        for (const show of plan.shows ?? []) by(`show ${show.eventId} added to the plan`, show.addedBy);
        for (const cost of plan.costs ?? []) by(`a cost of ${cost.eventId} set`, cost.setBy);
        for (const [quarter, budget] of Object.entries(plan.budgets ?? {}))
          by(`the plan's ${quarter} budget set`, budget.setBy);
        by('the plan currency set', plan.currency?.setBy);
      }
      if (item.type === 'watch-account') by(`watched account ${String(item.label)} added`, item.addedBy);
      if (item.type === 'watch-settings') by('a watch budget set', item.budgetSetBy);
      if (item.type === 'confirmation') {
        by(`charge ${String(item.id)} asked`, item.requestedBy);
        by(`charge ${String(item.id)} confirmed`, item.confirmedBy);
      }
    }
  }
  return broken;
}
