import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ClientMethod, EIS_OPERATIONS, type OperationKey } from '../../../src/eis/index.ts';
import type { FormInputs } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { COMMAND_SPECS, parseCommand } from '../../../src/slack/commands/index.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, startBot, unlockPoller, visibleText } from '../../support/bot.ts';

/*
 * The Slack half of issue 14's coverage check: every operation of the vendor OpenAPI 0.27.0 is reachable
 * from Slack. Each entry names the command that reaches it (and the button, where a card has one), and
 * is proved by running that command through the real handler and seeing the operation's request arrive
 * at the service simulator. A charge is confirmed on its card first; a task is polled once submitted.
 */

type Json = Record<string, unknown>;
const openapi = JSON.parse(
  readFileSync(new URL('../../../../shared/spec/reference/openapi-0.27.0.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, Json>> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const OPENAPI_OPERATIONS = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((method) => METHODS.includes(method))
    .map((method) => `${method.toUpperCase()} ${path}`),
);

interface EntryPoint {
  /** `/events …` text (without `/events`) that reaches the operation. */
  command: string;
  /** Commands run first, each confirmed if it asks to be (a visitor unlock needs the event unlocked). */
  before?: string[];
  /** The command posts a confirmation card: the operation runs once it is confirmed. */
  confirm?: boolean;
  /** The operation is a task read: the worker polls the task it just submitted. */
  polled?: boolean;
  /** A card button that reaches the same operation (an `ACTION_IDS` value). */
  button?: string;
  /** How the command reaches the operation, when it is not the command's own answer. */
  how?: string;
  /**
   * A follow-up button under the command's results in its thread (an `ACTION_IDS` value, with the
   * button's suffix): the service finishes the command's task, one poll posts the results, and the
   * button is clicked; `form` submits the modal it opens, `confirm` confirms its card, `polled` polls
   * the task it starts.
   */
  followUp?: { button: string; form?: FormInputs; confirm?: boolean; polled?: boolean };
}

/** The Draft outreach modal submitted as preselected. */
const DRAFT_FORM: FormInputs = {
  channels: { value: ['email', 'linkedin_message'] },
  linkedin_types: { value: ['connection_note'] },
};

const ACME_ID = '4100';
const ACME = 'Acme Analytics';
const EVENT = '26855';
const PERSON = '100001';

/** Every client method's entry point in Slack. */
const ENTRY_POINTS: Partial<Record<ClientMethod, EntryPoint>> = {
  'credits.balance': { command: 'credits' },
  'actions.precheck': {
    command: `unlock ${EVENT}`,
    button: ACTION_IDS.fitUnlock,
    how: 'every confirmation card quotes its price from the precheck',
  },
  'events.list': { command: 'search fintech', button: ACTION_IDS.openSearch },
  'events.detail': { command: `show ${EVENT}` },
  'events.brief': { command: `brief ${EVENT}` },
  'events.fitScore': { command: `fit ${EVENT}`, button: ACTION_IDS.eventFit },
  'events.unlock': { command: `unlock ${EVENT}`, confirm: true, button: ACTION_IDS.fitUnlock },
  'events.unlockVisitors': { command: `visitors ${EVENT}`, before: [`unlock ${EVENT}`], confirm: true },
  'events.unlockFullAccess': { command: `full-access ${EVENT}`, confirm: true },
  'exhibitors.list': { command: `exhibitors ${EVENT}`, button: ACTION_IDS.fitExhibitors },
  'exhibitors.searchByContext': { command: 'similar https://acme.example', button: ACTION_IDS.openResearch },
  'exhibitors.searchByCompanyName': {
    command: `account ${ACME}`,
    confirm: true,
    how: 'also `/events exhibitor <name>`',
  },
  'exhibitors.searchEvents': { command: `company ${ACME}`, confirm: true },
  'exhibitors.profile': { command: `account ${ACME_ID}` },
  'exhibitors.events': { command: `account ${ACME_ID}` },
  'personnel.list': { command: `people ${EVENT}`, button: ACTION_IDS.fitPeople },
  'personnel.profile': { command: `person-events ${PERSON}`, how: "the person's name for the title" },
  'personnel.events': { command: `person-events ${PERSON}` },
  'personnel.eventsByLinkedin': { command: 'linkedin https://www.linkedin.com/in/jane-smith-100001' },
  'personnel.eventsByName': { command: 'who Jane Smith', confirm: true },
  'contacts.search': { command: `contacts ${ACME} title:VP` },
  'contacts.unlockEmails': { command: `emails ${PERSON}`, confirm: true, button: ACTION_IDS.peopleEmails },
  'contacts.emailTask': { command: `emails ${PERSON}`, confirm: true, polled: true },
  'recommendations.exhibitors': { command: `recommend ${EVENT}`, button: ACTION_IDS.fitRecommend },
  'contacts.unlockPhones': { command: `phones ${PERSON}`, confirm: true, button: ACTION_IDS.peoplePhones },
  'contacts.phoneTask': { command: `phones ${PERSON}`, confirm: true, polled: true },
  'recommendations.events': { command: 'shows-for https://acme.example' },
  'outreach.generate': {
    command: `emails ${PERSON}`,
    confirm: true,
    button: ACTION_IDS.followUpOutreach,
    followUp: { button: `${ACTION_IDS.followUpOutreach}.all`, form: DRAFT_FORM },
    how: 'Draft outreach for all, under the email results',
  },
  'outreach.detail': {
    command: `emails ${PERSON}`,
    confirm: true,
    button: ACTION_IDS.followUpOutreach,
    followUp: { button: `${ACTION_IDS.followUpOutreach}.all`, form: DRAFT_FORM, polled: true },
    how: 'the poller reads the drafts a Draft outreach button started',
  },
  'personnel.unlockLinkedinActivity': {
    command: `emails ${PERSON}`,
    confirm: true,
    button: ACTION_IDS.followUpLinkedin,
    followUp: { button: `${ACTION_IDS.followUpLinkedin}.all`, confirm: true },
    how: 'LinkedIn activity under the email results, charged on its confirmation card',
  },
  'events.rank': {
    command: 'digest now',
    before: ['digest on 08:30 UTC keywords:fintech'],
    how: 'the digest ranks its candidates with one rank call',
  },
};

/**
 * Operations being wired into Slack by other parts of issue 14 right now, each with the reason and the
 * entry point it is getting. Move an operation into `ENTRY_POINTS` once its entry point has landed.
 */
const NOT_YET_IN_SLACK: Partial<Record<ClientMethod, string>> = {};

/** The operation a recorded request is for: the matching path template with the fewest parameters. */
function operationOfRequest(method: string, path: string): OperationKey | undefined {
  const matches = EIS_OPERATIONS.filter(({ operation }) => {
    const [verb = '', template = ''] = operation.split(' ');
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return verb === method && pattern.test(path);
  }).sort((a, b) => a.operation.split('{').length - b.operation.split('{').length);
  return matches[0]?.operation;
}

async function runCommand(bot: Bot, text: string, confirm: boolean | 'if-asked'): Promise<void> {
  const before = bot.messages().length;
  await bot.command(text);
  await bot.idle();
  if (!confirm) return;
  const card = bot
    .messages()
    .slice(before)
    .find((message) => buttonsOf(message).some(({ button }) => button.action_id === ACTION_IDS.confirmYes));
  if (!card && confirm === 'if-asked') return;
  if (!card) throw new Error(`no confirmation card for /events ${text}`);
  await bot.click(structuredClone(card), ACTION_IDS.confirmYes);
  await bot.idle();
  expect(visibleText(bot.find((message) => message.ts === card.ts))).not.toContain(ACTION_IDS.confirmYes);
}

/** The command's task finishes, its results are posted, and the follow-up button under them is clicked. */
async function runFollowUp(bot: Bot, followUp: NonNullable<EntryPoint['followUp']>): Promise<void> {
  bot.sim.completeTasks();
  await unlockPoller(bot)();
  const hasButton = (message: Parameters<typeof buttonsOf>[0]) =>
    buttonsOf(message).some(({ button }) => button.action_id === followUp.button);
  const results = bot.messages().find(hasButton);
  if (!results) throw new Error(`no ${followUp.button} button under the results`);
  const before = bot.messages().length;
  await bot.click(structuredClone(results), followUp.button);
  if (followUp.form) await bot.slack.submitForm({ user: ALICE.userId, inputs: followUp.form });
  await bot.idle();
  if (followUp.confirm) {
    const card = bot
      .messages()
      .slice(before)
      .find((message) => buttonsOf(message).some(({ button }) => button.action_id === ACTION_IDS.confirmYes));
    if (!card) throw new Error(`no confirmation card after ${followUp.button}`);
    await bot.click(structuredClone(card), ACTION_IDS.confirmYes);
    await bot.idle();
  }
  if (followUp.polled) {
    bot.sim.completeTasks();
    await unlockPoller(bot)();
  }
}

describe('every service operation has a Slack entry point', () => {
  it('lists every OpenAPI operation, each with an entry point or a reason it has none yet', () => {
    const known = EIS_OPERATIONS.map(({ operation }) => operation as string);
    expect([...known].sort()).toEqual([...OPENAPI_OPERATIONS].sort());

    const missing = EIS_OPERATIONS.filter(
      ({ clientMethod }) => !ENTRY_POINTS[clientMethod] && !NOT_YET_IN_SLACK[clientMethod],
    ).map(({ operation, clientMethod }) => `${operation} (${clientMethod})`);
    expect(missing, 'operations with no Slack entry point and no reason').toEqual([]);
    const both = EIS_OPERATIONS.filter(
      ({ clientMethod }) => ENTRY_POINTS[clientMethod] && NOT_YET_IN_SLACK[clientMethod],
    );
    expect(both.map(({ clientMethod }) => clientMethod)).toEqual([]);
  });

  it('names real command words and real buttons', () => {
    const words = new Set(COMMAND_SPECS.map((spec) => spec.word));
    const buttons = new Set<string>(Object.values(ACTION_IDS));
    for (const [method, entry] of Object.entries(ENTRY_POINTS)) {
      for (const text of [...(entry.before ?? []), entry.command]) {
        const parsed = parseCommand(text);
        expect(parsed.ok, `${method}: /events ${text} does not parse`).toBe(true);
        expect(words.has(text.split(' ')[0] as never), `${method}: ${text}`).toBe(true);
      }
      if (entry.button) expect(buttons.has(entry.button), `${method}: button ${entry.button}`).toBe(true);
    }
  });

  it.each(
    EIS_OPERATIONS.filter(({ clientMethod }) => ENTRY_POINTS[clientMethod]).map((op) => [op.operation, op]),
  )('%s is called by its command through the real handler', async (_key, { operation, clientMethod }) => {
    // Prepare: a bot of its own, so one entry's unlock does not make the next one's free
    const entry = ENTRY_POINTS[clientMethod];
    if (!entry) throw new Error(`no entry point for ${clientMethod}`);
    const bot = await startBot(entry.polled ? { earlyPolls: { count: 1, everyMs: 0 } } : {});
    try {
      for (const text of entry.before ?? []) await runCommand(bot, text, 'if-asked');
      const from = bot.sim.requests().length;

      // Act
      await runCommand(bot, entry.command, entry.confirm ?? false);
      if (entry.followUp) await runFollowUp(bot, entry.followUp);

      // Assess
      const called = bot.sim
        .requests()
        .slice(from)
        .map((request) => operationOfRequest(request.method, request.path));
      expect(called, `/events ${entry.command} never called ${operation}`).toContain(operation);
    } finally {
      await bot.close();
    }
  });
});
