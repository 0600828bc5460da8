import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../local/fake-slack/fake-slack.ts';
import { readEnv } from '../../../src/platform/config/env.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import type { ReadSlack } from '../../../src/slack/kit/approver-kinds.ts';
import { approverRules } from '../../support/approver-rules.ts';
import {
  environmentRulesOf,
  notFixedByEnvironment,
  spendPolicyOf,
} from '../../../src/roots/workspace-policy.ts';

const BOT_TOKEN = 'xoxb-workspace-token-41d7';
/** Where the rules are asked for: a workspace's channel, read with its bot token. */
const SCOPE = { teamId: 'T0TEAM', channelId: 'C0CHANNEL', botToken: BOT_TOKEN };
const GROUP = 'S0APPROVERS';

/** The environment as the functions read it. */
const envOf = (vars: Record<string, string>) =>
  readEnv({ TABLE_NAME: 'table', EIS_BASE_URL: 'http://127.0.0.1:1', ...vars });

/** A Slack that knows `groups`, and remembers which group was read with which token. */
function slackGroups(groups: Record<string, string[]>) {
  const reads: string[] = [];
  const read: ReadSlack = (botToken, method, { usergroup = '' }) => {
    reads.push(`${method} ${usergroup} with ${botToken}`);
    const members = groups[usergroup];
    return members ? Promise.resolve({ ok: true, users: members }) : Promise.reject(new Error('no_such_subteam'));
  };
  return { read, reads };
}

