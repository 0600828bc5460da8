import type { SlackHttpResult } from './http-boundary.ts';
import type { ListenerDeps } from './kit/listener-deps.ts';
import { answerCommand, type CommandAck, type CommandFields } from './listeners/command-answer.ts';

/** Where a command comes from, as Bolt's `authorize` is asked about it, and its words. */
export interface CommandSource {
  teamId: string;
  /** The workspace's Enterprise Grid org, when it is in one (an org-wide install may serve it). */
  enterpriseId?: string;
  text: string;
}

export interface CommandRequestsOptions {
  /**
   * Whether the app serves this command as Bolt would let it through: when not (or unknown), it
   * goes to Bolt, whose middleware gives its own refusal.
   */
  isServed: (source: CommandSource) => Promise<boolean>;
  deps: Pick<ListenerDeps, 'deliveries' | 'dispatch' | 'logger' | 'planShows'>;
}

const FIELDS = ['team_id', 'channel_id', 'user_id', 'trigger_id', 'response_url'] as const;

/** What `AwsLambdaReceiver` answers for `ack(body)`, so a client cannot tell the two paths apart. */
function acked(ack: CommandAck): SlackHttpResult {
  return ack === undefined
    ? { statusCode: 200, body: '' }
    : { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ack) };
}

/**
 * `/events` commands answered without Bolt (issue 24: the Slack function imports only what the ack
 * path needs). A signed command the app serves is answered here by `answerCommand`, the same answer
 * Bolt's listener gives; anything else (clicks, events, a command a modal stands for, one from a
 * workspace not served, an `ssl_check`) returns `undefined` and goes to Bolt, which loads on that
 * first request.
 */
export function commandRequests({ isServed, deps }: CommandRequestsOptions) {
  return async (mediaType: string, body: string): Promise<SlackHttpResult | undefined> => {
    if (mediaType !== 'application/x-www-form-urlencoded') return undefined;
    const form = new URLSearchParams(body);
    if (form.get('command') !== '/events' || form.has('ssl_check')) return undefined;
    const [team_id, channel_id, user_id, trigger_id, response_url] = FIELDS.map((name) => form.get(name));
    if (!team_id || !channel_id || !user_id || !trigger_id || !response_url) return undefined;
    const text = form.get('text') ?? '';
    const command: CommandFields = { team_id, channel_id, user_id, trigger_id, response_url, text };
    const enterpriseId = form.get('enterprise_id');
    try {
      if (!(await isServed({ teamId: team_id, text, ...(enterpriseId ? { enterpriseId } : {}) })))
        return undefined;
      const answer = await answerCommand(command, deps);
      return 'ack' in answer ? acked(answer.ack) : undefined;
    } catch (error) {
      // Bolt answers it instead (the worker runs a command's job once, however often it is handed on).
      deps.logger.error('could not answer a command without Bolt', { error });
      return undefined;
    }
  };
}
