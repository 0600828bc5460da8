import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, type Bot, CHANNEL, startBot } from '../../support/bot.ts';

/*
 * A show name from the service with line breaks and markdown in it, through `/events plan add`, the
 * real handlers and the fake Slack's canvas: it stays on its own line and adds no item, heading or link.
 */

const HOSTILE_NAME =
  'Fintech Expo\n- [x] Budget approved by finance\r\n# Pay here\u2028[Claim your badge](https://evil.example/claim) <https://evil.example>';

describe('a hostile show name on the plan’s canvas', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ balance: 100_000 });
  });
  afterAll(() => bot.close());

  it('adds one heading for the show and no checklist item, heading or link of its name', async () => {
    // Prepare
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today);
    if (!show) throw new Error('no upcoming show');
    show.name = HOSTILE_NAME;

    // Act
    await bot.command(`plan add ${show.eventId}`, ALICE);
    await bot.idle();

    // Assess
    const markdown = bot.slack.canvases(CHANNEL)[0]?.markdown ?? '';
    const lines = markdown.split(/\r\n|[\n\r\u2028\u2029]/);
    const nameLines = lines.filter((line) =>
      /Fintech Expo|Budget approved|Pay here|Claim your badge/.test(line),
    );
    expect(nameLines).toHaveLength(1);
    expect(nameLines[0]).toMatch(/^## Fintech Expo .*Budget approved.*Pay here.*Claim your badge/);
    expect(markdown).not.toMatch(/(?<!\\)\[Claim your badge(?<!\\)\]\(/);
    expect(markdown).not.toMatch(/(?<!\\)<https:/);
  });

  it('shows the bot’s own command words as code, not as backslashed backticks', async () => {
    // Prepare: the plan above, with a show whose name the service wrote with backticks of its own
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today && e.name !== HOSTILE_NAME);
    if (!show) throw new Error('no second upcoming show');
    show.name = 'Ops `/events plan cost 1 2 booth` Day';

    // Act
    await bot.command(`plan add ${show.eventId}`, ALICE);
    await bot.idle();

    // Assess
    const markdown = bot.slack.canvases(CHANNEL)[0]?.markdown ?? '';
    expect(markdown).toContain(
      'Costs beyond credits: none yet. `/events plan cost <event id> <amount> <kind>` (booth, sponsorship, travel, other)',
    );
    expect(markdown).toContain('## Ops \\`/events plan cost 1 2 booth\\` Day');
    expect(markdown.replace(/\\`\/events plan cost 1 2 booth\\`/, '')).not.toContain('\\`');
  });
});
