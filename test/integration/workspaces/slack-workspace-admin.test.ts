import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLambda } from '../../../local/lambda-http.ts';
import { type FakeSlack, type SlackMessage, startFakeSlack } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { viewSubmissionBody } from '../../../local/fake-slack/surfaces.ts';
import { stateValues, withInitialValues } from '../../../local/fake-slack/view-state.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { type Simulator, startSimulator } from '../../../simulator/server.ts';
import { createSlackHandlerLoader } from '../../../src/roots/slack-runtime.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { inlineWorker } from '../../../src/roots/worker-runtime.ts';
import { type DistributedBot, startDistributedBot, testWorkspace } from '../../support/distributed-bot.ts';
import { createTestTable } from '../../support/dynamo.ts';

const SIGNING_SECRET = 'test-signing-secret-a41c';
const CLIENT_SECRET = 'test-client-secret-93d0';
const TEAM = 'T0ACME';
const CHANNEL = 'C0GENERAL';
/** Installed the app, and is a plain member: an install confers nothing. */
const INSTALLER = 'U0ALICE';
const MEMBER = 'U0BOB';
const WORKSPACE_ADMIN = 'U0CAROL';
const OWNER = 'U0DAVE';
const CONNECT = 'open.workspace';

/**
 * A distributed app's workspace connecting its Event Intelligence key from App Home (issue 15): the
 * real Slack handler with an inline worker, DynamoDB Local, the service simulator and the fake Slack
 * delivering signed requests for the installed workspace. The steps run in order, as an admin would.
 */
