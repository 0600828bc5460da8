import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import type { SeededEvent } from '../../../simulator/server.ts';
import { inReturnWindow } from '../../../src/domain/outcome-return.ts';
import { isPastShow } from '../../../src/domain/past-show.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { moneyWords } from '../../../src/slack/kit/money-words.ts';
import { visibleText } from '../../support/bot.ts';
import {
  type InstalledWorkspaces,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * `/events return` through the real handlers (issue 43): the entries logged for a past show add up
 * to its return, sourced apart from influenced; a deleted entry and another workspace's never count.
 */

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');

describe('a show’s return, two workspaces', () => {
  let bot: InstalledWorkspaces;
  let show: SeededEvent;

  const say = async (text: string, actor: Actor) => {
    await bot.command(text, actor);
    await bot.idle();
  };
  const lastIn = (workspace: TestWorkspace, userId: string) =>
    visibleText(
      bot.slack
        .messages(workspace.channel)
        .filter((m) => m.visibleTo === userId)
        .at(-1) ?? { text: '', blocks: [] },
    );
  const eur = (hundredths: number) => moneyWords(hundredths, 'EUR');

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
    const { today } = bot.sim;
    // A show that has ended, whose window is still open today (entries logged now count for it).
    const past = bot.sim.events
      .filter((e) => isPastShow(e, today) && inReturnWindow(e, `${today}T12:00:00Z`))
      .sort((x, y) => y.dateEnd.localeCompare(x.dateEnd))[0];
    if (!past) throw new Error('the simulator has no show that ended lately');
    show = past;
    for (const workspace of [A, B]) await say('plan currency EUR', workspace.member);
  });
  afterAll(() => bot.close());

  it('adds up the entries logged for a past show, sourced apart from influenced, and only this workspace’s', async () => {
    const id = show.eventId;
    // Initech was met first at this show (sourced); Globex was met first at another (influenced here).
    const [other] = showsForPlan(bot.sim.events, bot.sim.today);
    if (!other) throw new Error('the simulator has no show ahead');
    await say(`outcome ${other.eventId} meeting-booked Globex`, A.member);
    await say(`outcome ${id} meeting-booked Initech`, A.member);
    await say(`outcome ${id} meeting-held Initech`, A.member);
    await say(`outcome ${id} lead A Initech`, A.member);
    await say(`outcome ${id} lead C Globex`, A.member);
    await say(`outcome ${id} opportunity Initech 48,000`, A.member);
    await say(`outcome ${id} opportunity Globex 2,000.50`, A.member);
    await say(`outcome ${id} won Initech 10,000`, A.member);
    await say(`outcome ${id} won Globex 700`, A.member);
    // Deleted: never counts.
    await say(`outcome ${id} won Hooli 5,000`, A.member);
    const hooli = (await bot.store.outcomes.forTeam(A.teamId)).find((e) => e.account === 'Hooli');
    if (!hooli) throw new Error(`nothing logged: ${lastIn(A, A.member.userId)}`);
    await say(`outcome delete ${hooli.id}`, A.member);
    // Another workspace's entries for the same show never count.
    await say(`outcome ${id} opportunity Initech 99,000`, B.member);
    await say(`outcome ${id} meeting-held Initech`, B.member);

    await say(`return ${id}`, A.member);
    const text = lastIn(A, A.member.userId);

    expect(text).toContain(show.name);
    expect(text).toContain('Meetings: 1 booked, 1 held · Leads: 1 A, 0 B, 1 C');
    expect(text).toContain(
      `Opportunities: 2, pipeline ${eur(5_000_050)} (sourced ${eur(4_800_000)}, influenced ${eur(200_050)})`,
    );
    expect(text).toContain(
      `Won: 2, ${eur(1_070_000)} (sourced ${eur(1_000_000)}, influenced ${eur(70_000)})`,
    );
    expect(text).toContain('Accounts met: 2');
    expect(text).not.toContain('99,000');
    expect(text).not.toContain('Hooli');

    // The show's quarter reads the same figures for the show, and its total.
    const quarter = quarterOfShow(show);
    if (!quarter) throw new Error('the show has no quarter');
    await say(`return ${quarter.key}`, A.member);
    const period = lastIn(A, A.member.userId);
    expect(period).toContain(`Return: ${quarter.label}`);
    expect(period).toContain(`*Total, `);
    expect(period).toContain(
      `pipeline ${eur(5_000_050)} (sourced ${eur(4_800_000)}, influenced ${eur(200_050)})`,
    );
    expect(period).not.toContain('99,000');

    // B reads only its own entries.
    await say(`return ${id}`, B.member);
    const theirs = lastIn(B, B.member.userId);
    expect(theirs).toContain(`pipeline ${eur(9_900_000)} (sourced ${eur(9_900_000)}, influenced ${eur(0)})`);
    expect(theirs).toContain('Meetings: 0 booked, 1 held');
  });
});
