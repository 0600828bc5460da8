import { serviceAccountId } from '../../src/platform/config/secrets.ts';
import { ConfirmationSchema, LedgerEntrySchema } from '../../src/domain/ports/records.ts';
import type { Tenant } from './tenant-harness.ts';

/** What one sequence of the tenant model knows, to judge the end state by. */
export interface SequenceRecord {
  tenants: readonly Tenant[];
  /** Every service key the sequence handed out (A and B start on one, C on another). */
  keys: string[];
  /** Every daily cap an admin ever saved (or the sequence set up), per workspace. */
  adminCaps: Map<string, number[]>;
  /** What went wrong during the steps, in words (a member's save that took, a lost save). */
  violations: string[];
  /** The UTC days the sequence's business time touched (a week or a month may pass): each has a cap. */
  days?: number;
}

type Item = Record<string, unknown>;

/** A charge is settled against the account it was made on: the service's record per key vs the ledger's. */
export function moneyBroken(
  items: Item[],
  record: SequenceRecord,
  simLedger: (key: string) => { credits: number }[],
) {
  const broken: string[] = [];
  const confirmations = items
    .filter((item) => item.type === 'confirmation')
    .map((item) => ConfirmationSchema.parse(item));
  const byId = new Map(confirmations.map((c) => [c.id, c]));
  const ledger = items
    .filter((item) => item.type === 'ledger-entry')
    .map((item) => LedgerEntrySchema.parse(item));
  for (const key of record.keys) {
    const account = serviceAccountId(key);
    const paid = simLedger(key).reduce((sum, entry) => sum + entry.credits, 0);
    const entries = ledger.filter(
      (e) => e.confirmationId && byId.get(e.confirmationId)?.chargeAccount === account,
    );
    const sum = (status: string) =>
      entries.filter((e) => e.status === status).reduce((total, e) => total + e.credits, 0);
    const [charged, unknown] = [sum('charged'), sum('unknown')];
    if (paid > charged + unknown)
      broken.push(
        `account ${account} paid ${paid} credits, its ledger has ${charged} charged + ${unknown} unknown (a charge lost)`,
      );
    if (paid < charged)
      broken.push(
        `account ${account} paid ${paid} credits, its ledger books ${charged} charged (doubled or another account's)`,
      );
    const counted = items
      .filter((item) => item.type === 'daily-spend' && item.accountId === account)
      .reduce((total, item) => total + Number(item.credits), 0);
    if (counted < paid)
      broken.push(`account ${account} paid ${paid} credits, its cap counter says ${counted}`);
  }
  const known = new Set(record.keys.map(serviceAccountId));
  for (const entry of ledger) {
    const account = entry.confirmationId ? byId.get(entry.confirmationId)?.chargeAccount : undefined;
    if (entry.status === 'pending')
      broken.push(`ledger entry ${entry.id} of ${entry.teamId} is still pending`);
    if (entry.status === 'charged' && entry.credits > 0 && (!account || !known.has(account)))
      broken.push(`ledger entry ${entry.id} of ${entry.teamId} is charged to no account the service knows`);
  }
  for (const c of confirmations)
    if (c.status === 'pending' || c.status === 'running')
      broken.push(`confirmation ${c.id} of ${c.teamId} is still ${c.status} after the reconciler`);
  return broken;
}

/**
 * Every daily cap holds per service account: what it paid, and what was reserved on it, stays under it
 * (under the cap times the days the sequence touched, when time passed: the service's log has no
 * business day).
 */
