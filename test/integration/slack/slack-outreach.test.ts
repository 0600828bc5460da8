import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormInputs, SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import type { SeededPersonnel } from '../../../simulator/server.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, confirmationIdOf, startBot, unlockPoller, visibleText } from '../../support/bot.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';

/** The Draft outreach modal's choices as preselected: an email and a LinkedIn connection note. */
const PRESELECTED: FormInputs = {
  channels: { value: ['email', 'linkedin_message'] },
  linkedin_types: { value: ['connection_note'] },
};

/** Clicks a Draft outreach button, checks its modal opened, and submits `inputs` in it. */
async function draftOutreach(bot: Bot, message: SlackMessage, actionId: string, inputs = PRESELECTED) {
  await bot.click(message, actionId, ALICE);
  const modal = bot.slack.modal(ALICE.userId);
  expect(modal?.view.callback_id).toBe('followup.outreach');
  expect(modal?.warnings).toEqual([]);
  await bot.slack.submitForm({ user: ALICE.userId, inputs });
  expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
  await bot.idle();
}

describe('after an email unlock: outreach drafts and LinkedIn activity in the thread', () => {
  let bot: Bot;
  let poll: () => Promise<unknown>;
  let people: SeededPersonnel[];
  let cardTs: string;

  const repliesIn = (threadTs: string) =>
    bot.messages().filter((m) => m.threadTs === threadTs && !m.visibleTo);
  const draftsReplies = () => repliesIn(cardTs).filter((m) => m.text.startsWith('Outreach drafts'));
  const emailReply = () => {
    const reply = repliesIn(cardTs).find((m) => visibleText(m).includes('unlocked'));
    if (!reply) throw new Error('no email results in the thread');
    return structuredClone(reply);
  };

  beforeAll(async () => {
    bot = await startBot();
    poll = unlockPoller(bot);
    // Two people whose emails are found and who have LinkedIn activity to analyse.
    people = bot.sim.seed.personnel
      .filter((p) => p.linked && p.emailFindable && Number(p.id) % 9 !== 4)
      .slice(0, 2);

    // Emails → Confirm → the results in the card's thread.
    await bot.command(`emails ${people.map((p) => p.id).join(' ')}`);
    await bot.idle();
    const card = bot.last();
    cardTs = card.ts;
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await poll();
  });
  afterAll(() => bot.close());

  it('offers Draft outreach for all and per person, and LinkedIn activity per person, under the emails', () => {
    const reply = emailReply();
    const text = visibleText(reply);
    expect(text).toContain('Draft outreach for all 2');
    for (const person of people) {
      expect(text).toContain(`Draft · ${person.fullName}`);
      expect(text).toContain(`LinkedIn · ${person.fullName}`);
    }
  });

  it('posts the drafts in the thread exactly once, however many poll runs overlap, and charges nothing', async () => {
    // Prepare
    const balance = bot.sim.balance(bot.apiKey);
    const ledger = bot.sim.ledger(bot.apiKey).length;

    // Act: Draft outreach for all; the service finishes; three poll runs, two of them at once.
    await draftOutreach(bot, emailReply(), `${ACTION_IDS.followUpOutreach}.all`);
    const told = bot.messages().filter((m) => m.visibleTo === ALICE.userId);
    expect(visibleText(told[told.length - 1] ?? { text: '', blocks: [] })).toContain(
      'Drafting outreach for 2 people',
    );
    expect(draftsReplies()).toHaveLength(0);
    bot.sim.completeTasks();
    await Promise.all([poll(), poll()]);
    await poll();

    // Assess
    const drafts = draftsReplies();
    expect(drafts).toHaveLength(1);
    const text = visibleText(drafts[0] ?? { text: '', blocks: [] });
    for (const person of people) {
      expect(text).toContain(person.fullName);
      expect(text).toContain(`Hi ${person.fullName.split(' ')[0]}`);
    }
    expect(text).toContain('Email:');
    expect(text).toContain('LinkedIn:');
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(ledger);
  });

  it('drafts only what the modal chose: LinkedIn only, with a purpose, sent to the service and posted once', async () => {
    // Prepare
    const [person] = people;
    if (!person) throw new Error('no person');
    const since = bot.sim.requests().length;
    const before = draftsReplies().length;

    // Act: Draft · person → the modal → LinkedIn message (InMail) only, and a purpose.
    await draftOutreach(bot, emailReply(), `${ACTION_IDS.followUpOutreach}.0`, {
      channels: { value: ['linkedin_message'] },
      linkedin_types: { value: ['inmail'] },
      purpose: { value: 'Book a product demo' },
    });
    bot.sim.completeTasks();
    await Promise.all([poll(), poll()]);
    await poll();

    // Assess: the service was asked for exactly those options, and the drafts came once, LinkedIn only.
    const generations = bot.sim
      .requests()
      .slice(since)
      .filter((r) => r.path === '/external/personnel/generate-outreach-message');
    expect(generations).toHaveLength(1);
    expect(generations[0]?.body).toMatchObject({
      personnel_ids: [person.id],
      channels: ['linkedin_message'],
      linkedin_message_types: ['inmail'],
      outreach_purpose: 'Book a product demo',
    });
    const drafts = draftsReplies().slice(before);
    expect(drafts).toHaveLength(1);
    const text = visibleText(drafts[0] ?? { text: '', blocks: [] });
    expect(text).toContain(person.fullName);
    expect(text).toContain('LinkedIn:');
    expect(text).not.toContain('Email:');
  });

  it('keeps the modal open with an error when LinkedIn is chosen without a kind of message, and asks the service for nothing', async () => {
    // Prepare
    const since = bot.sim.requests().length;
    await bot.click(emailReply(), `${ACTION_IDS.followUpOutreach}.all`, ALICE);

    // Act
    await bot.slack.submitForm({
      user: ALICE.userId,
      inputs: { channels: { value: ['linkedin_message'] }, linkedin_types: { value: [] } },
    });
    await bot.idle();

    // Assess
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('followup.outreach');
    expect(modal?.errors).toEqual({ linkedin_types: 'Choose at least one kind of LinkedIn message.' });
    expect(bot.sim.requests().slice(since)).toEqual([]);
    await bot.slack.closeView({ user: ALICE.userId });
  });

  it('asks to confirm LinkedIn activity (price not published), runs it once on Confirm, and posts the activity in the thread', async () => {
    // Prepare
    const [person] = people;
    if (!person) throw new Error('no person');
    const before = repliesIn(cardTs).length;

    // Act: the person's LinkedIn button posts a confirmation card in the thread.
    await bot.click(emailReply(), `${ACTION_IDS.followUpLinkedin}.0`, ALICE);
    await bot.idle();
    const card = repliesIn(cardTs).find((m) => visibleText(m).includes(CONFIRMATION_WORDS.heading));
    if (!card) throw new Error('no LinkedIn confirmation card in the thread');
    const snapshot = structuredClone(card);
    expect(visibleText(snapshot)).toContain('The service publishes no price for this');
    expect(visibleText(snapshot)).toContain(person.fullName);
    // Its expiry is the confirmation's own deadline, as every charge's card says it.
    const stored = await bot.store.confirmations.get(confirmationIdOf(snapshot));
    const deadline = Math.floor(Date.parse(stored?.deadline ?? '') / 1000);
    expect(visibleText(snapshot)).toContain(`Expires at <!date^${deadline}^`);
    expect(visibleText(snapshot)).not.toContain('Expires in');
    await Promise.all([
      bot.click(snapshot, ACTION_IDS.confirmYes, ALICE),
      bot.click(snapshot, ACTION_IDS.confirmYes, ALICE),
    ]);
    await bot.idle();
    const linkedinCalls = bot.sim
      .requests()
      .filter((r) => r.path === '/external/personnel/unlock-linkedin-activity');
    expect(linkedinCalls).toHaveLength(1);
    expect(visibleText(bot.find((m) => m.ts === snapshot.ts))).toContain(
      'Results will arrive in this thread',
    );
    bot.sim.completeTasks();
    await Promise.all([poll(), poll()]);

    // Assess
    const activity = repliesIn(cardTs).filter((m) => m.text.startsWith('LinkedIn activity'));
    expect(activity).toHaveLength(1);
    expect(visibleText(activity[0] ?? { text: '', blocks: [] })).toContain(person.fullName);
    expect(visibleText(activity[0] ?? { text: '', blocks: [] })).toMatch(/activity/);
    expect(repliesIn(cardTs).length).toBe(before + 2);
    if (process.env.SHOW_THREAD) console.log(JSON.stringify(repliesIn(cardTs), null, 1));
  });

  it('keeps every message in the thread within Block Kit limits', () => {
    expect(repliesIn(cardTs).flatMap((m) => m.warnings ?? [])).toEqual([]);
  });

  it('charges nothing for LinkedIn activity that is cancelled', async () => {
    const second = people[1];
    if (!second) throw new Error('no person');
    await bot.click(emailReply(), `${ACTION_IDS.followUpLinkedin}.1`, ALICE);
    await bot.idle();
    const cards = repliesIn(cardTs).filter((m) => visibleText(m).includes('confirm.no'));
    const card = cards[cards.length - 1];
    if (!card) throw new Error('no card');
    await bot.click(card, ACTION_IDS.confirmNo, ALICE);
    await bot.idle();
    const calls = bot.sim.requests().filter((r) => r.path === '/external/personnel/unlock-linkedin-activity');
    expect(calls).toHaveLength(1);
    expect(visibleText(bot.find((m) => m.ts === card.ts))).toContain('Cancelled');
  });
});

