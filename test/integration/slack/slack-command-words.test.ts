import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { COMMAND_SPECS, type CommandSpec, parseCommand } from '../../../src/slack/commands/index.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';

/** Paid commands answer with a card to confirm; the rest answer with their result. */
const charging = COMMAND_SPECS.filter((spec) => spec.credits);
// `visitors` needs the event unlocked first: it gets its own bot below, so no other example depends on it.
const free = COMMAND_SPECS.filter((spec) => !spec.credits && spec.word !== 'help');
const paidNow = charging.filter((spec) => spec.word !== 'visitors');

describe('/events words, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs `/events <text>` and returns the immediate answer and what was posted after it. */
  async function run(text: string, target: Bot = bot) {
    const before = target.messages().length;
    const requests = target.sim.requests().length;
    const ack = await target.command(text);
    await target.idle();
    expect(ack.status).toBe(200);
    const posted = target.messages().slice(before);
    // The answer, not the "working…" line the ack shows while it is prepared.
    const answers = posted.filter((message) => !message.text.startsWith(':hourglass'));
    return {
      ack: JSON.stringify(ack.json),
      posted,
      last: answers[answers.length - 1],
      serviceCalls: target.sim.requests().slice(requests),
    };
  }

  /** A bad word is answered at once, only to the user, without calling the service or posting. */
  async function refused(text: string) {
    const answer = await run(text);
    expect(answer.ack).toContain('ephemeral');
    expect(answer.ack).not.toContain('Working on');
    expect(answer.posted.every((message) => message.visibleTo === ALICE.userId)).toBe(true);
    expect(answer.serviceCalls).toEqual([]);
    return answer.ack;
  }

  describe('every documented example works against the simulator data', () => {
    it('help', async () => {
      const { ack } = await run('help');

      expect(ack).toContain('eventbot commands');
    });

    it.each(free.map((spec) => [spec.example, spec] as const))('%s gives results', async (example, spec) => {
      const { ack, last } = await run(example);

      expect(ack).toContain('Working on');
      expect(last, `no answer to ${example}`).toBeDefined();
      if (!last) return;
      const text = visibleText(last);
      expect(last.warnings).toEqual([]);
      expect(text).not.toContain(':x:');
      expect(text).not.toMatch(/\b0 matches|no matches/i);
      expect(last.blocks.length).toBeGreaterThan(0);
      if (spec.word === 'digest') expect(text).toContain('Daily digest on');
    });

    it.each(paidNow.map((spec) => [spec.example] as const))(
      '%s asks for a confirmation and charges nothing',
      async (example) => {
        const { last } = await run(example);

        expect(last, `no card for ${example}`).toBeDefined();
        if (!last) return;
        expect(visibleText(last)).toContain(CONFIRMATION_WORDS.heading);
        expect(buttonsOf(last).map(({ button }) => button.action_id)).toContain('confirm.yes');
        expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
      },
    );

    it('visitors asks for a confirmation once its event is unlocked', async () => {
      // Prepare: the documented order, the event unlock first (confirmed), on a bot of its own.
      const spec = COMMAND_SPECS.find((candidate) => candidate.word === 'visitors');
      if (!spec) throw new Error('no visitors command');
      const parsed = parseCommand(spec.example);
      if (!parsed.ok || !('eventId' in parsed.command)) throw new Error('visitors example has no event id');
      const own = await startBot();
      try {
        const unlock = await run(`unlock ${parsed.command.eventId}`, own);
        if (!unlock.last) throw new Error('no unlock card');
        await own.click(structuredClone(unlock.last), 'confirm.yes');
        await own.idle();

        // Act
        const { last } = await run(spec.example, own);

        // Assess
        expect(last && visibleText(last)).toContain(CONFIRMATION_WORDS.heading);
        expect(own.sim.ledger(own.apiKey)).toHaveLength(1);
      } finally {
        await own.close();
      }
    });

    it('covers every command word', () => {
      const covered = ['help', ...free.map((s) => s.word), ...paidNow.map((s) => s.word), 'visitors'];

      expect(covered.sort()).toEqual(COMMAND_SPECS.map((spec: CommandSpec) => spec.word).sort());
    });
  });

  describe('bad input gets what was wrong and the next step', () => {
    it.each(['abc', '-1', 'help'])('fit %s names the value and shows the usage', async (id) => {
      const ack = await refused(`fit ${id}`);

      expect(ack).toContain(`\`${id}\` is not an event id`);
      expect(ack).toContain('/events fit &lt;event_id&gt;');
      expect(ack).toContain('/events fit 26855');
    });

    it('suggests the command a typo was near, with a short help', async () => {
      const ack = await refused('fitt 26855');

      expect(ack).toContain('Did you mean `/events fit 26855`?');
      expect(ack).toContain('/events help &lt;command&gt;');
      // not the whole list of usages
      expect(ack).not.toContain('/events full-access');
    });

    it('says a suggested command spends credits, and never offers a paid name search for ids', async () => {
      const typo = await refused('compny Acme Analytics');
      const ids = await refused('compnay 27317 27053 27251');

      expect(typo).toContain(
        'Did you mean `/events company Acme Analytics`? That one spends credits: *50 if anything matches, per page*',
      );
      expect(ids).toContain('`compnay` is not an /events command.');
      expect(ids).not.toContain('Did you mean');
    });

    it('help <command> explains only that command', async () => {
      const ack = await refused('help digest');

      expect(ack).toContain('/events digest on');
      expect(ack).toContain('A daily digest in this channel');
      expect(ack).not.toContain('/events fit');
    });

    it('refuses an unknown filter key, listing the known ones', async () => {
      const ack = await refused('search fintech contry:Germany');

      expect(ack).toContain('Did you mean `country:`?');
      expect(ack).toContain('`city:`');
    });

    it('never offers a paid search for a mention or @channel', async () => {
      for (const text of ['who <!channel>', 'company <@U0BOB>', 'exhibitor <!subteam^S1|@sales>']) {
        const ack = await refused(text);
        expect(ack).toContain('Mentions');
      }
      expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    });

    it('refuses a zone it does not know, with a suggestion, and changes no subscription', async () => {
      const before = await bot.store.digestSubscriptions.get(TEAM, CHANNEL);

      const ack = await refused('digest on 08:30 EST5');

      expect(ack).toContain('Did you mean `EST`?');
      expect(await bot.store.digestSubscriptions.get(TEAM, CHANNEL)).toEqual(before);
    });
  });

  describe('words reach the service as the user meant them', () => {
    it('drops Slack formatting from search words and runs a value to the next key', async () => {
      const { serviceCalls, last } = await run('search *fintech* country:_Brazil_');

      const list = serviceCalls.find((call) => call.path === '/external/events/list');
      expect(list?.query).toMatchObject({ keyword: 'fintech', country: 'Brazil' });
      const expected = bot.sim.events.find((e) => e.country === 'Brazil' && /fintech/i.test(e.name));
      expect(last && visibleText(last)).toContain(expected?.eventId ?? 'missing');
    });

    it('reads a digest time and abbreviation, saving the zone they mean', async () => {
      const { last } = await run('digest on 8:30pm EST keywords:fintech country:United States');

      expect(last?.visibleTo).toBe(ALICE.userId);
      expect(await bot.store.digestSubscriptions.get(TEAM, CHANNEL)).toMatchObject({
        time: '20:30',
        timeZone: 'America/New_York',
        filters: { keywords: 'fintech', country: 'United States' },
      });
    });
  });
});
