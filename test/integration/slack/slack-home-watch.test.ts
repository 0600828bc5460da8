import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeView } from '../../../local/fake-slack/surfaces.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot } from '../../support/bot.ts';

/* The App Home's account watches: the channels the user is in, a few accounts each and their next shows. */

const PRIVATE = 'C0OTHER';
const OTHERS = [
  'Alpha Widgets',
  'Beta Widgets',
  'Gamma Widgets',
  'Delta Widgets',
  'Epsilon Widgets',
  'Zeta Widgets',
];

async function openHome(bot: Bot, userId: string): Promise<FakeView> {
  await bot.slack.openHome(userId);
  await bot.idle();
  const home = bot.slack.home(userId);
  if (!home) throw new Error(`no Home published for ${userId}`);
  return structuredClone(home);
}

const textOf = (view: FakeView) => JSON.stringify(view.view);

describe('the App Home’s account watches', () => {
  let bot: Bot;

  beforeAll(async () => {
    bot = await startBot();
    bot.slack.setChannelMembers(PRIVATE, [ALICE.userId]);
    await bot.command(`watch add ${KNOWN_COMPANY_NAME}, ${OTHERS.join(', ')}`);
    await bot.command('watch add Secret Target Co', { ...ALICE, channelId: PRIVATE });
    await bot.idle();
  });
  afterAll(() => bot.close());

  it('shows a channel’s first accounts with their next show, then how many more and where to see them', async () => {
    // Prepare: the company's soonest upcoming show
    const company = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    const soonest = bot.sim.events
      .filter((e) => company?.eventIds.includes(e.id) && e.dateStart >= bot.sim.today)
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))[0];
    expect(soonest).toBeDefined();

    // Act
    const home = await openHome(bot, BOB.userId);

    // Assess
    const text = textOf(home);
    expect(text).toContain('Account watches');
    expect(text).toContain(`<#${CHANNEL}> watches 7 accounts`);
    expect(text).toContain(`*${KNOWN_COMPANY_NAME}* (target) — next: *${soonest?.name}`);
    expect(text).toContain(`and 2 more — \`/events watch list\` in <#${CHANNEL}>`);
    expect(OTHERS.filter((name) => text.includes(name))).toHaveLength(4);
    expect(home.warnings).toEqual([]);
  });

  it('shows a private channel’s watch to its members only', async () => {
    // Act
    const [alice, bob] = [await openHome(bot, ALICE.userId), await openHome(bot, BOB.userId)];

    // Assess
    expect(textOf(alice)).toContain(`<#${PRIVATE}> watches 1 account`);
    expect(textOf(alice)).toContain('Secret Target Co');
    expect(textOf(bob)).not.toContain(PRIVATE);
    expect(textOf(bob)).not.toContain('Secret Target Co');
  });

  it('leaves out a watch that was turned off', async () => {
    // Prepare
    await bot.command('watch off', { ...ALICE, channelId: PRIVATE });
    await bot.idle();

    // Act
    const alice = await openHome(bot, ALICE.userId);

    // Assess
    expect(textOf(alice)).not.toContain('Secret Target Co');
    expect(textOf(alice)).toContain(`<#${CHANNEL}> watches 7 accounts`);
  });
});