describe('from an event’s people list: Emails → Confirm → thread → Draft outreach', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  const told = () => bot.messages().filter((m) => m.visibleTo === ALICE.userId);

  it('drafts for everyone whose email was found, for that event, skipping no one, and posts them once', async () => {
    // Prepare: the people list (private), its Emails button, the card, Confirm, the results.
    const poll = unlockPoller(bot);
    await bot.command('people 26855');
    await bot.idle();
    const list = structuredClone(bot.find((m) => visibleText(m).includes(ACTION_IDS.peopleEmails)));
    await bot.click(list, ACTION_IDS.peopleEmails, ALICE);
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(visibleText(card)).toContain(CONFIRMATION_WORDS.heading);
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await poll();
    const thread = () => bot.messages().filter((m) => m.threadTs === card.ts && !m.visibleTo);
    const results = structuredClone(thread().find((m) => visibleText(m).includes('Draft outreach')));
    if (!results) throw new Error('no Draft outreach button under the email results');
    const found = Number(/Draft outreach for all (\d+)/.exec(visibleText(results))?.[1]);
    // Some of them the service links to no event of their own: only the list's event can be theirs.
    const event = bot.sim.seed.events.find((e) => e.eventId === '26855');
    const onList = bot.sim.seed.personnel.filter((p) => p.eventId === event?.id);
    expect(onList.some((p) => p.attendance.length === 0)).toBe(true);
    const since = bot.sim.requests().length;

    // Act
    await draftOutreach(bot, results, `${ACTION_IDS.followUpOutreach}.all`);
    bot.sim.completeTasks();
    await Promise.all([poll(), poll(), poll()]);
    await poll();

    // Assess: every one drafted for the list's event (its internal id), nobody skipped.
    const generations = bot.sim
      .requests()
      .slice(since)
      .filter((r) => r.path === '/external/personnel/generate-outreach-message');
    expect(generations.map((r) => (r.body as { event_id?: string }).event_id)).toEqual([event?.id]);
    const notice = visibleText(told().at(-1) ?? { text: '', blocks: [] });
    expect(notice).toContain(`Drafting outreach for ${found} people…`);
    expect(notice).not.toContain('skipped');
    const drafts = thread().filter((m) => m.text.startsWith('Outreach drafts'));
    expect(drafts).toHaveLength(1);
    const text = visibleText(drafts[0] ?? { text: '', blocks: [] });
    expect(text).toContain(`Outreach drafts* for ${found} of ${found}`);
    expect(text).toContain('Email:');
    expect(text).not.toContain('Skipped');
  });

  it('names who is skipped and why, and what to do, when a person has no event and came from no list', async () => {
    // Prepare: a person the service links to no event, unlocked by id (no list, so no event rides along).
    const poll = unlockPoller(bot);
    const person = bot.sim.seed.personnel.find(
      (p) => p.attendance.length === 0 && p.linked && p.emailFindable && p.eventId !== '8450',
    );
    if (!person) throw new Error('no person without an event');
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    const card = structuredClone(bot.last());
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await poll();
    const results = structuredClone(
      bot.messages().find((m) => m.threadTs === card.ts && visibleText(m).includes('Draft outreach')),
    );
    if (!results) throw new Error('no Draft outreach button under the email result');

    // Act
    await draftOutreach(bot, results, `${ACTION_IDS.followUpOutreach}.all`);

    // Assess
    const notice = visibleText(told().at(-1) ?? { text: '', blocks: [] });
    expect(notice).toContain('No drafts could be started for these people.');
    expect(notice).toContain(`Skipped *${person.fullName}* (\`${person.id}\`)`);
    expect(notice).toContain('the service links them to no event');
    expect(notice).toContain('`/events people <event id>`');
  });
});

