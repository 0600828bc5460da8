import type { LinkUnfurls } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { utcDate } from '../../../time/local-time.ts';
import { EisBadInputError, EisNotFoundError } from '../../../eis/errors.ts';
import type { Job } from '../../kit/jobs.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { eventUnfurl } from './views.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { UnfurlOut } from '../../kit/outs.ts';

type UnfurlJob = Extract<Job, { kind: 'unfurl' }>;

export function createUnfurlOut(web: WebClient): UnfurlOut {
  return async (target, unfurls) => {
    await web.chat.unfurl(
      'channel' in target
        ? { channel: target.channel, ts: target.ts, unfurls }
        : { unfurl_id: target.unfurlId, source: target.source, unfurls },
    );
  };
}

/**
 * Event links unfold into compact fit cards (fit score and brief), all of a message's known events in one `chat.unfurl`.
 * An unfurl is a courtesy, never an answer: an unknown id, a service failure or a refused unfurl
 * leaves the link as it is, says nothing to anyone, and is logged (never thrown to the boundary,
 * which would tell the person who posted the link about a failure they did not ask about).
 */
export function unfurlJobs({
  eis,
  unfurl,
  logger,
  now,
}: Pick<WorkerDeps, 'eis' | 'unfurl' | 'logger' | 'now'>) {
  async function cardFor(eventId: string): Promise<SlackMessage | undefined> {
    try {
      // The brief (cheaper than the detail) adds the name, place and counts; the card stands without it.
      const [fit, brief] = await Promise.all([
        eis.events.fitScore(eventId),
        eis.events.brief(eventId).catch(() => null),
      ]);
      return eventUnfurl(fit, brief, utcDate(now()));
    } catch (error) {
      if (error instanceof EisNotFoundError || error instanceof EisBadInputError) {
        logger.info('an event link names no known event: not unfurled', { eventId });
      } else {
        logger.warn('could not look up a linked event: not unfurled', { eventId, error });
      }
      return undefined;
    }
  }

  async function unfurlJob({ target, links }: UnfurlJob): Promise<void> {
    if (!unfurl) {
      logger.error('the worker has no chat.unfurl client: links not unfurled');
      return;
    }
    // One look-up per event, however many links name it.
    const cards = new Map<string, Promise<SlackMessage | undefined>>();
    for (const { eventId } of links) if (!cards.has(eventId)) cards.set(eventId, cardFor(eventId));
    const unfurls: LinkUnfurls = {};
    for (const { url, eventId } of links) {
      const card = await cards.get(eventId);
      if (card) unfurls[url] = { blocks: card.blocks };
    }
    if (Object.keys(unfurls).length === 0) return;
    try {
      await unfurl(target, unfurls);
    } catch (error) {
      logger.error('Slack refused the unfurl', { slackError: slackErrorCode(error) ?? 'unknown' });
    }
  }

  return { unfurlJob };
}
