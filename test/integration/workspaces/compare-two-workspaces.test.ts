import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { visibleText } from '../../support/bot.ts';
import {
  type DistributedBot,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

/*
 * Compare in a distributed app: each workspace's card is read with its own service key and its own
 * channel's watched accounts, so one workspace's unlock or watch list never shows in another's card.
 */

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');

describe('compare, two workspaces side by side', () => {
  let bot: DistributedBot;
  let shows: string[];

  const answerTo = async (workspace: TestWorkspace, text: string) => {
    await bot.command(text, workspace.member);
    await bot.idle();
    const answer = bot.slack.messages(workspace.channel).at(-1);
    if (!answer) throw new Error(`no answer to ${text} in ${workspace.teamId}`);
    return answer;
  };

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
    const company = bot.sim.seed.exhibitors.find((exhibitor) => exhibitor.companyName === KNOWN_COMPANY_NAME);
    const at = bot.sim.events.find(
      (event) => company?.eventIds.includes(event.id) && event.personnelCount > 0,
    );
    const other = bot.sim.events.find((event) => event.id !== at?.id);
    if (!at || !other) throw new Error('no shows to compare');
    shows = [at.eventId, other.eventId];
  });
  afterAll(() => bot.close());

  it("shows one workspace's unlock and watched accounts in its own card only", async () => {
    // Prepare: A unlocks the first show and watches a company exhibiting there
    const card = await answerTo(A, `unlock ${shows[0] ?? ''}`);
    await bot.click(card, 'confirm.yes', A.member);
    await bot.idle();
    await answerTo(A, `watch add ${KNOWN_COMPANY_NAME}`);

    // Act
    const forA = visibleText(await answerTo(A, `compare ${shows.join(' ')}`));
    const forB = visibleText(await answerTo(B, `compare ${shows.join(' ')}`));

    // Assess
    expect(forA).toContain('Unlocked');
    expect(forA).toContain(KNOWN_COMPANY_NAME);
    expect(forB).not.toContain('Unlocked');
    expect(forB).toContain('2,000 credits');
    expect(forB).not.toContain(KNOWN_COMPANY_NAME);
    expect(forB).toContain('This channel watches no accounts yet');
  });
});