export function capsBroken(
  items: Item[],
  record: SequenceRecord,
  simLedger: (key: string) => { credits: number }[],
) {
  const broken: string[] = [];
  const cap = Math.max(...[...record.adminCaps.values()].flat()) * (record.days ?? 1);
  const confirmations = items
    .filter((item) => item.type === 'confirmation')
    .map((item) => ConfirmationSchema.parse(item));
  for (const key of record.keys) {
    const account = serviceAccountId(key);
    const paid = simLedger(key).reduce((sum, entry) => sum + entry.credits, 0);
    const reserved = confirmations
      .filter((c) => c.chargeAccount === account && c.status !== 'failed' && c.status !== 'cancelled')
      .reduce((total, c) => total + (c.reserved ?? 0), 0);
    if (paid > cap)
      broken.push(`account ${account} paid ${paid} credits in a day; no admin set a cap above ${cap}`);
    if (reserved > cap)
      broken.push(`account ${account} has ${reserved} credits reserved; no admin set a cap above ${cap}`);
  }
  return broken;
}

/** Only admins changed settings: the policy and the key were last saved by a workspace admin. */
export function settingsBroken(items: Item[], record: SequenceRecord) {
  const broken: string[] = [];
  for (const tenant of record.tenants) {
    const mine = items.filter((item) => item.pk === `WORKSPACE#${tenant.teamId}`);
    for (const item of mine) {
      const by = item.type === 'workspace-policy' ? item.updatedBy : item.connectedBy;
      if (typeof by === 'string' && !tenant.admins.includes(by))
        broken.push(`${tenant.name}'s ${String(item.sk)} was last saved by ${by}, who is no admin`);
    }
  }
  return broken;
}

/** A due item (`dueKind`/`dueAt`) by its key, with when it is due. */
export function dueItems(
  items: Item[],
  now: Date,
): Map<string, { dueAt: string; teamId: unknown; kind: unknown }> {
  const due = new Map<string, { dueAt: string; teamId: unknown; kind: unknown }>();
  for (const item of items) {
    if (typeof item.dueAt !== 'string' || item.dueAt > now.toISOString()) continue;
    due.set(`${String(item.pk)}|${String(item.sk)}`, {
      dueAt: item.dueAt,
      teamId: item.teamId,
      kind: item.dueKind,
    });
  }
  return due;
}

/**
 * Every workspace's due work advances: nothing due before two scheduled runs is still due, unchanged,
 * after them, unless its workspace's scheduled work is paused with a reason that holds (no service key:
 * none is stored), which its admins are shown.
 */
export function stuckWork(
  before: ReturnType<typeof dueItems>,
  after: ReturnType<typeof dueItems>,
  items: Item[],
  tenants: readonly Tenant[],
) {
  const names = new Map(tenants.map((t) => [t.teamId, t.name]));
  const paused = new Map(
    items
      .filter((item) => item.type === 'scheduled-workspace' && item.paused && !item.forgottenAt)
      .map((item) => [String(item.teamId), (item.paused as { reason: string }).reason]),
  );
  const hasKey = (teamId: string) =>
    items.some((item) => item.pk === `WORKSPACE#${teamId}` && item.sk === 'SERVICE_KEY');
  const broken: string[] = [];
  for (const [teamId, reason] of paused)
    if (reason === 'no-service-key' && hasKey(teamId))
      broken.push(`${names.get(teamId) ?? teamId}'s work is paused for want of a key, but it has one`);
  for (const [key, { dueAt, teamId, kind }] of before) {
    if (after.get(key)?.dueAt !== dueAt || paused.has(String(teamId))) continue;
    broken.push(
      `${names.get(String(teamId)) ?? String(teamId)}'s ${String(kind)} ${key} stayed due across two scheduled runs, its workspace not paused`,
    );
  }
  return broken;
}

const TOKEN = /xox[a-z]-[A-Za-z0-9.-]{8,}|xoxe\.xoxb-[A-Za-z0-9-]{8,}/g;

/** No secret in a log line or a Slack message: the sequence's keys, any Slack token, the app's secrets. */
export function secretsShown(shown: string, secrets: string[]): string[] {
  const found = secrets.filter((secret) => secret && shown.includes(secret)).map((s) => `${s.slice(0, 6)}…`);
  const tokens = [...shown.matchAll(TOKEN)].map((m) => `${m[0].slice(0, 6)}…`);
  return [...new Set([...found, ...tokens])].map(
    (what) => `a secret (${what}) was shown in a log line or a message`,
  );
}
