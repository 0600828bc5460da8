import type { SlackHttpResult } from './http-boundary.ts';
import type { ListenerDeps } from './listeners/deps.ts';
import { answerCommand, type CommandAck, type CommandFields } from './listeners/command-answer.ts';

export interface CommandRequestsOptions {
  /** The workspace this app serves: a command from any other goes to Bolt, which refuses it. */
  servedTeam: () => Promise<string>;
  deps: Pick<ListenerDeps, 'deliveries' | 'dispatch' | 'logger'>;
}

const FIELDS = ['team_id', 'channel_id', 'user_id', 'trigger_id', 'response_url'] as const;

/** What `AwsLambdaReceiver` answers for `ack(body)`, so a client cannot tell the two paths apart. */
function acked(ack: CommandAck): SlackHttpResult {
  return ack === undefined
    ? { statusCode: 200, body: '' }
    : { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ack) };
}

/**
 * A single-workspace app's `/events` commands, answered without Bolt (issue 24: the Slack function
 * imports only what the ack path needs). A signed command from the served workspace is answered
 * here by `answerCommand`, the same answer Bolt's listener gives; anything else (clicks, events, a
 * command a modal stands for, another workspace's, an `ssl_check`) returns `undefined` and goes to
 * Bolt, which loads on that first request.
 */
export function commandRequests({ servedTeam, deps }: CommandRequestsOptions) {
  return async (mediaType: string, body: string): Promise<SlackHttpResult | undefined> => {
    if (mediaType !== 'application/x-www-form-urlencoded') return undefined;
    const form = new URLSearchParams(body);
    if (form.get('command') !== '/events' || form.has('ssl_check')) return undefined;
    const values = FIELDS.map((name) => form.get(name) ?? '');
    if (values.some((value) => value === '')) return undefined;
    const [team_id, channel_id, user_id, trigger_id, response_url] = values as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (team_id !== (await servedTeam())) return undefined;
    const command: CommandFields = {
      team_id,
      channel_id,
      user_id,
      trigger_id,
      response_url,
      text: form.get('text') ?? '',
    };
    try {
      const answer = await answerCommand(command, deps);
      return 'ack' in answer ? acked(answer.ack) : undefined;
    } catch (error) {
      // Bolt answers it instead (the worker runs a command's job once, however often it is handed on).
      deps.logger.error('could not answer a command without Bolt', { error });
      return undefined;
    }
  };
}
