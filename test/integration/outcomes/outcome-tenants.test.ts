import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { viewSubmissionBody } from '../../../local/fake-slack/surfaces.ts';
import { isPastShow } from '../../../src/domain/past-show.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { FORM_IDS } from '../../../src/slack/views/form-ids.ts';
import { visibleText } from '../../support/bot.ts';
import {
  type InstalledWorkspaces,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * Outcomes are the team's data (issue 43): in a distributed app, one workspace neither sees nor
 * deletes another's entries, and a guest from another organisation in a shared channel logs nothing.
 */

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');
/** A user of B's organisation in A's channel, shared through Slack Connect. */
const OUTSIDER: Actor = {
  teamId: A.teamId,
  userTeamId: B.teamId,
  userId: B.member.userId,
  channelId: A.channel,
};

describe('outcomes, two workspaces and an outside user', () => {
  let bot: InstalledWorkspaces;
  let eventId: string;

  const say = async (text: string, actor: Actor) => {
    await bot.command(text, actor);
    await bot.idle();
  };
  const lastIn = (workspace: TestWorkspace, userId: string) =>
    visibleText(
      bot.slack
        .messages(workspace.channel)
        .filter((m) => m.visibleTo === userId)
        .at(-1) ?? { text: '', blocks: [] },
    );

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B]);
    const [show] = showsForPlan(bot.sim.events, bot.sim.today);
    if (!show) throw new Error('the simulator has no show ahead');
    eventId = show.eventId;
  });
  afterAll(() => bot.close());

  it("keeps each workspace's entries its own: the other can neither read nor delete them", async () => {
    await say(`outcome ${eventId} meeting-held Initech`, A.member);
    const [entry, ...more] = await bot.store.outcomes.forTeam(A.teamId);
    if (!entry) throw new Error(`nothing logged: ${lastIn(A, A.member.userId)}`);

    await say(`outcome delete ${entry.id}`, B.member);

    expect(more).toEqual([]);
    expect(lastIn(B, B.member.userId)).toContain(`There is no outcome entry ${entry.id} in this workspace`);
    expect(await bot.store.outcomes.get(A.teamId, entry.id)).toEqual(entry);
    expect(await bot.store.outcomes.forTeam(B.teamId)).toEqual([]);
    expect(await bot.store.outcomes.get(B.teamId, entry.id)).toBeNull();
  });

  it('refuses a guest from another organisation, logging nothing', async () => {
    const before = await bot.store.outcomes.forTeam(A.teamId);

    await say(`outcome ${eventId} lead A Globex`, OUTSIDER);

    expect(lastIn(A, OUTSIDER.userId)).toContain(
      'Only members of this workspace may use `/events outcome`. You are a guest from another organisation here.',
    );
    expect(await bot.store.outcomes.forTeam(A.teamId)).toEqual(before);
    expect(await bot.store.outcomes.forTeam(B.teamId)).toEqual([]);
  });

  it('refuses a guest from another organisation Outcome… and the Log for a show form, logging nothing', async () => {
    const past = bot.sim.events.find((e) => isPastShow(e, bot.sim.today));
    if (!past) throw new Error('the simulator has no show over');
    await say(`fit ${past.eventId}`, A.member);
    const card = bot.slack
      .messages(A.channel)
      .filter((m) => m.visibleTo === A.member.userId)
      .at(-1);
    if (!card) throw new Error('no fit card');
    const before = await bot.store.outcomes.forTeam(A.teamId);

    await bot.click(card, ACTION_IDS.outcomeOpen, OUTSIDER);
    await bot.idle();

    expect(bot.slack.modal(OUTSIDER.userId)).toBeUndefined();
    expect(lastIn(A, OUTSIDER.userId)).toContain(
      'Only members of this workspace may use this button. You are a guest from another organisation here.',
    );

    // The form a member opened, submitted by the guest.
    await bot.click(card, ACTION_IDS.outcomeOpen, A.member);
    await bot.idle();
    const form = bot.slack.modal(A.member.userId);
    expect(form?.view.callback_id).toBe(FORM_IDS.outcome);
    if (!form) throw new Error('no form');
    const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
    const answer = await bot.post(
      viewSubmissionBody(OUTSIDER, form, {
        show: text(past.eventId),
        kind: { value: { type: 'static_select', selected_option: { value: 'meeting-held' } } },
        account: text('Globex'),
      }),
    );
    await bot.idle();

    expect(answer.body).toContain('Only members of this workspace may use this form.');
    expect(answer.body).toContain('You are a guest from another organisation here.');
    expect(await bot.store.outcomes.forTeam(A.teamId)).toEqual(before);
  });
});
