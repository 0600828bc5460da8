import type { FakeSlack } from '../../local/fake-slack/fake-slack.ts';
import { accountKey } from '../../src/domain/watch/names.ts';
import { ConfirmationSchema, LedgerEntrySchema } from '../../src/domain/ports/records.ts';
import type { Tenant } from './tenant-harness.ts';
import { DATA_HOSTS } from './tenant-watch-pool.ts';
import type { WatchRecord } from './tenant-watch.ts';

/** The watch's invariants in the tenant model (issue 32), over a sequence's items and what Slack received. */

type Item = Record<string, unknown>;

const watchConfirmations = (items: Item[]) =>
  items
    .filter((item) => item.type === 'confirmation')
    .map((item) => ConfirmationSchema.parse(item))
    .filter((c) => c.preApproval?.kind === 'watch-budget' && c.chargeStartedAt);

/**
 * At most one paid look-up per account, month and workspace (whatever channel, remove and re-add,
 * expiry did): every watch charge that reached the service, those TTL deleted included.
 */
export function paidLookupsBroken(items: Item[], record: WatchRecord, tenants: readonly Tenant[]) {
  const seen = new Map<string, string[]>();
  const charges = watchConfirmations([...record.swept, ...items]);
  const distinct = new Map(charges.map((c) => [`${c.id}|${c.createdAt}`, c]));
  for (const c of distinct.values()) {
    const { companyName } = c.action as { companyName?: unknown };
    const name = typeof companyName === 'string' ? companyName : c.action.kind;
    const key = `${c.teamId}|${accountKey(name) ?? name}|${c.createdAt.slice(0, 7)}`;
    seen.set(key, [...(seen.get(key) ?? []), `${c.channelId} at ${c.createdAt}`]);
  }
  const nameOf = (teamId: string) => tenants.find((t) => t.teamId === teamId)?.name ?? teamId;
  return [...seen].flatMap(([key, at]) => {
    const [teamId = '', account, month] = key.split('|');
    return at.length > 1
      ? [`${nameOf(teamId)} paid for ${at.length} look-ups of ${account} in ${month} (${at.join('; ')})`]
      : [];
  });
}

/** What a channel's paid look-ups spent in a month stays within the most any budget step asked for. */
export function budgetsBroken(items: Item[], record: WatchRecord) {
  const spent = new Map<string, number>();
  for (const entry of items.filter((item) => item.type === 'ledger-entry')) {
    const e = LedgerEntrySchema.parse(entry);
    if (e.preApproval?.kind !== 'watch-budget' || (e.status !== 'charged' && e.status !== 'unknown'))
      continue;
    const key = `${e.teamId}|${e.preApproval.channelId}|${e.at.slice(0, 7)}`;
    spent.set(key, (spent.get(key) ?? 0) + e.credits);
  }
  return [...spent].flatMap(([key, credits]) => {
    const [teamId, channelId, month] = key.split('|');
    const budget = record.budgets.get(`${teamId}|${channelId}`) ?? 0;
    return credits > budget
      ? [
          `${channelId} of ${teamId} spent ${credits} credits on paid look-ups in ${month}; no budget above ${budget} was set`,
        ]
      : [];
  });
}

/** Only a workspace's admins and approvers set a budget or confirm a charge; an outsider never. */
export function outsidersActed(items: Item[], tenants: readonly Tenant[]) {
  const broken: string[] = [];
  for (const t of tenants) {
    const mine = items.filter((item) => item.teamId === t.teamId);
    for (const settings of mine.filter((item) => item.type === 'watch-settings')) {
      const by = settings.budgetSetBy;
      if (typeof by === 'string' && by !== t.approver && !t.admins.includes(by))
        broken.push(
          `${t.name}'s ${String(settings.channelId)} watch budget was set by ${by}, ${by === t.external ? 'a member of another organisation' : 'no admin or approver'}`,
        );
    }
    for (const c of mine.filter((item) => item.type === 'confirmation' && item.confirmedBy === t.external))
      broken.push(
        `${t.name}'s charge ${String(c.id)} was confirmed by ${t.external}, a member of another organisation`,
      );
  }
  return broken;
}

