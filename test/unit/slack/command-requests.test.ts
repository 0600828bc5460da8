import { describe, expect, it } from 'vitest';
import { slackPostEvent } from '../../../local/lambda-http.ts';
import { slashCommandBody } from '../../../local/fake-slack/payloads.ts';
import { signedHeaders } from '../../../local/fake-slack/sign.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { createBoltApp } from '../../../src/slack/app.ts';
import { type CommandSource, commandRequests } from '../../../src/slack/command-requests.ts';
import type { SlackHttpEvent } from '../../../src/slack/http-boundary.ts';
import type { Job } from '../../../src/slack/kit/jobs.ts';

const SECRET = 'unit-signing-secret-0c4a';
const TEAM = 'T0SERVED';
const ALICE = { teamId: TEAM, userId: 'U0ALICE', channelId: 'C0PLANS' };
const FORM = 'application/x-www-form-urlencoded';

/** The listeners' three dependencies, recording what they were asked. */
function fakeDeps(options: { firstDelivery?: boolean; dispatchFails?: boolean } = {}) {
  const dispatched: Job[] = [];
  const recorded: string[] = [];
  return {
    dispatched,
    recorded,
    deps: {
      deliveries: {
        first: (key: string) => {
          recorded.push(key);
          return Promise.resolve(options.firstDelivery ?? true);
        },
      },
      dispatch: (job: Job) => {
        dispatched.push(job);
        return options.dispatchFails ? Promise.reject(new Error('Invoke failed')) : Promise.resolve();
      },
      logger: createMemoryLogger(),
    },
  };
}

/** What Bolt's own `/events` listener answers for `body` (the path every request took before). */
async function boltAnswer(body: string, deps: ReturnType<typeof fakeDeps>['deps']) {
  const { bolt } = createBoltApp({
    signingSecret: SECRET,
    workspaces: { botToken: 'xoxb-unit', botId: 'B0UNIT', botUserId: 'U0BOT', installedTeamId: TEAM },
    logger: deps.logger,
    deps: { ...deps, confirmations: {} as never, policyFor: () => Promise.resolve({ approvers: [] }) },
  });
  const event = slackPostEvent(signedHeaders(SECRET, body), body, 'unit') as unknown as SlackHttpEvent;
  return bolt(event, {});
}

const withoutBolt = (deps: ReturnType<typeof fakeDeps>['deps']) =>
  commandRequests({ isServed: ({ teamId }) => Promise.resolve(teamId === TEAM), deps });

describe('commands answered without Bolt', () => {
  it.each([
    ['a command handed to the worker', 'fit 26855', {}],
    ['a command with a missing argument (usage help)', 'fit', {}],
    ['an unknown word (did you mean)', 'fitt 26855', {}],
    ['help', 'help', {}],
    ['help on one word', 'help unlock', {}],
    ['a replayed delivery (nothing new)', 'fit 26855', { firstDelivery: false }],
    ['a command the worker could not be reached for', 'exhibitors 26855', { dispatchFails: true }],
  ])('answer %s exactly as the Bolt listener does', async (_, text, options) => {
    const body = slashCommandBody(ALICE, text, 'https://hooks.slack.test/r/1');
    const direct = fakeDeps(options);
    const viaBolt = fakeDeps(options);

    const answered = await withoutBolt(direct.deps)(FORM, body);
    const expected = await boltAnswer(body, viaBolt.deps);

    expect(answered).toBeDefined();
    expect(answered).toEqual(expected);
    expect(direct.dispatched).toEqual(viaBolt.dispatched);
    expect(direct.recorded).toEqual(viaBolt.recorded);
  });

  it('hand the worker the command, its channel, user and response URL, deduplicated on its trigger id', async () => {
    const { deps, dispatched, recorded } = fakeDeps();
    const body = slashCommandBody(ALICE, 'fit 26855', 'https://hooks.slack.test/r/2');
    const triggerId = new URLSearchParams(body).get('trigger_id');

    const answered = await withoutBolt(deps)(FORM, body);

    expect(answered?.statusCode).toBe(200);
    expect(answered?.body).toContain('Working on /events fit 26855');
    expect(recorded).toEqual([`command:${triggerId}`]);
    expect(dispatched).toHaveLength(1);
    expect(dispatched[0]).toMatchObject({
      kind: 'command',
      text: 'fit 26855',
      context: {
        teamId: TEAM,
        channelId: ALICE.channelId,
        userId: ALICE.userId,
        responseUrl: 'https://hooks.slack.test/r/2',
      },
    });
  });

  it('refuse a command longer than /events takes whole, handing nothing to the worker', async () => {
    const { deps, dispatched } = fakeDeps();
    const body = slashCommandBody(
      ALICE,
      `watch remove ${'x'.repeat(30_000)}`,
      'https://hooks.slack.test/r/3',
    );

    const answered = await withoutBolt(deps)(FORM, body);

    expect(answered?.body).toContain('That command is 30,013 characters long; /events takes up to 25,000');
    expect(dispatched).toEqual([]);
  });

  it.each([
    ['a command a modal stands for', FORM, slashCommandBody(ALICE, 'digest on', 'https://r')],
    ['the watch import form', FORM, slashCommandBody(ALICE, 'watch import', 'https://r')],
    ['another workspace', FORM, slashCommandBody({ ...ALICE, teamId: 'T0OTHER' }, 'fit 1', 'https://r')],
    [
      'another slash command',
      FORM,
      slashCommandBody(ALICE, 'fit 1', 'https://r').replace('%2Fevents', '%2Fother'),
    ],
    [
      'a click (an interaction payload)',
      FORM,
      new URLSearchParams({ payload: '{"type":"block_actions"}' }).toString(),
    ],
    ['Slack’s SSL check', FORM, `${slashCommandBody(ALICE, '', 'https://r')}&ssl_check=1`],
    [
      'a command without a trigger id',
      FORM,
      slashCommandBody(ALICE, 'fit 1', 'https://r').replace(/&trigger_id=[^&]*/, ''),
    ],
    ['an Events API delivery', 'application/json', '{"type":"event_callback","event_id":"Ev1"}'],
  ])('leave %s to Bolt, doing nothing', async (_, mediaType, body) => {
    const { deps, dispatched, recorded } = fakeDeps();

    expect(await withoutBolt(deps)(mediaType, body)).toBeUndefined();
    expect(dispatched).toEqual([]);
    expect(recorded).toEqual([]);
  });
  it('ask whether the command is served with its workspace, org and words', async () => {
    const { deps } = fakeDeps();
    const asked: CommandSource[] = [];
    const inOrg = { ...ALICE, enterprise: { id: 'E0ORG', orgWideInstall: true } };
    const requests = commandRequests({
      isServed: (source) => Promise.resolve(asked.push(source) > 0),
      deps,
    });

    await requests(FORM, slashCommandBody(ALICE, 'help', 'https://r'));
    await requests(FORM, slashCommandBody(inOrg, 'fit 1', 'https://r'));

    expect(asked).toEqual([
      { teamId: TEAM, text: 'help' },
      { teamId: TEAM, enterpriseId: 'E0ORG', text: 'fit 1' },
    ]);
  });

  it('leave a command to Bolt, doing nothing, when whether it is served cannot be read', async () => {
    const { deps, dispatched, recorded } = fakeDeps();
    const requests = commandRequests({
      isServed: () => Promise.reject(new Error('DynamoDB throttled the read')),
      deps,
    });

    expect(await requests(FORM, slashCommandBody(ALICE, 'fit 1', 'https://r'))).toBeUndefined();
    expect(dispatched).toEqual([]);
    expect(recorded).toEqual([]);
  });
});