describe('connecting a workspace from App Home', () => {
  const logger = createMemoryLogger();
  const goodKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
  const wrongKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
  let sim: Simulator;
  let slack: FakeSlack;
  let store: Store;
  let scanTable: () => Promise<string>;
  let idle: () => Promise<void>;
  let closeHttp: () => Promise<void>;

  beforeAll(async () => {
    sim = await startSimulator();
    sim.addKey(goodKey, { balance: 12_345 });
    slack = await startFakeSlack({
      channels: [CHANNEL],
      users: {
        [INSTALLER]: { name: 'alice', tz: 'Europe/Berlin' },
        [MEMBER]: { name: 'bob', tz: 'Europe/Berlin' },
        [WORKSPACE_ADMIN]: { name: 'carol', tz: 'Europe/Berlin', isAdmin: true },
        [OWNER]: { name: 'dave', tz: 'Europe/Berlin', isOwner: true },
      },
      oauth: { clientSecret: CLIENT_SECRET },
    });
    const { client, tableName, endpoint } = await createTestTable();
    store = createStore({ client, tableName });
    scanTable = async () =>
      JSON.stringify((await client.send(new ScanCommand({ TableName: tableName }))).Items);
    const env = {
      TABLE_NAME: tableName,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      EIS_BASE_URL: sim.url,
      SLACK_API_URL: slack.apiUrl,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_CLIENT_ID: slack.oauth.clientId,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: 'test-state-secret-5e77',
      WORKER_MODE: 'inline',
    };
    const load = createSlackHandlerLoader(env, {
      logger,
      inlineWorker: inlineWorker(env, { logger, earlyPolls: { count: 0, everyMs: 0 } }),
    });
    const http = await serveLambda(async (event, context) => (await load()).handler(event, context));
    closeHttp = () => http.close();
    idle = async () => {
      await (await load()).dispatch.idle?.();
    };
    // Installed by Alice (as the OAuth redirect stores it); Bolt authorizes each request by it.
    await store.installations.storeInstallation({
      team: { id: TEAM, name: 'Acme' },
      enterprise: undefined,
      user: { id: INSTALLER, token: undefined, scopes: undefined },
      bot: { token: `xoxb-${TEAM}-test`, scopes: ['commands', 'chat:write'], id: 'BBOT', userId: 'UBOT' },
      tokenType: 'bot',
      isEnterpriseInstall: false,
      authVersion: 'v2',
    });
    slack.connectApp({ requestUrl: `${http.url}/slack/events`, signingSecret: SIGNING_SECRET, teamId: TEAM });
  });

  afterAll(async () => {
    await idle();
    await Promise.all([closeHttp(), slack.close(), sim.close()]);
  });

  const command = async (text: string, user = WORKSPACE_ADMIN) => {
    await slack.sendCommand({ user, channel: CHANNEL, text });
    await idle();
    return slack.messages(CHANNEL).filter((message) => message.visibleTo === user && message.user !== user);
  };
  const homeText = (user: string) => JSON.stringify(slack.home(user)?.view.blocks ?? []);
  const openSettings = async (user: string) => {
    const home = slack.home(user);
    if (!home) throw new Error(`${user} has no Home`);
    await slack.clickInView({ user, viewId: home.id, actionId: CONNECT });
    return slack.modal(user);
  };

  it('answers a command with how to connect, and runs nothing, until a key is connected', async () => {
    const answers = await command('search fintech');

    expect(answers).toHaveLength(1);
    expect(answers[0]?.text).toMatch(/not connected its Event Intelligence key yet.*admin.*Home tab/);
    expect(logger.lines.some((line) => line.includes('command dispatched'))).toBe(false);
    expect(sim.requests()).toHaveLength(0);
  });

  it('still explains itself: help works before connecting', async () => {
    const answers = await command('help');

    expect(answers.at(-1)?.text).not.toMatch(/not connected/);
  });

  it('shows a Home asking to connect, with the Connect button', async () => {
    await slack.openHome(WORKSPACE_ADMIN);

    expect(homeText(WORKSPACE_ADMIN)).toContain('Connect Event Intelligence');
    expect(homeText(WORKSPACE_ADMIN)).toContain(CONNECT);
    expect(slack.home(WORKSPACE_ADMIN)?.warnings).toEqual([]);
  });

  it('refuses the settings to members who are not admins, the one who installed the app included', async () => {
    for (const user of [INSTALLER, MEMBER]) {
      await slack.openHome(user);

      const modal = await openSettings(user);

      expect(JSON.stringify(modal?.view.blocks)).not.toContain('service_key');
      expect(JSON.stringify(modal?.view.blocks)).toContain('Only workspace admins and owners');
    }
  });

  it('shows a refused key as a field error and stores nothing', async () => {
    await openSettings(WORKSPACE_ADMIN);

    await slack.submitForm({ user: WORKSPACE_ADMIN, inputs: { service_key: { value: wrongKey } } });

    expect(slack.modal(WORKSPACE_ADMIN)?.errors?.service_key).toMatch(/service refused this key/);
    expect(await store.workspaces.getServiceKeyInfo(TEAM)).toBeNull();
  });

  it('says to try again when the service cannot be reached, and stores nothing', async () => {
    sim.injectFault({ kind: 'status', status: 503, times: 3 });

    await slack.submitForm({ user: WORKSPACE_ADMIN, inputs: { service_key: { value: goodKey } } });
    sim.clearFaults();

    expect(slack.modal(WORKSPACE_ADMIN)?.errors?.service_key).toMatch(/try again/);
    expect(await store.workspaces.getServiceKeyInfo(TEAM)).toBeNull();
  });

  it('connects a key the service accepts: stored encrypted, the Home republished with the rules', async () => {
    await slack.submitForm({
      user: WORKSPACE_ADMIN,
      inputs: {
        service_key: { value: goodKey },
        approvers: { value: [MEMBER] },
        daily_cap: { value: '500' },
      },
    });
    await idle();

    expect(slack.modal(WORKSPACE_ADMIN)).toBeUndefined();
    expect(await store.workspaces.getServiceKeyInfo(TEAM)).toMatchObject({
      last4: goodKey.slice(-4),
      connectedBy: WORKSPACE_ADMIN,
    });
    expect(await store.workspaces.getPolicy(TEAM)).toMatchObject({
      approverUserIds: [MEMBER],
      dailyCap: 500,
    });
    const table = await scanTable();
    expect(table).not.toContain(goodKey);
    const home = homeText(WORKSPACE_ADMIN);
    expect(home).toContain('12,345');
    expect(home).toContain('daily cap of 500');
    expect(home).toContain('Workspace settings');
    expect(slack.home(WORKSPACE_ADMIN)?.warnings).toEqual([]);
  });

  it('lets a workspace owner open and save the settings too; a member may not', async () => {
    await slack.openHome(OWNER);
    await idle();
    const modal = await openSettings(OWNER);
    expect(JSON.stringify(modal?.view.blocks)).toContain('daily_cap');

    await slack.submitForm({ user: OWNER, inputs: { daily_cap: { value: '700' } } });
    await idle();

    expect(slack.modal(OWNER)).toBeUndefined();
    expect(await store.workspaces.getPolicy(TEAM)).toMatchObject({ dailyCap: 700, updatedBy: OWNER });
    const refused = await openSettings(MEMBER);
    expect(JSON.stringify(refused?.view.blocks)).not.toContain('daily_cap');
  });

  let card: SlackMessage | undefined;

  it('runs commands with the connected key', async () => {
    const answers = await command('credits');
    card = (await command('search fintech')).find((message) => buttonsOf(message).length > 0);

    expect(answers.at(-1)?.text ?? '').not.toMatch(/not connected/);
    expect(JSON.stringify(answers.at(-1))).toContain('12,345');
    expect(card).toBeDefined();
  });

  it('shows only the last 4 characters of the key in the settings', async () => {
    const modal = await openSettings(WORKSPACE_ADMIN);

    const shown = JSON.stringify(modal?.view.blocks);
    expect(shown).toContain(`…${goodKey.slice(-4)}`);
    expect(shown).toContain(`<@${WORKSPACE_ADMIN}>`);
    expect(shown).not.toContain(goodKey);
    expect(modal?.warnings).toEqual([]);
  });

  it('removes the key: commands answer how to connect again, the Home asks to connect', async () => {
    await slack.submitForm({ user: WORKSPACE_ADMIN, inputs: { remove_key: { value: ['remove'] } } });
    await idle();

    expect(await store.workspaces.getServiceKeyInfo(TEAM)).toBeNull();
    expect(homeText(WORKSPACE_ADMIN)).toContain('Connect Event Intelligence');
    const answers = await command('credits');
    expect(answers.at(-1)?.text).toMatch(/not connected its Event Intelligence key yet/);
  });

  it('answers a button on an earlier card with how to connect, once the key is removed', async () => {
    if (!card) throw new Error('no card with buttons from the search');
    const [first] = buttonsOf(card);
    const before = sim.requests().length;

    await slack.click({
      user: WORKSPACE_ADMIN,
      channel: CHANNEL,
      ts: card.ts,
      actionId: first?.button.action_id ?? '',
    });
    await idle();

    const last = slack.messages(CHANNEL).at(-1);
    expect(last?.visibleTo).toBe(WORKSPACE_ADMIN);
    expect(last?.text).toMatch(/not connected its Event Intelligence key yet/);
    expect(sim.requests()).toHaveLength(before);
    // Answered at once: no job reached the worker to be refused there.
    expect(logger.lines.filter((line) => line.includes('WORKSPACE_NOT_CONNECTED'))).toEqual([]);
  });

  it('never put either key in a log line, a Slack message, a view or a Slack call', () => {
    const everything = JSON.stringify([
      logger.lines,
      slack.messages(),
      slack.calls,
      slack.home(WORKSPACE_ADMIN),
      slack.home(MEMBER),
    ]);

    expect(everything).not.toContain(goodKey);
    expect(everything).not.toContain(wrongKey);
  });
});

