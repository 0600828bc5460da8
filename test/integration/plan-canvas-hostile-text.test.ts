import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, type Bot, CHANNEL, startBot } from '../support/bot.ts';

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
});