describe('the spending rules of a single workspace (from the environment)', () => {
  it('names the user ids of SPEND_APPROVERS, with the threshold and cap, reading no group', async () => {
    const env = envOf({
      SPEND_APPROVERS: 'U0BOSS, W0LEAD',
      APPROVAL_THRESHOLD: '1000',
      DAILY_CREDIT_CAP: '5000',
    });
    const slack = slackGroups({});

    const policy = await spendPolicyOf(env, null, SCOPE, {
      logger: createMemoryLogger(),
      readSlack: slack.read,
    });

    expect(policy).toEqual({ approvers: ['U0BOSS', 'W0LEAD'], approvalThreshold: 1000, dailyCap: 5000 });
    expect(slack.reads).toEqual([]);
  });

  it('counts the members of a user group in SPEND_APPROVERS, read with the bot token, once each', async () => {
    const env = envOf({ SPEND_APPROVERS: `U0BOSS,${GROUP}` });
    const slack = slackGroups({ [GROUP]: ['U0FIN1', 'U0BOSS', 'U0FIN2'] });

    const policy = await spendPolicyOf(env, null, SCOPE, {
      logger: createMemoryLogger(),
      readSlack: slack.read,
    });

    expect(policy).toEqual({ approvers: ['U0BOSS', 'U0FIN1', 'U0FIN2'] });
    expect(slack.reads).toEqual([`usergroups.users.list ${GROUP} with ${BOT_TOKEN}`]);
  });

  it('counts no one of a group Slack cannot list, says so in a log line without the token, and keeps the users', async () => {
    const env = envOf({ SPEND_APPROVERS: `U0BOSS,${GROUP}` });
    const logger = createMemoryLogger();

    const policy = await spendPolicyOf(env, null, SCOPE, { logger, readSlack: slackGroups({}).read });

    expect(policy.approvers).toEqual(['U0BOSS']);
    const warned = logger.lines.filter((line) => line.includes('could not read the approvers’ user group'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(GROUP);
    expect(logger.lines.join('\n')).not.toContain(BOT_TOKEN);
  });

  it('counts no one of a group without a bot token to read it with', async () => {
    const slack = slackGroups({ [GROUP]: ['U0FIN1'] });

    const policy = await spendPolicyOf(envOf({ SPEND_APPROVERS: GROUP }), null, { ...SCOPE, botToken: undefined }, {
      logger: createMemoryLogger(),
      readSlack: slack.read,
    });

    expect(policy.approvers).toEqual([]);
    expect(slack.reads).toEqual([]);
  });
});

describe('the spending rules of a distributed workspace (its saved settings over the environment)', () => {
  const env = envOf({ SPEND_APPROVERS: `U0ENV,${GROUP}`, APPROVAL_THRESHOLD: '50', DAILY_CREDIT_CAP: '500' });

  it('takes the saved users and group instead of the environment’s approvers, whose group it never reads', async () => {
    const slack = slackGroups({ [GROUP]: ['U0ENVFIN'], S0FINANCE: ['U0FIN1', 'U0LEAD'] });
    const saved = { approverUserIds: ['U0LEAD'], approverUserGroupId: 'S0FINANCE', dailyCap: 200 };

    const policy = await spendPolicyOf(env, saved, SCOPE, {
      logger: createMemoryLogger(),
      readSlack: slack.read,
    });

    expect(policy).toEqual({ approvers: ['U0LEAD', 'U0FIN1'], approvalThreshold: 50, dailyCap: 200 });
    expect(slack.reads).toEqual([`usergroups.users.list S0FINANCE with ${BOT_TOKEN}`]);
  });

  it('keeps the environment’s approvers, its group read with the workspace’s token, when it saved none; null clears a limit', async () => {
    const slack = slackGroups({ [GROUP]: ['U0ENVFIN'] });

    const policy = await spendPolicyOf(env, { approvalThreshold: null }, SCOPE, {
      logger: createMemoryLogger(),
      readSlack: slack.read,
    });

    expect(policy).toEqual({ approvers: ['U0ENV', 'U0ENVFIN'], dailyCap: 500 });
    expect(slack.reads).toEqual([`usergroups.users.list ${GROUP} with ${BOT_TOKEN}`]);
  });

  it('keeps the named users when the saved group cannot be read', async () => {
    const logger = createMemoryLogger();

    const policy = await spendPolicyOf(
      env,
      { approverUserIds: ['U0LEAD'], approverUserGroupId: 'S0GONE' },
      SCOPE,
      {
        logger,
        readSlack: slackGroups({}).read,
      },
    );

    expect(policy.approvers).toEqual(['U0LEAD']);
    expect(logger.lines.some((line) => line.includes('S0GONE'))).toBe(true);
  });
});

describe('reading a user group from Slack (usergroups.users.list)', () => {
  let slack: FakeSlack | undefined;
  afterEach(() => slack?.close());

  it('lists the members with the bot token, and none when Slack answers an error', async () => {
    slack = await startFakeSlack({ userGroups: { [GROUP]: ['U0FIN1', 'U0FIN2'] } });
    const env = envOf({ SPEND_APPROVERS: `U0BOSS,${GROUP},S0UNKNOWN`, SLACK_API_URL: slack.apiUrl });
    const logger = createMemoryLogger();

    const policy = await spendPolicyOf(env, null, SCOPE, { logger });

    expect(policy.approvers).toEqual(['U0BOSS', 'U0FIN1', 'U0FIN2']);
    const reads = slack.calls.filter((call) => call.method === 'usergroups.users.list');
    expect(reads.map((call) => [call.args.usergroup, call.authorization])).toEqual(
      expect.arrayContaining([
        [GROUP, `Bearer ${BOT_TOKEN}`],
        ['S0UNKNOWN', `Bearer ${BOT_TOKEN}`],
      ]),
    );
    expect(logger.lines.some((line) => line.includes('S0UNKNOWN'))).toBe(true);
  });
});

describe('a single workspace’s saved rules under its environment’s', () => {
  const saved = {
    approverUserIds: ['U0DANA'],
    dailyCap: 10,
    approvalThreshold: 5,
    appManagerUserIds: ['U0ERIN'],
  };

  it('keeps the environment’s rule wherever it sets one, and the saved rule where it sets none', async () => {
    const env = envOf({ SPEND_APPROVERS: 'U0BOSS', DAILY_CREDIT_CAP: '5000' });

    const policy = await spendPolicyOf(env, notFixedByEnvironment(env, saved), SCOPE, {
      logger: createMemoryLogger(),
    });

    expect(policy).toEqual({ approvers: ['U0BOSS'], dailyCap: 5000, approvalThreshold: 5 });
  });

  it('says which rules the environment fixes, and where the key is set, never its value', () => {
    const single = environmentRulesOf(
      envOf({ SPEND_APPROVERS: 'U0BOSS,S0GROUP', EIS_API_KEY: 'sk_secret_value' }),
    );
    const distributed = environmentRulesOf(envOf({ SLACK_CLIENT_ID: 'client', DAILY_CREDIT_CAP: '300' }));

    expect(single).toEqual({
      fixes: true,
      approvers: approverRules({ users: ['U0BOSS'], userGroups: ['S0GROUP'] }),
      dailyCap: undefined,
      approvalThreshold: undefined,
      keySetBy: 'EIS_API_KEY',
    });
    expect(JSON.stringify(single)).not.toContain('sk_secret_value');
    expect(distributed).toMatchObject({ fixes: false, dailyCap: 300 });
    expect(distributed.keySetBy).toBeUndefined();
  });
});