const W = testWorkspace('T0ROLES');
const ADMIN = 'U0ADMINROLES';
const OTHER_ADMIN = 'U0OWNERROLES';
const MANAGER = 'U0MANAGERROLES';
const MEMBER_W = W.member.userId;
/** An admin and owner of a partner organisation, in the workspace's shared channels (Slack Connect). */
const PARTNER_ADMIN = 'U0PARTNERADMIN';

/**
 * Who may manage a distributed workspace's settings (issue 23): a Slack role, never an install. The
 * workspace installs through the real OAuth pages; the steps run in order.
 */
describe('who may manage a workspace’s settings', () => {
  let bot: DistributedBot;

  const openSettings = async (user: string) => {
    await bot.slack.openHome(user, W.teamId);
    await bot.idle();
    const home = bot.slack.home(user);
    if (!home) throw new Error(`${user} has no Home`);
    await bot.slack.clickInView({ user, viewId: home.id, actionId: CONNECT });
    return bot.slack.modal(user);
  };
  const save = async (user: string, inputs: Parameters<FakeSlack['submitForm']>[0]['inputs']) => {
    await bot.slack.submitForm({ user, inputs });
    await bot.idle();
  };
  const blocksOf = (user: string) => JSON.stringify(bot.slack.modal(user)?.view.blocks ?? []);
  const policy = () => bot.store.workspaces.getPolicy(W.teamId);

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [W],
      users: {
        [ADMIN]: { name: 'admin', tz: 'UTC', teamId: W.teamId, isAdmin: true },
        [OTHER_ADMIN]: { name: 'owner', tz: 'UTC', teamId: W.teamId, isOwner: true },
        [MANAGER]: { name: 'manager', tz: 'UTC', teamId: W.teamId },
        [MEMBER_W]: { name: 'member', tz: 'UTC', teamId: W.teamId },
        [PARTNER_ADMIN]: { name: 'partner', tz: 'UTC', teamId: 'T0PARTNER', isAdmin: true, isOwner: true },
      },
    });
    expect(await bot.install(W.teamId)).toBe(200);
    await openSettings(ADMIN);
    await save(ADMIN, { service_key: { value: bot.newKey() }, daily_cap: { value: '500' } });
  });
  afterAll(() => bot?.close());

  it('refuses a member who reinstalled the app through Slack’s consent, and stores nothing they submit', async () => {
    const before = await policy();
    const keyBefore = await bot.store.workspaces.getServiceKeyInfo(W.teamId);

    expect(await bot.install(W.teamId, undefined, { userId: MEMBER_W })).toBe(200);
    await openSettings(MEMBER_W);
    const refused = blocksOf(MEMBER_W);
    // A settings view replayed as the member, as if they had kept one open.
    const shown = await openSettings(ADMIN);
    if (!shown) throw new Error('no settings modal for the admin');
    const forged = stateValues(
      shown.view,
      withInitialValues(shown.view, {
        approvers: { value: [MEMBER_W] },
        daily_cap: { value: '999999999' },
        app_managers: { value: [MEMBER_W] },
      }),
    );
    const answer = await bot.post(viewSubmissionBody(W.member, shown, forged));
    await bot.idle();

    expect(refused).not.toContain('daily_cap');
    expect(await policy()).toEqual(before);
    expect(await bot.store.workspaces.getServiceKeyInfo(W.teamId)).toEqual(keyBefore);
    expect(refused).toContain('Only workspace admins and owners, or the app managers they name');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Only workspace admins and owners');
    await bot.slack.closeView({ user: ADMIN });
  });

  it('lets an app manager an admin named open and save the settings', async () => {
    await openSettings(ADMIN);
    await save(ADMIN, { app_managers: { value: [MANAGER] } });
    expect(await policy()).toMatchObject({ appManagerUserIds: [MANAGER], dailyCap: 500 });

    await openSettings(MANAGER);
    const shown = blocksOf(MANAGER);
    await save(MANAGER, { daily_cap: { value: '800' } });

    expect(shown).toContain('daily_cap');
    expect(shown).not.toContain('app_managers');
    expect(bot.slack.modal(MANAGER)).toBeUndefined();
    expect(await policy()).toMatchObject({
      dailyCap: 800,
      appManagerUserIds: [MANAGER],
      updatedBy: MANAGER,
    });
  });

  it('names who can change the settings to a member refused them: owners, admins, app managers, no partner', async () => {
    await openSettings(MEMBER_W);
    const refused = blocksOf(MEMBER_W);
    await bot.slack.closeView({ user: MEMBER_W });

    expect(refused).not.toContain('daily_cap');
    expect(refused).toContain(
      `Ask <@${OTHER_ADMIN}> (owner), <@${ADMIN}> (admin) or <@${MANAGER}> (app manager) to change what you need.`,
    );
    expect(refused).not.toContain(PARTNER_ADMIN);
  });

  it('keeps the app managers as the admins chose them when a manager sends other ones', async () => {
    const shown = await openSettings(MANAGER);
    if (!shown) throw new Error('no settings modal for the manager');
    const values = {
      ...stateValues(shown.view, withInitialValues(shown.view, { daily_cap: { value: '900' } })),
      app_managers: { value: { type: 'multi_users_select', selected_users: [MANAGER, MEMBER_W] } },
    };

    await bot.slack.submitView({ user: MANAGER, values });
    await bot.idle();

    expect(await policy()).toMatchObject({ dailyCap: 900, appManagerUserIds: [MANAGER] });
  });

  it('stores the first of two saves made from modals opened together, and tells the second', async () => {
    await openSettings(ADMIN);
    await openSettings(OTHER_ADMIN);

    await save(ADMIN, { daily_cap: { value: '1000' } });
    await save(OTHER_ADMIN, { daily_cap: { value: '2000' }, approvers: { value: [OTHER_ADMIN] } });

    expect(bot.slack.modal(ADMIN)).toBeUndefined();
    expect(bot.slack.modal(OTHER_ADMIN)?.errors?.service_key).toBe(
      'Someone else saved these settings while you had them open: close and open the settings again to see theirs.',
    );
    const stored = await policy();
    expect(stored).toMatchObject({ dailyCap: 1000, updatedBy: ADMIN });
    expect(stored?.approverUserIds).toBeUndefined();

    await bot.slack.closeView({ user: OTHER_ADMIN });
    await openSettings(OTHER_ADMIN);
    expect(blocksOf(OTHER_ADMIN)).toContain('"initial_value":"1000"');
    await save(OTHER_ADMIN, { daily_cap: { value: '2000' } });
    expect(await policy()).toMatchObject({ dailyCap: 2000, updatedBy: OTHER_ADMIN });
  });
});
