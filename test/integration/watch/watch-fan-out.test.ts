import type { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKey } from '../../../src/domain/watch/index.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { createWatchRun } from '../../../src/roots/watch-runtime.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM } from '../../support/bot.ts';

/*
 * The hourly watch run through its handler (inline, no queue configured) and the queue's consumer
 * through its handler, against DynamoDB Local, the simulator and the fake Slack: a due channel is
 * checked once, and a queue message delivered twice posts its alert once.
 */

const LAMBDA = { getRemainingTimeInMillis: () => 240_000 };
const postedIn = (bot: Bot) => bot.messages(CHANNEL).filter((message) => message.visibleTo === undefined);

/** A fake SQS that keeps what the hourly run sends. */
function capturingQueue() {
  const bodies: string[] = [];
  const send = (command: SendMessageBatchCommand) => {
    for (const entry of command.input.Entries ?? []) bodies.push(entry.MessageBody ?? '');
    return Promise.resolve({ Successful: [], Failed: [] });
  };
  return { bodies, sqs: { send } as never };
}

const EXHIBITOR_EVENTS_ROUTE = '/external/exhibitors/events';

/** The simulator adds the watched company to another upcoming show; answers that show. */
async function appear(bot: Bot) {
  const appeared = await fetch(`${bot.sim.url}/__sim/exhibitors/appear`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bot.apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(appeared.status).toBe(200);
  return ((await appeared.json()) as { result: { event: { name: string } } }).result;
}

describe('the watch fan-out, through the handlers', () => {
  let bot: Bot;

  beforeAll(async () => {
    bot = await startBot();
    Object.assign(process.env, bot.scheduledEnv());
    delete process.env.WATCH_QUEUE_URL;
    const key = accountKey(KNOWN_COMPANY_NAME);
    if (!key) throw new Error(`no account key for ${KNOWN_COMPANY_NAME}`);
    await bot.store.watchLists.addAccounts(
      TEAM,
      CHANNEL,
      [{ key, label: KNOWN_COMPANY_NAME, kind: 'target' }],
      ALICE.userId,
    );
  });
  afterAll(() => bot.close());

  it('checks a due channel once: the hourly run checks it, a second run that hour finds nothing due', async () => {
    // Prepare
    const { handler } = await import('../../../handlers/watch.ts');

    // Act
    const first = await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, LAMBDA);
    const posted = postedIn(bot).length;
    const second = await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, LAMBDA);

    // Assess
    expect(first).toMatchObject({ workspaces: 1, due: 1, checked: 1, failed: 0 });
    expect(second).toMatchObject({ due: 0, checked: 0 });
    expect(postedIn(bot)).toHaveLength(posted);
    const settings = await bot.store.watchLists.settings(TEAM, CHANNEL);
    expect(Date.parse(settings?.nextCheckAt ?? '') - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
  });

  it('posts a new appearance once when the same queue message is delivered twice', async () => {
    // Prepare: the company appears at another upcoming show; the watch changes (due at once); the
    // hourly run sends the channel's check to the queue
    const result = await appear(bot);
    await bot.store.watchLists.setStatus(TEAM, CHANNEL, 'on');
    const { bodies, sqs } = capturingQueue();
    const env = { ...bot.scheduledEnv(), WATCH_QUEUE_URL: 'https://sqs.local/000000000000/watch.fifo' };
    const dispatched = await createWatchRun(createScheduledLoader(env, { logger: bot.logger }), env, {
      sqs,
    })();
    expect(dispatched).toMatchObject({ due: 1, sent: 1 });
    const before = postedIn(bot).length;
    const { handler } = await import('../../../handlers/watch-check.ts');
    const record = (messageId: string) => ({ messageId, body: bodies[0] ?? '', eventSource: 'aws:sqs' });

    // Act: delivered to two consumers at once (a re-delivery while the first still runs), then again
    const answers = await Promise.all([
      handler({ Records: [record('m1')] }, LAMBDA),
      handler({ Records: [record('m1')] }, LAMBDA),
    ]);
    answers.push(await handler({ Records: [record('m1'), record('m2')] }, LAMBDA));

    // Assess
    expect(answers.map((answer) => answer.batchItemFailures)).toEqual([[], [], []]);
    const alerts = postedIn(bot).slice(before);
    expect(alerts).toHaveLength(1);
    expect(JSON.stringify(alerts[0])).toContain(result.event.name);
    expect(JSON.stringify(alerts[0])).toContain(KNOWN_COMPANY_NAME);
  });

  it('retries a check whose look-up failed under the same id, and then posts its alert once', async () => {
    // Prepare: the company appears at another show; the hourly run sends the channel's check; the
    // service fails every attempt of the account's look-up once
    const result = await appear(bot);
    await bot.store.watchLists.setStatus(TEAM, CHANNEL, 'on');
    const { bodies, sqs } = capturingQueue();
    const env = { ...bot.scheduledEnv(), WATCH_QUEUE_URL: 'https://sqs.local/000000000000/watch.fifo' };
    await createWatchRun(createScheduledLoader(env, { logger: bot.logger }), env, { sqs })();
    expect(bodies).toHaveLength(1);
    bot.sim.injectFault({ kind: 'status', status: 500, route: `GET ${EXHIBITOR_EVENTS_ROUTE}`, times: 3 });
    const before = postedIn(bot).length;
    const { handler } = await import('../../../handlers/watch-check.ts');
    const record = { messageId: 'm3', body: bodies[0] ?? '', eventSource: 'aws:sqs' };

    // Act: the failed delivery, the queue's retry of the same message, then a re-delivery
    const failed = await handler({ Records: [record] }, LAMBDA);
    const postedAfterFailure = postedIn(bot).length;
    const retried = await handler({ Records: [record] }, LAMBDA);
    const again = await handler({ Records: [record] }, LAMBDA);

    // Assess
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: 'm3' }]);
    expect(postedAfterFailure).toBe(before);
    expect([retried.batchItemFailures, again.batchItemFailures]).toEqual([[], []]);
    const alerts = postedIn(bot).slice(before);
    expect(alerts).toHaveLength(1);
    expect(JSON.stringify(alerts[0])).toContain(result.event.name);
  });

  it('does nothing, without error, when the consumer is invoked by a schedule', async () => {
    // Prepare
    const { handler } = await import('../../../handlers/watch-check.ts');
    const before = postedIn(bot).length;

    // Act
    const answer = await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, LAMBDA);

    // Assess
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(postedIn(bot)).toHaveLength(before);
  });
});
