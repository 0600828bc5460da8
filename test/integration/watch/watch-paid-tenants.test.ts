import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOLVE_SHOWS } from '../../../src/domain/watch/lookup.ts';
import { accountKey } from '../../../src/domain/watch/names.ts';
import { createWatchRun } from '../../../src/roots/watch-runtime.ts';
import {
  type InstalledWorkspaces,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

/*
 * The watch's once-a-month paid look-up is per workspace: in a distributed app, two workspaces with
 * their own keys watch the same name, and one's look-up never stands in for, or blocks, the other's.
 */

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');
const PAID_PATH = '/external/exhibitors/search-by-company-name';

describe('paid watch look-ups, two workspaces watching one name', () => {
  let bot: InstalledWorkspaces;

  const say = async (text: string, actor: TestWorkspace['member']) => {
    await bot.command(text, actor);
    await bot.idle();
  };

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
  });
  afterAll(() => bot.close());

  it('each workspace runs its own look-up of the name that month, charged to its own key', async () => {
    // Prepare: a company the free path cannot find (on none of the first upcoming shows)
    const soonest = new Set(
      bot.sim.events
        .filter((event) => event.dateStart >= bot.sim.today)
        .sort((a, b) => a.dateStart.localeCompare(b.dateStart))
        .slice(0, RESOLVE_SHOWS + 5)
        .map((event) => event.id),
    );
    const names = bot.sim.seed.exhibitors.map((exhibitor) => exhibitor.companyName.toLowerCase());
    const company = bot.sim.seed.exhibitors.find(
      (exhibitor) =>
        !exhibitor.eventIds.some((id) => soonest.has(id)) &&
        names.filter((name) => name === exhibitor.companyName.toLowerCase()).length === 1,
    );
    if (!company) throw new Error('no company the free path misses');
    for (const workspace of [A, B]) {
      await say('watch budget 100', workspace.approver);
      await say(`watch add ${company.companyName}`, workspace.member);
    }
    const run = createWatchRun(bot.scheduled(), bot.env());

    // Act: the hourly run checks both workspaces' channels, then runs again
    await run({ getRemainingTimeInMillis: () => 240_000 });
    for (const workspace of [A, B])
      await bot.store.watchLists.setStatus(workspace.teamId, workspace.channel, 'on');
    await run({ getRemainingTimeInMillis: () => 240_000 });

    // Assess: one look-up and one charge per workspace, each on its own key; both found the company
    const searches = bot.sim
      .requests()
      .filter(
        (request) => request.path === PAID_PATH && JSON.stringify(request.body).includes(company.companyName),
      );
    expect(searches).toHaveLength(2);
    for (const workspace of [A, B]) {
      expect(bot.sim.ledger(bot.keys.get(workspace.teamId) ?? '').map((entry) => entry.credits)).toEqual([
        50,
      ]);
      const key = accountKey(company.companyName) ?? '';
      expect(await bot.store.watchLists.account(workspace.teamId, workspace.channel, key)).toMatchObject({
        resolution: 'resolved',
        exhibitorIds: [company.id],
      });
    }
  });
});
