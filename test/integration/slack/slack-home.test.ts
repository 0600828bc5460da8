import { mayConfirmWords } from '../../../src/slack/kit/confirmation-card.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeView } from '../../../local/fake-slack/surfaces.ts';
import {
  ALICE,
  APPROVER,
  askFor,
  BOB,
  type Bot,
  CHANNEL,
  confirmationIdOf,
  startBot,
  TEAM,
  visibleText,
} from '../../support/bot.ts';

const BIG_EVENT = '26855';

/** `user` opens the Home tab and waits for the worker to publish it. */
async function openHome(bot: Bot, userId: string): Promise<FakeView> {
  await bot.slack.openHome(userId);
  await bot.idle();
  const home = bot.slack.home(userId);
  if (!home) throw new Error(`no Home published for ${userId}`);
  return structuredClone(home);
}

const textOf = (view: FakeView | undefined) => JSON.stringify(view?.view ?? null);
const actionIdsOf = (view: FakeView | undefined) =>
  [...textOf(view).matchAll(/"action_id":"([^"]+)"/g)].map((match) => match[1]);

describe('the App Home', () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  it('shows the balance, today’s spend against the cap and the buttons to search and research', async () => {
    bot = await startBot({ balance: 20_000, dailyCap: 10_000 });

    const home = await openHome(bot, ALICE.userId);

    const text = textOf(home);
    expect(text).toContain('20,000');
    expect(text).toMatch(/10,000 credits left under the daily cap of 10,000/);
    expect(actionIdsOf(home)).toEqual(expect.arrayContaining(['open.search', 'open.research']));
    expect(home.warnings).toEqual([]);
  });

  it('charges exactly once on Confirm from the Home, updates the card and republishes the Home settled', async () => {
    bot = await startBot({ balance: 20_000 });
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    const home = await openHome(bot, ALICE.userId);
    expect(actionIdsOf(home)).toEqual(expect.arrayContaining(['confirm.yes', 'confirm.no']));

    const clicks = await Promise.all([
      bot.slack.clickInView({ user: ALICE.userId, viewId: home.id, actionId: 'confirm.yes' }),
      bot.slack.clickInView({ user: ALICE.userId, viewId: home.id, actionId: 'confirm.yes' }),
    ]);
    await bot.idle();

    expect(clicks.map((click) => click.status)).toEqual([200, 200]);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
    expect(bot.sim.balance(bot.apiKey)).toBe(18_000);
    const updated = bot.find((message) => message.ts === card.ts);
    expect(visibleText(updated)).toContain('18,000');
    expect(visibleText(updated)).not.toContain('confirm.yes');
    // Republished when the charge settled (the losing click's note may be published around it).
    const published = bot.slack.calls
      .filter((call) => call.method === 'views.publish' && call.args.user_id === ALICE.userId)
      .map((call) => JSON.stringify(call.args.view));
    const settled = published.find((view) =>
      /Settled: .*Spent 2,000 credits · Balance now 18,000 credits/.test(view),
    );
    expect(settled).toContain('18,000');
    expect(settled).toMatch(/Event unlock .*2,000 credits\*? · settled/);
    expect(settled).not.toContain('confirm.yes');
    expect(bot.slack.home(ALICE.userId)?.warnings).toEqual([]);
  });

  it('cancels from the Home: nothing is charged, the card says so and the Home no longer offers it', async () => {
    bot = await startBot();
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    const home = await openHome(bot, ALICE.userId);

    await bot.slack.clickInView({ user: ALICE.userId, viewId: home.id, actionId: 'confirm.no' });
    await bot.idle();

    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(visibleText(bot.find((message) => message.ts === card.ts))).toMatch(/cancelled/i);
    const text = textOf(bot.slack.home(ALICE.userId));
    expect(text).toContain('Cancelled; nothing was charged.');
    expect(actionIdsOf(bot.slack.home(ALICE.userId))).not.toContain('confirm.no');
  });

  it('shows a confirmation to its requester and to approvers, not to anyone else', async () => {
    bot = await startBot();
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    const id = confirmationIdOf(card);

    const [alice, approver, bob] = [
      await openHome(bot, ALICE.userId),
      await openHome(bot, APPROVER.userId),
      await openHome(bot, BOB.userId),
    ];

    expect(textOf(alice)).toContain(id);
    expect(textOf(approver)).toContain(id);
    // Who may confirm, as the card in the channel says, before anyone clicks.
    const mayConfirm = JSON.stringify(
      mayConfirmWords({ requestedBy: ALICE.userId, approvers: [APPROVER.userId] }),
    );
    expect(textOf(alice)).toContain(mayConfirm.slice(1, -1));
    expect(textOf(approver)).toContain(mayConfirm.slice(1, -1));
    expect(textOf(bob)).not.toContain(id);
    expect(textOf(bob)).toContain('No confirmations are waiting for you.');
  });

  it('tells the clicker on the Home when the confirmation was already handled', async () => {
    bot = await startBot();
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);
    const home = await openHome(bot, APPROVER.userId);
    await bot.click(card, 'confirm.yes');
    await bot.idle();

    await bot.slack.clickInView({ user: APPROVER.userId, viewId: home.id, actionId: 'confirm.yes' });
    await bot.idle();

    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
    expect(textOf(bot.slack.home(APPROVER.userId))).toMatch(/already confirmed/);
  });

  it('lists the user’s running unlocks with a link to the card’s thread', async () => {
    bot = await startBot();
    const card = await askFor(bot, 'emails 100001 100002');
    await bot.click(card, 'confirm.yes');
    await bot.idle();

    const home = await openHome(bot, ALICE.userId);

    const text = textOf(home);
    expect(text).toMatch(/Emails for \d+ (person|people)/);
    expect(text).toContain(`https://slack.com/archives/${CHANNEL}/p${card.ts.replace('.', '')}`);
    expect(textOf(await openHome(bot, BOB.userId))).toContain('No unlocks are running for you.');
  });

  it('shows the channels’ digests, and Turn off removes one as `/events digest off` would', async () => {
    bot = await startBot();
    await bot.command('digest on 08:30 Europe/Berlin keywords:healthcare');
    await bot.idle();
    const home = await openHome(bot, BOB.userId);
    expect(textOf(home)).toContain('08:30 Europe/Berlin');
    expect(textOf(home)).toMatch(/healthcare/);
    expect(actionIdsOf(home)).toEqual(expect.arrayContaining(['open.digest', 'digest.off']));

    await bot.slack.clickInView({ user: BOB.userId, viewId: home.id, actionId: 'digest.off' });
    await bot.idle();

    expect(await bot.store.digestSubscriptions.get(TEAM, CHANNEL)).toBeNull();
    const after = bot.slack.home(BOB.userId);
    expect(textOf(after)).toContain('is off');
    expect(actionIdsOf(after)).not.toContain('digest.off');
  });

  describe('a private channel’s digest', () => {
    const PRIVATE = 'C0OTHER';
    const inPrivate = { ...ALICE, channelId: PRIVATE };

    /** A digest in the shared channel and one in a private channel only Alice is in. */
    async function twoDigests(): Promise<Bot> {
      const started = await startBot();
      started.slack.setChannelMembers(PRIVATE, [ALICE.userId]);
      await started.command('digest on 08:30 Europe/Berlin keywords:healthcare');
      await started.command('digest on 07:15 UTC keywords:acquisition-target', inPrivate);
      await started.idle();
      return started;
    }

    it('is listed on its members’ Home only', async () => {
      bot = await twoDigests();

      const [alice, bob] = [await openHome(bot, ALICE.userId), await openHome(bot, BOB.userId)];

      expect(textOf(alice)).toContain(`<#${PRIVATE}>`);
      expect(textOf(alice)).toContain('acquisition-target');
      expect(textOf(bob)).toContain(`<#${CHANNEL}>`);
      expect(textOf(bob)).toContain('healthcare');
      expect(textOf(bob)).not.toContain(PRIVATE);
      expect(textOf(bob)).not.toContain('acquisition-target');
    });

    it('stays on when a non-member forges a Turn off click, and the Home says why', async () => {
      bot = await twoDigests();
      const home = await openHome(bot, BOB.userId);

      await bot.slack.clickInView({
        user: BOB.userId,
        viewId: home.id,
        actionId: 'digest.off',
        action: { type: 'button', action_id: 'digest.off', block_id: 'home-digest-0', value: PRIVATE },
      });
      await bot.idle();

      expect((await bot.store.digestSubscriptions.get(TEAM, PRIVATE))?.status).toBe('active');
      const after = textOf(bot.slack.home(BOB.userId));
      expect(after).toContain(`Only members of <#${PRIVATE}>`);
      expect(after).toContain('Nothing was changed.');
      expect(after).not.toContain('acquisition-target');
    });

    it('shows a non-member who forges its Edit click an empty form, not its filters', async () => {
      bot = await twoDigests();
      const home = await openHome(bot, BOB.userId);

      await bot.slack.clickInView({
        user: BOB.userId,
        viewId: home.id,
        actionId: 'open.digest',
        action: { type: 'button', action_id: 'open.digest', block_id: 'home-digest-0', value: PRIVATE },
      });
      await bot.idle();

      const modal = JSON.stringify(bot.slack.modal(BOB.userId)?.view ?? null);
      expect(modal).toContain('modal.digest');
      expect(modal).not.toContain('acquisition-target');
      expect(modal).not.toContain('07:15');
    });

    it('can be turned off by a spend approver who is not in the channel', async () => {
      bot = await twoDigests();
      const home = await openHome(bot, APPROVER.userId);

      await bot.slack.clickInView({
        user: APPROVER.userId,
        viewId: home.id,
        actionId: 'digest.off',
        action: { type: 'button', action_id: 'digest.off', block_id: 'home-digest-0', value: PRIVATE },
      });
      await bot.idle();

      expect(await bot.store.digestSubscriptions.get(TEAM, PRIVATE)).toBeNull();
      expect(textOf(bot.slack.home(APPROVER.userId))).toContain('is off');
    });

    it('is not turned off by `/events digest off` from a non-member', async () => {
      bot = await twoDigests();

      await bot.command('digest off', { ...BOB, channelId: PRIVATE });
      await bot.idle();

      expect((await bot.store.digestSubscriptions.get(TEAM, PRIVATE))?.status).toBe('active');
      expect(visibleText(bot.last(PRIVATE))).toContain('Nothing was changed.');
    });
  });

  it('keeps a long list within Block Kit limits, saying how many more there are', async () => {
    bot = await startBot({ balance: 1_000_000 });
    for (let i = 0; i < 12; i++) {
      await bot.command(`unlock ${BIG_EVENT}`);
    }
    await bot.idle();

    const home = await openHome(bot, ALICE.userId);

    expect(home.warnings).toEqual([]);
    expect((home.view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    expect(actionIdsOf(home).filter((id) => id === 'confirm.yes')).toHaveLength(10);
    expect(textOf(home)).toContain('…and 2 more confirmations');
  });
});