/** The state of every watched channel: when it is next checked, and what its accounts hold. */
export function watchState(items: Item[]) {
  const state = new Map<string, { teamId: string; nextCheckAt: string; due: boolean; accounts: string[] }>();
  for (const s of items.filter((item) => item.type === 'watch-settings'))
    state.set(`${String(s.teamId)}|${String(s.channelId)}`, {
      teamId: String(s.teamId),
      nextCheckAt: String(s.nextCheckAt),
      due: s.status === 'on' && typeof s.dueAt === 'string',
      accounts: [],
    });
  for (const a of items.filter((item) => item.type === 'watch-account'))
    state.get(`${String(a.teamId)}|${String(a.channelId)}`)?.accounts.push(JSON.stringify(a));
  return state;
}

/**
 * Every channel's due check advances across the settling runs: its next check time moves on, or its
 * accounts' progress does (a check in slices saves each account as it goes), unless its workspace is
 * paused for a reason that holds.
 */
export function watchStuck(
  before: ReturnType<typeof watchState>,
  after: ReturnType<typeof watchState>,
  dueAt: string,
  paused: (teamId: string) => boolean,
) {
  const broken: string[] = [];
  for (const [key, was] of before) {
    if (!was.due || was.nextCheckAt > dueAt || paused(was.teamId)) continue;
    const now = after.get(key);
    if (!now || now.nextCheckAt !== was.nextCheckAt) continue;
    if (now.accounts.sort().join() !== was.accounts.sort().join()) continue;
    broken.push(
      `watch ${key} was due at ${was.nextCheckAt}; neither its next check nor its accounts moved across the settling runs`,
    );
  }
  return broken;
}

const SPECIAL = /<!(?:channel|here|everyone)(?:\|[^>]*)?>|<!subteam\^[^>]*>/g;
const MENTION = /<[@#]([A-Z0-9]+)(?:\|[^>]*)?>/g;
const LINK = /<https?:\/\/([^/|>\s]+)[^|>\s]*(?:\|[^>]*)?>/g;
const TEXT_KEYS = new Set([
  'text',
  'markdown',
  'title',
  'initial_comment',
  'alt_text',
  'fallback',
  'pretext',
  'content',
]);
const NESTED_KEYS = new Set(['blocks', 'attachments', 'view', 'changes', 'document_content']);

/** Every text Slack would render in `value` (blocks sent as JSON strings read too). */
function textsIn(value: unknown, into: string[], key = ''): string[] {
  if (typeof value === 'string') {
    if (NESTED_KEYS.has(key) && /^[[{]/.test(value.trim())) {
      try {
        return textsIn(JSON.parse(value), into);
      } catch {
        return into;
      }
    }
    if (TEXT_KEYS.has(key)) into.push(value);
  } else if (Array.isArray(value)) for (const v of value) textsIn(v, into, key);
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) textsIn(v, into, k);
  return into;
}

/**
 * No text the data wrote pings anyone or links away, in every message, update, ephemeral answer,
 * view, canvas and file title or comment the app sent Slack since `callsFrom`: no `<!channel>`, `<!here>`,
 * `<!everyone>`, `<!subteam^…>`, no user or channel mention of an id the sequence does not have, no
 * link to a host only the data names.
 */
export function pingsShown(slack: FakeSlack, callsFrom: number, tenants: readonly Tenant[]) {
  const ids = new Set([
    slack.botUserId,
    ...tenants.flatMap((t) => [t.channel, t.side, t.member, t.approver, t.external, ...t.admins]),
  ]);
  // One finding per mention and surface (the alert's text, an answer, a file…), with the text around it.
  const found = new Map<string, string>();
  const scan = (where: string, text: string) => {
    const live = [
      ...text.matchAll(SPECIAL),
      ...[...text.matchAll(MENTION)].filter((m) => !ids.has(m[1] ?? '')),
      ...[...text.matchAll(LINK)].filter((m) => DATA_HOSTS.includes(m[1] ?? '')),
    ];
    for (const m of live) {
      const around = text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
      if (!found.has(`${m[0]} in ${where}`)) found.set(`${m[0]} in ${where}`, around);
    }
  };
  for (const call of slack.calls.slice(callsFrom))
    for (const text of textsIn(call.args, []))
      // A canvas is Markdown: a backslashed `<`, `>` or `|` is that character as text, never markup.
      scan(call.method, /canvases\./.test(call.method) ? text.replace(/\\[<>|]/g, ' ') : text);
  // A file's content (the CSV exports) is data kept as it was, behind the formula guard: Slack shows a
  // file as it is and parses no mention or link in it. Its title and comment are scanned above.
  return [...found].map(([what, around]) => `${what} reached Slack: …${around}…`);
}
