import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_CHANNELS, DEV_TEAM_ID, DEV_USERS, type DevStack, startDevStack } from '../../local/dev-stack.ts';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import { createStore } from '../../src/store/index.ts';
import { createDocumentClient } from '../../src/store/table.ts';
import { visibleText } from '../support/bot.ts';

/** `npm run dev`: the hourly watch run on a local timer, and an appearance from the page alerting. */
describe('the local stack’s watch run', () => {
  let stack: DevStack;
  const channel = DEV_CHANNELS.general;
  const settings = () =>
    createStore({
      client: createDocumentClient({ endpoint: stack.dynamoEndpoint }),
      tableName: stack.tableName,
    }).watchLists.settings(DEV_TEAM_ID, channel);
  const watchAdd = async (accounts: string) => {
    await stack.slack.sendCommand({ user: DEV_USERS.alice.id, channel, text: `watch add ${accounts}` });
    await stack.idle();
  };
  const alerts = () =>
    stack.slack.messages(channel).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));
  const until = async <T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> => {
    for (let tries = 0; tries < 100; tries++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('timed out waiting');
  };

  beforeAll(async () => {
    stack = await startDevStack({ dynamoEndpoint: inject('dynamoEndpoint'), watchEveryMs: 200 });
  });
  afterAll(() => stack.stop());

  it('checks a changed watch on its timer, and alerts on an exhibitor the page adds', async () => {
    // Prepare: the company watched; the timer's run checks the channel the add made due
    await watchAdd(KNOWN_COMPANY_NAME);
    await until(settings, (watch) => watch?.lastCheckAt !== undefined);
    expect(alerts()).toEqual([]);

    // Act: "A new exhibitor appears" on the page, then a change makes the channel due, and the run
    const appeared = await fetch(`${stack.slackUrl}/local/sim/new-exhibitor`, { method: 'POST' });
    const { message } = (await appeared.json()) as { message: string };
    const eventName = /now exhibits at (.+?), /.exec(message)?.[1];
    if (!eventName) throw new Error(`the page named no show: ${message}`);
    await watchAdd('globex.example');
    const run = await fetch(`${stack.slackUrl}/local/jobs/check-watches`, { method: 'POST' });

    // Assess: one alert naming the show (the run by hand, or the timer's next one)
    expect(run.status).toBe(200);
    const posted = await until(alerts, (found) => found.length > 0);
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] as (typeof posted)[number])).toContain(eventName);
    expect(visibleText(posted[0] as (typeof posted)[number])).toContain(KNOWN_COMPANY_NAME);
  });
});