describe('drafts that are ready within seconds', () => {
  let bot: Bot;
  beforeAll(async () => {
    // The simulator finishes work 3 s after it starts; four polls a second apart cover it.
    bot = await startBot({ earlyPolls: { count: 4, everyMs: 1_000 } });
  });
  afterAll(() => bot.close());

  it('are posted by the worker’s first polls, without waiting for the scheduled poller', async () => {
    // Prepare
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!person) throw new Error('no person with a findable email');
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    const card = structuredClone(bot.last());
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    const thread = () => bot.messages().filter((m) => m.threadTs === card.ts && !m.visibleTo);
    const results = structuredClone(thread().find((m) => visibleText(m).includes('Draft outreach')));
    if (!results) throw new Error('no Draft outreach button under the email result');

    // Act
    await draftOutreach(bot, results, `${ACTION_IDS.followUpOutreach}.all`);

    // Assess
    const drafts = thread().filter((m) => m.text.startsWith('Outreach drafts'));
    expect(drafts).toHaveLength(1);
    expect(visibleText(drafts[0] ?? { text: '', blocks: [] })).toContain(person.fullName);
  });
});

describe('LinkedIn activity under a daily credit cap', () => {
  let bot: Bot;
  let person: SeededPersonnel;
  beforeAll(async () => {
    // The email unlock spends 15 of the 100: 85 are left, less than the 150 LinkedIn activity may cost.
    bot = await startBot({ dailyCap: 100 });
    const found = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!found) throw new Error('no person with a findable email');
    person = found;
  });
  afterAll(() => bot.close());

  it('is refused on Confirm with the cap’s message, and nothing is charged or asked of the service', async () => {
    // Prepare: the email results and their LinkedIn button.
    const poll = unlockPoller(bot);
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    const unlock = structuredClone(bot.last());
    await bot.click(unlock, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await poll();
    const thread = () => bot.messages().filter((m) => m.threadTs === unlock.ts && !m.visibleTo);
    const results = structuredClone(thread().find((m) => visibleText(m).includes('LinkedIn activity')));
    if (!results) throw new Error('no LinkedIn activity button under the email result');
    await bot.click(results, `${ACTION_IDS.followUpLinkedin}.all`, ALICE);
    await bot.idle();
    const card = structuredClone(thread().find((m) => visibleText(m).includes(CONFIRMATION_WORDS.heading)));
    if (!card) throw new Error('no LinkedIn confirmation card');
    expect(visibleText(card)).toContain('The service publishes no price for this');
    const balance = bot.sim.balance(bot.apiKey);
    const ledger = bot.sim.ledger(bot.apiKey).length;

    // Act
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();

    // Assess
    const shown = visibleText(bot.find((m) => m.ts === card.ts));
    expect(shown).toContain('The daily credit cap (100) would be passed: 85 credits are left today');
    expect(shown).toContain('Nothing was charged');
    expect(shown).not.toContain('confirm.yes');
    const calls = bot.sim.requests().filter((r) => r.path === '/external/personnel/unlock-linkedin-activity');
    expect(calls).toEqual([]);
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(ledger);
  });
});
