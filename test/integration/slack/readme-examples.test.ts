import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { type Bot, startBot } from '../../support/bot.ts';

// Every `/events …` example the README's command table and docs/using.md's digest show must work on
// the local data: someone trying them in `npm run dev` should see results, not "no matches". Charging
// examples stop at the confirmation card.

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const USING = readFileSync(new URL('../../../docs/using.md', import.meta.url), 'utf8');

/** The `/events …` commands (without `/events`) in `text`; usages with `[optional]` parts are left out. */
const examplesIn = (text: string) =>
  [...text.matchAll(/`\/events ([^`]+)`/g)]
    .map((match) => match[1] ?? '')
    .filter((example) => !example.includes('['));

/** The part of `doc` from `start` to `end`. */
function between(doc: string, start: string, end: string): string {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end, from);
  if (from === -1 || to === -1) throw new Error(`no "${start}" … "${end}" part`);
  return doc.slice(from, to);
}

// The command that leads each item of the README's "Commands" list (`- \`/events …\` — what you get — …`),
// its wrapped lines joined.
const TABLE_EXAMPLES = between(README, '## Commands', '\n## ')
  .replace(/\n {2}/g, ' ')
  .split('\n')
  .filter((line) => line.startsWith('- `/events'))
  .flatMap((line) => examplesIn(line.split(' — ')[0] ?? ''));
const DIGEST_EXAMPLES = examplesIn(between(USING, '**Daily digest.**', '`handlers/digest.ts`'));

const hasButton = (actionId: string) => (message: SlackMessage) =>
  buttonsOf(message).some(({ button }) => button.action_id === actionId);
/** A list card with at least one row ("no matches" and a locked page are not). */
const listWithRows = (message: SlackMessage) =>
  message.blocks.some((block) => (block as { type?: string }).type === 'header') &&
  !/no matches|beyond the free preview/i.test(message.text);
const confirmationCard = hasButton(ACTION_IDS.confirmYes);

/** What a working answer to each command looks like. */
const ANSWERS: Record<string, (message: SlackMessage) => boolean> = {
  search: listWithRows,
  exhibitors: listWithRows,
  people: listWithRows,
  recommend: listWithRows,
  similar: listWithRows,
  'shows-for': listWithRows,
  'person-events': listWithRows,
  show: hasButton(ACTION_IDS.eventFit),
  fit: (message) => /\d+(\.\d)? \/ 10/.test(message.text),
  credits: (message) => /\d[\d,]* credits? available/.test(message.text),
  // A report, not a list: on a fresh workspace it truly says nothing was spent.
  spend: (message) => /^Credits spent (on|in|this)/.test(message.text),
  // Each show compared with its score.
  compare: (message) => /^Compare: .*\d\.\d\/10.*\d\.\d\/10.*\d\.\d\/10/.test(message.text),
  plan: (message) => /^Added .+ to this channel’s plan/.test(message.text),
  // The entry's card, in the channel.
  outcome: (message) => /^Lead \(B\): Acme Robotics, logged by/.test(message.text),
  // A report: on a fresh workspace it truly has nothing logged.
  return: (message) => /^Return: Q2 2027/.test(message.text),
  who: confirmationCard,
  company: confirmationCard,
  exhibitor: confirmationCard,
  unlock: confirmationCard,
  visitors: confirmationCard,
  'full-access': confirmationCard,
  emails: confirmationCard,
  phones: confirmationCard,
  // Account research: by id the profile with per-event buttons; by name the paid search's card.
  account: (message) => confirmationCard(message) || hasButton(ACTION_IDS.fitPeople)(message),
  contacts: hasButton(ACTION_IDS.peopleEmails),
  linkedin: hasButton(ACTION_IDS.fitPeople),
  brief: hasButton(ACTION_IDS.eventFit),
  // The accounts added, the known company with where it exhibits now.
  watch: (message) => /now watches 3 more accounts/.test(message.text) && /exhibits at/.test(message.text),
};

