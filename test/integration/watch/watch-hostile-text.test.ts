import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';
import { liveTokensIn, renderedTexts } from '../../support/live-tokens.ts';

/*
 * Watch labels pasted by a member, and a company's and a show's name and a city from the service, all
 * hostile, through the real `/events watch` import form, a check and its alert, then the watch list
 * and its export, a compare of the company's shows and the plan with its canvas: nothing the fake
 * Slack received pings anyone or links anywhere, in blocks, notification texts, ephemeral answers, the
 * canvas, or a file's title and comment (a file's content is data kept as it was, behind the formula
 * guard).
 */

const HOSTILE_SHOW = '<!here> Fintech Expo <https://evil.example/claim|Claim your badge>';
const HOSTILE_CITY = '<!everyone> Berlin <#C0EVIL>';
/** The company's name as the service gives it: shown for the account once resolved by its domain. */
const HOSTILE_COMPANY = `<!channel> ${KNOWN_COMPANY_NAME} <https://evil.example/jobs|Jobs>`;
/** A name the service does not know: listed and exported as not found. */
const HOSTILE_UNKNOWN = '<@U0EVIL> <!subteam^S0EVIL> Widgets <https://evil.example/pay|Pay>';

const alertsIn = (bot: Bot) =>
  bot.messages(CHANNEL).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));

/** Canvas markdown as Slack reads it: a character after a backslash is shown as typed, never markup. */
const unescapedMarkdown = (markdown: string) => markdown.replace(/\\[\s\S]/g, ' ');

/** Every text a Web API or response_url call carried that Slack would show or parse. */
function sentTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(sentTexts);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (typeof value !== 'string') return sentTexts(value);
    if (key === 'markdown') return [unescapedMarkdown(value)];
    return ['text', 'title', 'initial_comment'].includes(key) ? [value] : [];
  });
}

describe('hostile text through the watch, compare and plan', () => {
  let bot: Bot;
  let showId = '';
  let otherShowId = '';
  const acks: string[] = [];
  const run = async (text: string) => {
    acks.push((await bot.command(text, ALICE)).body);
    await bot.idle();
  };

  beforeAll(async () => {
    bot = await startBot({ balance: 100_000 });
    const company = bot.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!company) throw new Error('the seed has no known company');
    company.companyName = HOSTILE_COMPANY;
    // An account added by a domain a member wrote `<!channel>` in front of, and an unknown hostile name
    // (`watch add` refuses markup; the import form reads its boxes as typed)
    await run('watch import');
    const value = `<!channel>@${company.domain}\n${HOSTILE_UNKNOWN}`;
    await bot.slack.submitView({
      user: ALICE.userId,
      values: { 'accounts-1': { value: { type: 'plain_text_input', value } } },
    });
    await bot.idle();
    const show = bot.sim.events.find((e) => e.dateStart > bot.sim.today && !company.eventIds.includes(e.id));
    const other = bot.sim.events.find((e) => e.dateStart > bot.sim.today && company.eventIds.includes(e.id));
    if (!show || !other) throw new Error('no upcoming show left');
    show.name = HOSTILE_SHOW;
    show.city = HOSTILE_CITY;
    showId = show.eventId;
    otherShowId = other.eventId;
    bot.sim.changeData({ kind: 'appear', exhibitor: company.id, event: show.id });
    await run('watch check');
  });
  afterAll(() => bot.close());

  it('posts an alert whose notification text and blocks ping no one and link nowhere', () => {
    // Act
    const [alert] = alertsIn(bot) as [SlackMessage];

    // Assess
    expect(alert.text).toContain('Fintech Expo');
    expect(alert.text).toContain(`&lt;!channel&gt; ${KNOWN_COMPANY_NAME}`);
    expect(liveTokensIn(alert.text)).toEqual([]);
    expect(renderedTexts(alert.blocks).flatMap(liveTokensIn)).toEqual([]);
  });

  it('lists, exports, compares and plans the hostile show and labels without a ping or a link', async () => {
    // Act
    await run('watch list');
    const list = visibleText(bot.last());
    await run('watch export');
    await run(`compare ${showId} ${otherShowId}`);
    const compare = visibleText(bot.last());
    await run(`plan add ${showId}`);
    await run('plan');
    const plan = visibleText(bot.last());

    // Assess: each surface shows the hostile data, escaped
    expect(list).toContain(`&lt;!channel&gt; ${KNOWN_COMPANY_NAME}`);
    expect(list).toContain('Widgets');
    const [file] = bot.messages(appDmOf(ALICE.userId)).flatMap((m) => m.files ?? []);
    expect(file?.content).toContain('<@U0EVIL> <!subteam^S0EVIL> Widgets');
    expect(file?.content).toContain('<!channel>@');
    expect(compare).toContain(`&lt;!channel&gt; ${KNOWN_COMPANY_NAME}`);
    expect(compare).toContain('Fintech Expo');
    expect(plan).toContain('Fintech Expo');
    const [canvas] = bot.slack.canvases(CHANNEL);
    expect(canvas?.markdown).toContain('Fintech Expo');

    // Assess: nothing the fake Slack received pings anyone or links anywhere the bot did not mean to
    const texts = [
      ...bot.slack.calls.flatMap((call) => sentTexts(call.args)),
      ...bot.slack.messages().flatMap((m) => [m.text, ...renderedTexts(m.blocks)]),
      ...bot.slack.canvases().flatMap((c) => [c.title, unescapedMarkdown(c.markdown)]),
      ...acks,
    ];
    expect(texts.join('\n')).toContain('Claim your badge');
    const botMentions = [`<#${CHANNEL}>`, `<@${ALICE.userId}>`];
    expect(texts.flatMap(liveTokensIn).filter((token) => !botMentions.includes(token))).toEqual([]);
  });
});
