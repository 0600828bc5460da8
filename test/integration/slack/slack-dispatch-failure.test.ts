import { randomUUID } from 'node:crypto';
import { everyoneAMember } from '../../support/member-roles.ts';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { createEisClient, type EisClient } from '../../../src/eis/index.ts';
import { serveLambda } from '../../../local/lambda-http.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { blockActionsBody, buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { signedHeaders } from '../../../local/fake-slack/sign.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { createBoltApp } from '../../../src/slack/app.ts';
import { slackHttpBoundary } from '../../../src/slack/http-boundary.ts';
import { webClientOptions } from '../../../src/slack/web-client.ts';
import type { Job } from '../../../src/slack/kit/jobs.ts';
import { createWorker } from '../../../src/slack/worker/index.ts';
import { createSlackOut } from '../../../src/slack/kit/slack-out.ts';
import {
  ALICE,
  APPROVER,
  askFor,
  BOT_TOKEN,
  type Bot,
  CHANNEL,
  confirmationIdOf,
  SIGNING_SECRET,
  startBot,
  TEAM,
  visibleText,
} from '../../support/bot.ts';
import { approverRules } from '../../support/approver-rules.ts';

const BIG_EVENT = '26855';

const LogLineSchema = z.looseObject({
  level: z.string(),
  message: z.string(),
  error: z.looseObject({ name: z.string(), message: z.string(), stack: z.string().optional() }).optional(),
});
const errorLines = (lines: readonly string[]) =>
  lines.map((line) => LogLineSchema.parse(JSON.parse(line))).filter((line) => line.level === 'error');

/**
 * The Slack handler as `createSlackHandlerLoader` builds it, on the bot's table and fake Slack, but
 * with a dispatch that cannot reach the worker. (The bot's own `WORKER_MODE=inline` dispatch never
 * fails: it runs the job later and only logs its errors, so the failure is injected here.)
 */
async function startHandlerWithFailingDispatch(bot: Bot) {
  const logger = createMemoryLogger();
  const dispatched: Job[] = [];
  const { bolt } = createBoltApp({
    signingSecret: SIGNING_SECRET,
    workspaces: { botToken: BOT_TOKEN, botId: 'B0EVENTBOT', botUserId: 'U0EVENTBOT', installedTeamId: TEAM },
    slackApiUrl: bot.slack.apiUrl,
    logger,
    deps: {
      dispatch: (job) => {
        dispatched.push(job);
        return Promise.reject(new Error('Lambda Invoke failed: TooManyRequestsException'));
      },
      confirmations: bot.store.confirmations,
      deliveries: bot.store.deliveries,
      policyFor: () => Promise.resolve({ approvers: [APPROVER.userId] }),
      // As the handler's loader gives it: the permissions gate asks who clicked through it.
      workspaceAdmin: {
        workspaces: bot.store.workspaces,
        scheduledWork: bot.store.scheduledWork,
        eisBaseUrl: bot.sim.url,
        environment: { fixes: true, approvers: approverRules({ users: [APPROVER.userId] }) },
      },
      logger,
    },
  });
  const handler = slackHttpBoundary(() => Promise.resolve(bolt), { signingSecret: SIGNING_SECRET, logger });
  const http = await serveLambda(async (event, context) => handler(event, context));
  /** Clicks Confirm on `card` as Alice; the answer comes once every listener has finished. */
  const clickConfirm = async (card: SlackMessage) => {
    const clicked = buttonsOf(card).find(({ button }) => button.action_id === 'confirm.yes');
    if (!clicked) throw new Error('the card has no Confirm button');
    const responseUrl = bot.slack.responseUrl(card.channel, ALICE.userId, card.ts);
    const body = blockActionsBody(ALICE, card, clicked, responseUrl);
    const response = await fetch(`${http.url}/slack/events`, {
      method: 'POST',
      headers: signedHeaders(SIGNING_SECRET, body),
      body,
    });
    return { status: response.status };
  };
  return { logger, dispatched, clickConfirm, close: () => http.close() };
}

