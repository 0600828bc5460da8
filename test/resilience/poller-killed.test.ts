import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../src/domain/unlock-polling.ts';
import { createScheduledLoader } from '../../src/roots/runtime.ts';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, startBot, visibleText } from '../support/bot.ts';
import type { SlackMessage } from '../../local/fake-slack/fake-slack.ts';

/*
 * Issue 41, item 5: a poll run that dies while it posts a finished unlock's reply loses nothing. The
 * dying run's Slack never answers (its Lambda ended there); later runs, as poll-tasks makes them, go
 * on against the fake Slack. The reply comes once, from the first run after the dead one's lease.
 */

/** A Slack that takes connections and never answers: where the dying run's post stops. */
async function silentSlack(): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let asked = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => (asked += 1));
    socket.on('error', () => {});
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/api/`,
    asked: () => asked,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => server.close(closed));
    },
  };
}

describe('a poll run that dies while posting an unlock’s reply', () => {
  let bot: Bot;
  let silent: Awaited<ReturnType<typeof silentSlack>>;
  let card: SlackMessage;
  const posted: number[] = [];
  let name = '';

  /** A poll run as poll-tasks makes it, `offsetMs` ahead of the wall clock. */
  const run = async (offsetMs: number, slackApiUrl?: string) => {
    const env = { ...bot.scheduledEnv(), ...(slackApiUrl ? { SLACK_API_URL: slackApiUrl } : {}) };
    const jobs = await createScheduledLoader(env, {
      logger: bot.logger,
      now: () => new Date(Date.now() + offsetMs),
    })();
    return jobs.pollUnlockTasks();
  };
  const replies = () => bot.messages().filter((m) => m.threadTs === card.ts);

  beforeAll(async () => {
    bot = await startBot();
    silent = await silentSlack();
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!person) throw new Error('the seed has no person with a findable email');
    name = person.fullName;
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    card = bot.last();
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();

    // The run that dies: it polls the finished task and stops inside its post.
    void run(0, silent.url);
    while (silent.asked() === 0) await new Promise((wake) => setTimeout(wake, 20));
    posted.push(replies().length);
    // Runs after it: one while its lease holds, one once the lease ran out, one more after that.
    for (const offsetMs of [0, LEASE_MS + 1_000, LEASE_MS + 60_000]) {
      await run(offsetMs);
      posted.push(replies().length);
    }
  }, 120_000);
  afterAll(async () => {
    await silent.close();
    await bot.close();
  });

  it('posts the reply once, from the first run after the dead run’s lease ran out', () => {
    expect(posted).toEqual([0, 0, 1, 1]);
    expect(visibleText(replies()[0] ?? { text: '', blocks: [] })).toContain(name);
  });

  it('turns the card from waiting to Done', () => {
    expect(visibleText(bot.find((m) => m.ts === card.ts))).toMatch(/Done/);
  });
});
