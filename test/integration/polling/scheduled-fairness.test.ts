import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM_TYPE, DUE_KIND, keys } from '../../../src/store/keys.ts';
import { createDocumentClient, TABLE_KEYS } from '../../../src/store/table.ts';
import { newUnlockTaskItem } from '../../../src/store/unlock-tasks.ts';
import {
  type DistributedBot,
  startDistributedBot,
  startInstalledWorkspaces,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');
const ADMIN_A = 'U0ADMINALPHA';
const HOUR = 60 * 60_000;
const BACKLOG = 1_000;

/** Straight into the table, 25 at a time: due items of `teamId` (the setup of a backlog, kept fast). */
async function writeDirectly(bot: DistributedBot, items: Record<string, unknown>[]) {
  const env = bot.env();
  const client = createDocumentClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB ?? '' });
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await client.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME ?? '']: batch } }));
  }
}

/** A's digest backlog: `count` channels, each due at `nextRunAt` (as `digestSubscriptions.put` stores one). */
function digestBacklog(count: number, nextRunAt: Date) {
  const at = nextRunAt.toISOString();
  return Array.from({ length: count }, (_, n) => {
    const channelId = `C0BACKLOG${n}`;
    return {
      ...keys.digestSubscription(A.teamId, channelId),
      type: ITEM_TYPE.digestSubscription,
      teamId: A.teamId,
      channelId,
      time: at.slice(11, 16),
      timeZone: 'UTC',
      filters: {},
      createdBy: A.member.userId,
      createdAt: at,
      updatedAt: at,
      status: 'active',
      nextRunAt: at,
      [TABLE_KEYS.dueKind]: DUE_KIND.digest,
      [TABLE_KEYS.dueAt]: at,
    };
  });
}

async function homeText(bot: DistributedBot, userId: string, teamId: string): Promise<string> {
  await bot.slack.openHome(userId, teamId);
  await bot.idle();
  return JSON.stringify(bot.slack.home(userId)?.view ?? null);
}

describe('a disconnected workspace with 1,000 due digests beside one due digest elsewhere', () => {
  let bot: DistributedBot;
  // 09:00 UTC tomorrow; A's backlog was due at 04:00, B's digest at 08:55.
  const day = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 24 * HOUR;
  let at = day + 9 * HOUR;
  const clock = () => new Date(at);
  const runDigests = async () => (await bot.scheduled(clock)()).runDigests();
  const digestsIn = (channel: string) =>
    bot.slack.messages(channel).filter((m) => m.visibleTo === undefined && /Digest for/.test(m.text));
  const pausedLines = () =>
    bot.logger.lines.filter((line) => line.includes('paused the scheduled work') && line.includes(A.teamId));
  const subscribe = (teamId: string, channelId: string, time: string) =>
    bot.store.digestSubscriptions.put({
      teamId,
      channelId,
      time,
      timeZone: 'UTC',
      filters: {},
      createdBy: 'U0SOMEONE',
      nextRunAt: new Date(day + Number(time.slice(0, 2)) * HOUR + Number(time.slice(3)) * 60_000),
    });

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [A, B],
      users: { [ADMIN_A]: { name: 'alphaadmin', tz: 'UTC', teamId: A.teamId, isAdmin: true } },
    });
    for (const workspace of [A, B]) {
      expect(await bot.install(workspace.teamId)).toBe(200);
      await bot.connectKey(workspace.teamId, bot.newKey(20_000));
    }
    await subscribe(A.teamId, 'C0BACKLOG0', '04:00'); // as the app writes one (the workspace is listed)
    await writeDirectly(bot, digestBacklog(BACKLOG, new Date(day + 4 * HOUR)));
    await subscribe(B.teamId, B.channel, '08:55');
    await bot.store.workspaces.removeServiceKey(A.teamId);
  }, 60_000);
  afterAll(() => bot.close());

  it('posts B’s digest in the first run, and pauses A’s work once, with the reason stored', async () => {
    const summary = await runDigests();
    at += 60_000;
    const second = await runDigests();
    await (await bot.scheduled(clock)()).pollUnlockTasks();

    expect(summary.posted).toBe(1);
    expect(digestsIn(B.channel).map((m) => m.teamId)).toEqual([B.teamId]);
    expect(second.posted).toBe(0);
    expect((await bot.store.scheduledWork.get(A.teamId))?.paused).toMatchObject({
      reason: 'no-service-key',
      since: new Date(day + 9 * HOUR).toISOString(),
      retryAt: new Date(day + 10 * HOUR).toISOString(),
    });
    // Once for the run that found it, not per item, and not again before the retry time.
    expect(pausedLines()).toHaveLength(1);
    expect(await bot.store.scheduledWork.get(B.teamId)).not.toHaveProperty('paused');
  });

  it('tells A’s admin on the Home why A’s scheduled work waits, and not its other members', async () => {
    const adminHome = await homeText(bot, ADMIN_A, A.teamId);
    const memberHome = await homeText(bot, A.member.userId, A.teamId);

    expect(adminHome).toContain('Scheduled work paused');
    expect(adminHome).toContain('no Event Intelligence key is connected');
    expect(adminHome).toContain('Connect a key and they resume');
    expect(memberHome).not.toContain('Scheduled work paused');
  });

  it('runs A’s digests again at the next run once its key is connected again', async () => {
    await subscribe(A.teamId, A.channel, '09:10');
    at = day + 9 * HOUR + 11 * 60_000; // before the paused workspace's retry time
    await bot.connectKey(A.teamId, bot.newKey(20_000));

    const summary = await runDigests();

    // The backlog is more than 3 hours late (skipped and moved to tomorrow); A's channel gets its digest.
    expect(summary).toMatchObject({ posted: 1, late: BACKLOG });
    expect(digestsIn(A.channel).map((m) => m.teamId)).toEqual([A.teamId]);
    expect(await bot.store.scheduledWork.get(A.teamId)).not.toHaveProperty('paused');
  }, 60_000);
});

