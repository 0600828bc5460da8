import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { inlineWorker } from '../../../src/roots/worker-runtime.ts';
import { visibleText } from '../../support/bot.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';

/** What every surface says to a workspace without a key: the refusal's own words, which say how to connect. */
const NOT_CONNECTED =
  'This workspace has not connected its Event Intelligence key yet: an admin can connect it from the app’s Home tab.';
const SECRET = /\bat .*\.ts:\d+|sk_|xox|xwfp/;

const A = testWorkspace('T0NOKEY');
const B = testWorkspace('T0KEYED');
const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const channel = (id: string) => ({ value: { type: 'conversations_select', selected_conversation: id } });

/**
 * Issue 23, defect 5: a distributed app's workspace that installed the app but has no Event
 * Intelligence key is answered on every surface, through the real Slack handler (inline worker),
 * DynamoDB Local, the simulator and the fake Slack. Nothing reaches the service, nothing is charged.
 */
describe('a workspace without a service key, on every surface', () => {
  let bot: DistributedBot;
  let keyA: string;
  let eventId: string;
  let serviceCalls: number;

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [A, B],
      // The fake Slack places each person in their workspace (shortcuts and modals name it).
      users: Object.fromEntries(
        [A, B].flatMap(({ teamId, member }) => [
          [member.userId, { name: member.userId.toLowerCase(), tz: 'UTC', teamId }],
        ]),
      ),
    });
    keyA = bot.newKey(20_000);
    expect(await bot.install(A.teamId)).toBe(200);
    expect(await bot.install(B.teamId)).toBe(200);
    await bot.connectKey(B.teamId, bot.newKey(20_000));
    eventId = bot.sim.events[0]?.eventId ?? '';
  });
  afterAll(() => bot.close());

  beforeEach(async () => {
    await bot.store.workspaces.removeServiceKey(A.teamId);
    serviceCalls = bot.sim.requests().length;
  });

  const botPostsIn = (channelId: string): SlackMessage[] =>
    bot.slack.messages(channelId).filter((message) => message.user === bot.slack.botUserId);
  const stepResults = (functionExecutionId: string) =>
    bot.slack.functionResults.filter((result) => result.functionExecutionId === functionExecutionId);
  const modalOf = (userId: string) => JSON.stringify(bot.slack.modal(userId)?.view ?? null);

  it('completes a Workflow step with an error saying how to connect, asking the service nothing', async () => {
    const functionExecutionId = 'Fx0NOKEY1';
    const delivery = await bot.slack.sendEvent(
      {
        type: 'function_executed',
        function: {
          id: 'Fn0event_fit_score',
          callback_id: 'event_fit_score',
          title: 'Event fit score',
          type: 'app',
        },
        inputs: { event_id: eventId },
        function_execution_id: functionExecutionId,
        workflow_execution_id: 'Wx0NOKEY1',
        bot_access_token: 'xwfp-local-workflow-token',
      },
      { teamId: A.teamId },
    );
    await bot.idle();

    expect(delivery.status).toBe(200);
    const [result, ...more] = stepResults(functionExecutionId);
    expect(more).toEqual([]);
    expect(result?.outcome).toBe('error');
    expect(result?.error).toBe(NOT_CONNECTED);
    expect(result?.error).not.toMatch(SECRET);
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('opens a modal saying how to connect from the "Search events" shortcut', async () => {
    const answer = await bot.slack.globalShortcut({ user: A.member.userId, callbackId: 'search_events' });

    expect(answer.status).toBe(200);
    expect(bot.slack.modal(A.member.userId)?.view.callback_id).not.toBe('modal.search');
    expect(modalOf(A.member.userId)).toContain(NOT_CONNECTED);
    expect(bot.slack.modal(A.member.userId)?.warnings).toEqual([]);
    await bot.slack.closeView({ user: A.member.userId });
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('opens a modal saying how to connect from the "Research a company" message shortcut', async () => {
    await bot.slack.sendMessage({ user: A.member.userId, channel: A.channel, text: 'Who is Acme Robotics?' });
    const message = bot.slack.messages(A.channel).at(-1);

    const answer = await bot.slack.messageShortcut({
      user: A.member.userId,
      channel: A.channel,
      ts: message?.ts ?? '',
      callbackId: 'research_company',
    });

    expect(answer.status).toBe(200);
    expect(bot.slack.modal(A.member.userId)?.view.callback_id).not.toBe('modal.research');
    expect(modalOf(A.member.userId)).toContain(NOT_CONNECTED);
    await bot.slack.closeView({ user: A.member.userId });
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('says how to connect in the Search events modal when the key was removed after it opened', async () => {
    await bot.connectKey(A.teamId, keyA);
    await bot.slack.globalShortcut({ user: A.member.userId, callbackId: 'search_events' });
    expect(bot.slack.modal(A.member.userId)?.view.callback_id).toBe('modal.search');
    await bot.store.workspaces.removeServiceKey(A.teamId);
    const posted = botPostsIn(A.channel).length;
    const before = bot.sim.requests().length;

    const answer = await bot.slack.submitView({
      user: A.member.userId,
      values: { keywords: text('expo'), channel: channel(A.channel) },
    });
    await bot.idle();

    expect(answer.status).toBe(200);
    expect(modalOf(A.member.userId)).toContain(NOT_CONNECTED);
    expect(botPostsIn(A.channel)).toHaveLength(posted);
    expect(bot.sim.requests()).toHaveLength(before);
    expect(bot.sim.ledger(keyA)).toEqual([]);
    await bot.slack.closeView({ user: A.member.userId });
  });

  it('leaves an event link as it is: no unfurl, nothing spent, nothing handed to the worker, no error', async () => {
    const logged = bot.logger.lines.length;
    const unfurls = bot.slack.unfurls.length;

    const delivery = await bot.slack.shareLink({
      user: A.member.userId,
      channel: A.channel,
      url: `https://app.lensmor.com/event/${eventId}`,
    });
    await bot.idle();

    expect(delivery?.status).toBe(200);
    expect(bot.slack.unfurls).toHaveLength(unfurls);
    expect(botPostsIn(A.channel).filter((message) => visibleText(message).includes(NOT_CONNECTED))).toEqual(
      [],
    );
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    const lines = bot.logger.lines.slice(logged);
    expect(lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    expect(lines.filter((line) => line.includes('"job":"unfurl"'))).toEqual([]);
    expect(lines.join('\n')).toContain('"kind":"unfurl"');
  });

  it('answers jobs that reach the worker after the key was removed: the step ends, the person is told', async () => {
    const worker = await inlineWorker(bot.env(), { logger: bot.logger })(A.teamId);
    const responseUrl = bot.slack.responseUrl(A.channel, A.member.userId, undefined, A.teamId);

    await worker.handle({
      kind: 'workflow-step',
      id: 'step:Fx0NOKEY2',
      functionExecutionId: 'Fx0NOKEY2',
      eventId,
      context: { teamId: A.teamId, channelId: 'workflow', userId: 'workflow' },
    });
    await worker.handle({
      kind: 'command',
      id: 'command:NOKEY2',
      text: `fit ${eventId}`,
      context: { teamId: A.teamId, channelId: A.channel, userId: A.member.userId, responseUrl },
    });

    expect(stepResults('Fx0NOKEY2')).toMatchObject([{ outcome: 'error', error: NOT_CONNECTED }]);
    const told = bot.slack.messages(A.channel).at(-1);
    expect(told?.visibleTo).toBe(A.member.userId);
    expect(told && visibleText(told)).toContain(NOT_CONNECTED);
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
  });

  it('still opens the search modal for a workspace that has its key', async () => {
    await bot.slack.globalShortcut({ user: B.member.userId, callbackId: 'search_events' });

    expect(bot.slack.modal(B.member.userId)?.view.callback_id).toBe('modal.search');
    await bot.slack.closeView({ user: B.member.userId });
  });
});