describe('handing a charge to the worker fails', () => {
  let bot: Bot;
  let app: Awaited<ReturnType<typeof startHandlerWithFailingDispatch>> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await bot?.close();
  });

  it('closes the confirmation as failed, says on the card that nothing was charged, and calls no service', async () => {
    // Prepare
    bot = await startBot({ balance: 20_000 });
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    const confirmationId = confirmationIdOf(card);
    app = await startHandlerWithFailingDispatch(bot);
    const serviceCallsBefore = bot.sim.requests().length;

    // Act
    const ack = await app.clickConfirm(card);

    // Assess
    expect(ack.status).toBe(200);
    expect(app.dispatched).toMatchObject([{ kind: 'charge', confirmationId }]);
    const confirmation = await bot.store.confirmations.get(confirmationId);
    expect(confirmation).toMatchObject({
      status: 'failed',
      outcome: { reason: 'dispatch-failed', creditsSpent: 0 },
    });
    expect(confirmation?.chargeStartedAt).toBeUndefined();
    const shown = bot.find((message) => message.ts === card.ts);
    expect(shown.edited).toBe(true);
    const text = visibleText(shown);
    expect(text).toContain('Nothing was charged');
    expect(text).toContain('run the command again');
    expect(text).not.toContain('confirm.yes');
    expect(bot.sim.requests()).toHaveLength(serviceCallsBefore);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(bot.sim.balance(bot.apiKey)).toBe(20_000);
    expect(errorLines(app.logger.lines).map((line) => line.message)).toEqual([
      'could not hand the charge to the worker',
    ]);
  });
});

describe('the worker’s boundary', () => {
  let bot: Bot;
  let eis: EisClient | undefined;
  afterEach(async () => {
    await eis?.close();
    eis = undefined;
    await bot?.close();
  });

  it('answers an unexpected TypeError with one plain message and logs it once with its stack', async () => {
    // Prepare
    bot = await startBot();
    const logger = createMemoryLogger();
    eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey, logger });
    const real = eis;
    // A bug, not a service failure: the kind of error nobody wrote a message for (and it quotes the key).
    const broken: EisClient = {
      ...real,
      credits: {
        ...real.credits,
        balance: () =>
          Promise.reject(
            new TypeError(`Cannot read properties of undefined (reading 'credits') for ${bot.apiKey}`),
          ),
      },
    };
    const worker = createWorker({
      pollSubmittedTask: () => Promise.resolve(false),
      eis: broken,
      store: bot.store,
      slack: createSlackOut(
        new WebClient(BOT_TOKEN, webClientOptions(bot.slack.apiUrl, { retries: false })),
        logger,
      ),
      userTimeZone: () => Promise.resolve('UTC'),
      workspaceRoles: everyoneAMember,
      policyIn: () => Promise.resolve({ approvers: [APPROVER.userId] }),
      accountId: serviceAccountId(bot.apiKey),
      logger,
      now: () => new Date(),
    });
    const job: Job = {
      kind: 'command',
      id: `command:${randomUUID()}`,
      text: 'credits',
      context: {
        teamId: TEAM,
        channelId: CHANNEL,
        userId: ALICE.userId,
        responseUrl: bot.slack.responseUrl(CHANNEL, ALICE.userId),
      },
    };

    // Act
    await worker.handle(job);

    // Assess
    const answers = bot.messages().filter((message) => message.visibleTo === ALICE.userId);
    expect(answers.map((message) => message.text)).toEqual([
      ':x: Something went wrong on our side. Please try again.',
    ]);
    const shown = visibleText(answers[0] ?? { text: '', blocks: [] });
    for (const leak of ['TypeError', 'Cannot read', ' at ', bot.apiKey, BOT_TOKEN])
      expect(shown).not.toContain(leak);
    const errors = errorLines(logger.lines);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: 'job failed',
      team: TEAM,
      user: ALICE.userId,
      job: 'command',
      error: { name: 'TypeError' },
    });
    expect(errors[0]?.error?.stack).toMatch(/^TypeError: Cannot read properties.*\n\s+at /);
    expect(logger.lines.join('\n')).not.toContain(bot.apiKey);
  });
});
