import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../../local/fake-slack/payloads.ts';
import { NOT_INSTALLED_TEXT } from '../../../src/slack/app.ts';
import { helpText } from '../../../src/slack/commands/help-views.ts';
import { notConnectedText } from '../../../src/slack/features/workspace-admin/until-connected.ts';
import { visibleText } from '../../support/bot.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

const KEYED = testWorkspace('T0KEYED');
const NO_KEY = testWorkspace('T0NOKEY');
const GHOST = testWorkspace('T0GHOST');

/**
 * Issue 24, item 6: a distributed app answers `/events` before Bolt loads, with Bolt's own guards
 * first (an install must serve the workspace; a service key must be connected, but for `help`).
 * Through the real Slack handler, DynamoDB Local, the simulator and the fake Slack.
 */
describe('a distributed app’s /events commands', () => {
  let bot: DistributedBot;
  let key: string;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [KEYED, NO_KEY, GHOST] });
    expect(await bot.install(KEYED.teamId)).toBe(200);
    expect(await bot.install(NO_KEY.teamId)).toBe(200);
    key = bot.newKey(3_000);
    await bot.connectKey(KEYED.teamId, key);
  });
  afterAll(() => bot.close());

  const ackText = (answer: { body: string }) => (JSON.parse(answer.body) as { text?: string }).text ?? '';
  const textsIn = (channel: string) => bot.slack.messages(channel).map((message) => message.text);

  it('tells a workspace of an org without an install that the app is not installed, doing nothing', async () => {
    const inOrg = { ...GHOST.member, enterprise: { id: 'E0NOINSTALL', orgWideInstall: false } };
    const serviceCalls = bot.sim.requests().length;

    const answer = await bot.command('credits', inOrg);
    await bot.idle();

    expect(ackText(answer)).toBe(NOT_INSTALLED_TEXT);
    // The refusal is all that is shown: nothing was handed on.
    expect(textsIn(GHOST.channel)).toEqual([NOT_INSTALLED_TEXT]);
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('tells a workspace without a key how to connect it, handing nothing to the worker', async () => {
    const serviceCalls = bot.sim.requests().length;

    const answers = [await bot.command('credits', NO_KEY.member), await bot.command('fitt 1', NO_KEY.member)];
    await bot.idle();

    expect(answers.map(ackText)).toEqual([notConnectedText(NO_KEY.teamId), notConnectedText(NO_KEY.teamId)]);
    expect(textsIn(NO_KEY.channel)).toEqual(answers.map(ackText));
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('answers help to a workspace without a key', async () => {
    const answer = await bot.command('help', NO_KEY.member);

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ response_type: 'ephemeral', ...helpText() });
  });

  it('hands a connected workspace’s command to the worker once, however often Slack delivers it', async () => {
    const responseUrl = bot.slack.responseUrl(KEYED.channel, KEYED.member.userId, undefined, KEYED.teamId);
    const body = slashCommandBody(KEYED.member, 'credits', responseUrl);

    const first = await bot.post(body);
    const again = await bot.post(body);
    await bot.idle();

    expect(ackText(first)).toContain('Working on /events credits');
    expect(again).toEqual({ status: 200, body: '' });
    const balances = bot.slack
      .messages(KEYED.channel)
      .filter((message) => visibleText(message).includes('3,000 credits available'));
    expect(balances).toHaveLength(1);
  });
});
