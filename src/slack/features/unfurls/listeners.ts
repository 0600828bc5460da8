import type { App } from '@slack/bolt';
import { isTypedEventId } from '../../../domain/ids.ts';
import type { Job } from '../../kit/jobs.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';

export const DEFAULT_UNFURL_DOMAINS: readonly string[] = ['app.lensmor.com'];
/** More links than this in one message are left as they are (Slack itself unfurls a few per message). */
const MAX_LINKS = 20;

type EventLink = Extract<Job, { kind: 'unfurl' }>['links'][number];

/**
 * The event id an event link names, or undefined: an http(s) URL on one of `domains` (or a subdomain)
 * whose path has an `event` or `events` segment followed by an event id (`/event/26855`,
 * `/en/events/26855/exhibitors`). A segment that is not an id (`/events/search`) names nothing.
 */
export function eventIdOfLink(url: string, domains: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const host = parsed.hostname.toLowerCase();
  if (!domains.some((domain) => host === domain || host.endsWith(`.${domain}`))) return undefined;
  const segments = parsed.pathname.split('/').filter(Boolean);
  for (const [index, segment] of segments.entries()) {
    const next = segments[index + 1];
    if (/^events?$/i.test(segment) && next !== undefined && isTypedEventId(next)) return next;
  }
  return undefined;
}

/** The distinct event links among a message's links, in their order. */
export function eventLinksOf(urls: readonly string[], domains: readonly string[]): EventLink[] {
  const links = new Map<string, EventLink>();
  for (const url of urls) {
    const eventId = eventIdOfLink(url, domains);
    if (eventId && !links.has(url)) links.set(url, { url, eventId });
  }
  return [...links.values()].slice(0, MAX_LINKS);
}

/**
 * Event-link unfurls (`link_shared` → `chat.unfurl`). Bolt acks every event before its listener runs;
 * this one only picks the event links out and hands them to the worker, which looks the events up.
 * Duplicate deliveries are absorbed twice over: by the event-id middleware, and by the job's id (the
 * event's), which the worker claims once.
 */
export function registerUnfurls(app: App, deps: ListenerDeps): void {
  const domains = deps.unfurlDomains ?? DEFAULT_UNFURL_DOMAINS;
  app.event('link_shared', async ({ event, body, context }) => {
    const links = eventLinksOf(
      event.links.map(({ url }) => url),
      domains,
    );
    if (links.length === 0) return;
    // A link still in the composer has no message yet: Slack names it by unfurl id and source.
    const target =
      event.source === 'composer' && event.unfurl_id
        ? { unfurlId: event.unfurl_id, source: 'composer' as const }
        : { channel: event.channel, ts: event.message_ts };
    await deps.dispatch({
      kind: 'unfurl',
      id: `unfurl:${body.event_id}`,
      target,
      links,
      context: { teamId: context.teamId ?? body.team_id, channelId: event.channel, userId: event.user },
    });
  });
}
