import { App, AwsLambdaReceiver, LogLevel } from '@slack/bolt';
import type { Logger } from '@slack/logger';

/**
 * The ack bench's naive handler: a Bolt app on Lambda written the obvious way, which awaits the
 * service before it acks (the fit score for `/events fit <id>`, the next page for a list's Next), so
 * Slack waits as long as the service does. The bot ids are given, so Bolt itself makes no request.
 */
export interface NaiveOptions {
  signingSecret: string;
  botToken: string;
  botUserId: string;
  serviceUrl: string;
  apiKey: string;
}

/** Bolt warns on every ack later than 3 s: counted by the bench from its own timings instead. */
const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

export function createNaiveHandler(options: NaiveOptions) {
  const service = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(path, options.serviceUrl), {
      ...init,
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    });
    if (!response.ok) throw new Error(`service answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const receiver = new AwsLambdaReceiver({ signingSecret: options.signingSecret, logger: silent });
  const app = new App({
    token: options.botToken,
    botId: 'B0NAIVE',
    botUserId: options.botUserId,
    receiver,
    logger: silent,
  });
  app.command('/events', async ({ command, ack }) => {
    const eventId = command.text.split(/\s+/)[1] ?? '';
    const fit = await service('/external/events/fit-score', {
      method: 'POST',
      body: JSON.stringify({ event_id: eventId }),
    });
    await ack({ response_type: 'ephemeral', text: `Fit score: ${String(fit.score)}` });
  });
  app.action(/^list\.page/, async ({ ack, action }) => {
    const value = JSON.parse('value' in action ? String(action.value) : '{}') as { page?: number };
    await service(`/external/events/list?page=${value.page ?? 1}&pageSize=10`);
    await ack();
  });
  return receiver.toHandler();
}