/** Runs `/events <example>` and returns the messages it produced (an ack the result replaced included). */
async function run(bot: Bot, example: string): Promise<SlackMessage[]> {
  const before = bot.messages().length;
  const ack = await bot.command(example);
  await bot.idle();
  expect(ack.status).toBe(200);
  const produced = bot.messages().slice(before);
  for (const message of produced) {
    expect(message.text, `an error for /events ${example}`).not.toMatch(/^:(x|warning):/);
    expect(message.warnings, `Block Kit problems in the answer to /events ${example}`).toEqual([]);
  }
  return produced;
}

describe('the README and docs/using.md examples, against the local simulator', () => {
  it('finds the examples in the README and docs/using.md', () => {
    expect(TABLE_EXAMPLES.length).toBeGreaterThanOrEqual(19);
    expect(DIGEST_EXAMPLES.map((example) => example.split(' ').slice(0, 2).join(' ')).sort()).toEqual([
      'digest now',
      'digest off',
      'digest on',
      'digest status',
    ]);
  });

  describe('"Commands"', () => {
    // One bot per example: an unlock one example makes must not change what the next one shows.
    it.for(TABLE_EXAMPLES)('/events %s answers with results', async (example, { expect }) => {
      // Prepare
      const bot = await startBot();
      try {
        const [word = '', ...args] = example.split(' ');
        const answered = ANSWERS[word];
        if (!answered) throw new Error(`no expected answer for \`${word}\`: add one to ANSWERS`);
        if (word === 'visitors') {
          // The table says "after the event unlock": done at the service, as a confirmed unlock would.
          const unlocked = await fetch(`${bot.sim.url}/external/events/${args[0] ?? ''}/unlock`, {
            method: 'POST',
            headers: { authorization: `Bearer ${bot.apiKey}` },
          });
          expect(unlocked.ok).toBe(true);
        }

        // Act
        const produced = await run(bot, example);

        // Assess
        const texts = produced.map((message) => message.text).join('\n');
        expect(produced.some(answered), `no answer with results to /events ${example}:\n${texts}`).toBe(true);
        // A paid search must have something to find, or the confirmed charge would buy nothing.
        const name = args.join(' ');
        if (word === 'who') expect(bot.sim.seed.personnel.some((p) => p.fullName === name)).toBe(true);
        if (word === 'company' || word === 'exhibitor') {
          const company = bot.sim.seed.exhibitors.find((exhibitor) => exhibitor.companyName === name);
          expect(company?.eventIds.length).toBeGreaterThan(0);
        }
      } finally {
        await bot.close();
      }
    });
  });

  describe('"Daily digest"', () => {
    let bot: Bot;
    beforeAll(async () => {
      bot = await startBot();
    });
    afterAll(() => bot.close());

    // Subscribed first, so `now` shows the example's filters, and turned off last.
    const order = ['digest on', 'digest now', 'digest status', 'digest off'];
    const inOrder = [...DIGEST_EXAMPLES].sort(
      (a, b) => order.findIndex((o) => a.startsWith(o)) - order.findIndex((o) => b.startsWith(o)),
    );
    const DIGEST_ANSWERS: [string, RegExp][] = [
      ['digest on', /Daily digest on/],
      ['digest now', /Digest for .*, ([1-9]\d*) upcoming events?\b/],
      ['digest status', /Daily digest on/],
      ['digest off', /Daily digest off/],
    ];

    it.for(inOrder)('/events %s answers as docs/using.md says', async (example, { expect }) => {
      // Act
      const produced = await run(bot, example);

      // Assess
      const [, answer] = DIGEST_ANSWERS.find(([prefix]) => example.startsWith(prefix)) ?? [];
      const texts = produced.map((message) => message.text).join('\n');
      expect(answer && produced.some((message) => answer.test(message.text)), texts).toBe(true);
    });
  });
});