describe('a disconnected workspace with a backlog of unlock tasks beside one task elsewhere', () => {
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
  });
  afterAll(() => bot.close());

  it('polls B’s task and posts its result in the first run; A’s 60 older tasks wait', async () => {
    // A's tasks, due ten minutes before B's, then A's key is removed.
    const earlier = new Date(Date.now() - 10 * 60_000);
    const backlog = Array.from({ length: 60 }, (_, n) =>
      newUnlockTaskItem(
        {
          taskId: `task-backlog-${n}`,
          kind: 'email',
          teamId: A.teamId,
          channelId: A.channel,
          threadTs: '1700000000.000100',
          requestedBy: A.member.userId,
          personnelIds: ['p1'],
          skipped: [],
        },
        earlier,
      ),
    );
    await bot.store.scheduledWork.register(A.teamId);
    await writeDirectly(bot, backlog);
    await bot.store.workspaces.removeServiceKey(A.teamId);
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    await bot.command(`emails ${person?.id}`, B.member);
    await bot.idle();
    const card = bot.slack.messages(B.channel).at(-1);
    if (!card) throw new Error('no confirmation card in B');
    await bot.click(card, 'confirm.yes', B.member);
    await bot.idle();
    const [taskB] = await bot.store.unlockTasks.unfinishedForTeam(B.teamId);
    bot.sim.completeTasks();

    const polled = await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();

    expect(polled).toMatchObject({ posted: 1 });
    expect(await bot.store.unlockTasks.get(taskB?.taskId ?? '')).toHaveProperty('resultPostedAt');
    expect((await bot.store.scheduledWork.get(A.teamId))?.paused).toMatchObject({ reason: 'no-service-key' });
    expect(await bot.store.unlockTasks.unfinishedForTeam(A.teamId)).toHaveLength(60);
  });
});

describe('scheduled runs and a workspace the app is still installed for (Enterprise Grid)', () => {
  const ORG = 'E0ACME';
  const G = testWorkspace('T0GRID1');
  let bot: DistributedBot;
  const dueDigest = () =>
    bot.store.digestSubscriptions.put({
      teamId: G.teamId,
      channelId: G.channel,
      time: '08:00',
      timeZone: 'UTC',
      filters: {},
      createdBy: G.member.userId,
      nextRunAt: new Date(),
    });
  const runAll = async () => {
    const jobs = await bot.scheduled(() => new Date(Date.now() + 60_000))();
    await jobs.runDigests();
    await jobs.pollUnlockTasks();
  };

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [G], enterprises: { [ORG]: [G.teamId] } });
    expect(await bot.install(G.teamId, { enterpriseId: ORG })).toBe(200);
    await bot.store.workspaces.putServiceKey({
      teamId: G.teamId,
      serviceKey: bot.newKey(20_000),
      connectedBy: 'U0ORGADMIN',
      orgWideInstall: { enterpriseId: ORG },
    });
    await dueDigest();
  });
  afterAll(() => bot.close());

  it('keeps a workspace served by the org-wide install: its digest is posted, nothing forgotten', async () => {
    await runAll();

    expect(bot.slack.messages(G.channel).filter((m) => /Digest for/.test(m.text))).toHaveLength(1);
    expect(await bot.store.workspaces.getServiceKeyInfo(G.teamId)).not.toBeNull();
  });

  it('does not forget a workspace served by its own install after the org-wide one is gone', async () => {
    expect(await bot.install(G.teamId)).toBe(200);
    await bot.store.installations.deleteInstallation({ enterpriseId: ORG, isEnterpriseInstall: true });
    await dueDigest();

    await runAll();

    expect(bot.logger.lines.filter((line) => line.includes('forgot a workspace'))).toEqual([]);
    expect(await bot.store.workspaces.getServiceKeyInfo(G.teamId)).not.toBeNull();
    expect(await bot.store.digestSubscriptions.activeForTeam(G.teamId)).toHaveLength(1);
  });
});
