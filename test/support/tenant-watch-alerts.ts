import { accountKey } from '../../src/domain/watch/names.ts';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';
import type { WatchContext } from './tenant-watch-record.ts';

/** The watch alerts a tenant-model sequence posted, read as they come (issue 32). */

export const watchCounts = { steps: 0, checks: 0, killedChecks: 0, alerts: 0, rows: 0 };

interface AlertButton {
  action_id?: string;
  value?: string;
}

/** The rows of a posted alert: each Fit button's show and account label. */
function alertRows(args: Record<string, unknown>): { eventId: string; label: string }[] {
  const blocks: unknown = typeof args.blocks === 'string' ? JSON.parse(args.blocks) : args.blocks;
  if (!Array.isArray(blocks)) return [];
  const buttons = (blocks as { elements?: AlertButton[] }[]).flatMap((block) => block.elements ?? []);
  return buttons
    .filter((button) => button.action_id === ACTION_IDS.watchFit && button.value)
    .map((button) => JSON.parse(button.value ?? '{}') as { eventId: string; label: string });
}

/**
 * Reads the alerts posted since the last read: a show is announced at most once per account in a
 * channel, and never when the account's company was on it already when the channel added it.
 */
export function observeAlerts(ctx: WatchContext) {
  const { calls } = ctx.stack.slack;
  const { watch } = ctx;
  const nameOf = (channel: string) =>
    ctx.seq.tenants.find((t) => t.channel === channel || t.side === channel)?.name;
  for (const call of calls.slice(watch.callsSeen)) {
    if (call.method !== 'chat.postMessage' || call.args.thread_ts) continue;
    const rows = alertRows(call.args);
    if (rows.length === 0) continue;
    watchCounts.alerts++;
    const channel = String(call.args.channel);
    for (const { eventId, label: text } of rows) {
      watchCounts.rows++;
      const account = `${channel}|${accountKey(text) ?? text}`;
      const where = `${nameOf(channel) ?? '?'}'s ${channel}`;
      if (process.env.MODEL_DEBUG === 'watch')
        console.info(
          `alert row in ${where}: ${text} at ${eventId}; known at add: ${[...(watch.knownAtAdd.get(account) ?? [])].join(',')}`,
        );
      if (watch.knownAtAdd.get(account)?.has(eventId))
        watch.violations.push(
          `${where} announced "${text}" at show ${eventId} as new; its company was on that show when the channel added it`,
        );
      const times = (watch.announced.get(`${account}|${eventId}`) ?? 0) + 1;
      watch.announced.set(`${account}|${eventId}`, times);
      if (times === 2) watch.violations.push(`${where} announced "${text}" at show ${eventId} twice`);
    }
  }
  watch.callsSeen = calls.length;
}
