import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateValues, withInitialValues } from '../../../local/fake-slack/view-state.ts';
import { SINGLE_WORKSPACE_ID } from '../../../src/roots/workspace-policy.ts';
import { ALICE, APPROVER, askFor, type Bot, startBot, TEAM, visibleText } from '../../support/bot.ts';

const DANA = 'U0DANA';
const OWEN = 'U0OWEN';
const OPEN_SETTINGS = 'open.workspace';
/** An admin and owner of a partner organisation, in a shared channel (Slack Connect). */
const PARTNER = 'U0PARTNER';

/**
 * The default deployment (one workspace, its key and rules in the environment) has workspace settings
 * too (issue 36): its admins open them from the Home; what the environment sets (here the approvers,
 * the daily cap and the key) is shown read-only with the variable that sets it, and the rest is saved
 * and applied. The real handlers, DynamoDB Local, the simulator and the fake Slack; steps in order.
 */
describe('the settings of a single-workspace app', () => {
  let bot: Bot;

  const openSettings = async (user: string) => {
    await bot.slack.openHome(user);
    await bot.idle();
    const home = bot.slack.home(user);
    if (!home) throw new Error(`${user} has no Home`);
    await bot.slack.clickInView({ user, viewId: home.id, actionId: OPEN_SETTINGS });
    return bot.slack.modal(user);
  };
  const policy = () => bot.store.workspaces.getPolicy(SINGLE_WORKSPACE_ID);

  beforeAll(async () => {
    bot = await startBot({
      dailyCap: 5_000,
      users: {
        [DANA]: { name: 'Dana', tz: 'UTC', teamId: TEAM, isAdmin: true },
        [OWEN]: { name: 'Owen', tz: 'UTC', teamId: TEAM, isOwner: true },
        [ALICE.userId]: { name: 'Alice', tz: 'UTC', teamId: TEAM },
        [APPROVER.userId]: { name: 'Boss', tz: 'UTC', teamId: TEAM },
        [PARTNER]: { name: 'Partner', tz: 'UTC', teamId: 'T0PARTNER', isAdmin: true, isOwner: true },
      },
    });
  });
  afterAll(() => bot?.close());

  it('shows an admin what the environment sets, read-only and where it is set, and never the key', async () => {
    const modal = await openSettings(DANA);
    const shown = JSON.stringify(modal?.view.blocks);

    expect(shown).toContain(
      `*Approvers:* <@${APPROVER.userId}>, set by \`SPEND_APPROVERS\` in the environment.`,
    );
    expect(shown).toContain(
      '*Daily credit cap:* 5,000 credits a day (UTC), set by `DAILY_CREDIT_CAP` in the environment.',
    );
    expect(shown).toContain('set by `EIS_API_KEY` in the environment (never shown)');
    const field = (id: string) => `"block_id":"${id}"`;
    expect(shown).not.toContain(field('approvers'));
    expect(shown).not.toContain(field('daily_cap'));
    expect(shown).not.toContain(field('service_key'));
    expect(shown).toContain(field('approval_threshold'));
    expect(shown).not.toContain(bot.apiKey);
    expect(modal?.warnings).toEqual([]);
  });

  it('saves what the environment leaves to the admin, and the bot applies it', async () => {
    const before = await askFor(bot, 'emails 100001 100002 100006');

    await bot.slack.submitForm({ user: DANA, inputs: { approval_threshold: { value: '1' } } });
    await bot.idle();
    const after = await askFor(bot, 'emails 100001 100002 100006');

    expect(bot.slack.modal(DANA)).toBeUndefined();
    expect(await policy()).toMatchObject({ approvalThreshold: 1, updatedBy: DANA });
    expect(visibleText(before)).toContain(`<@${ALICE.userId}> or an approver`);
    expect(visibleText(after)).toContain(`Needs an approver: <@${APPROVER.userId}>`);
    expect(JSON.stringify(bot.slack.home(DANA)?.view.blocks)).toContain('Workspace settings');
  });

  it('sets up a digest with no time at the default time the admin saved', async () => {
    await openSettings(DANA);
    await bot.slack.submitForm({
      user: DANA,
      inputs: { approval_threshold: { value: '1' }, digest_time: { value: '07:30' } },
    });
    await bot.idle();

    await bot.command('digest on keywords:expo');
    await bot.idle();

    expect(await policy()).toMatchObject({ approvalThreshold: 1, digestDefaults: { time: '07:30' } });
    expect(await bot.store.digestSubscriptions.get(TEAM, ALICE.channelId)).toMatchObject({ time: '07:30' });
  });

  it('refuses a submission that would change what the environment sets, and saves none of it', async () => {
    const shown = await openSettings(DANA);
    if (!shown) throw new Error('no settings modal for the admin');
    const stored = await policy();
    const values = {
      ...stateValues(shown.view, withInitialValues(shown.view, { approval_threshold: { value: '7' } })),
      approvers: { value: { type: 'multi_users_select', selected_users: [DANA] } },
      daily_cap: { value: { type: 'number_input', value: '999999999' } },
      service_key: { value: { type: 'plain_text_input', value: 'sk_forged_key_1234567890' } },
    };

    await bot.slack.submitView({ user: DANA, values });
    await bot.idle();

    expect(JSON.stringify(bot.slack.modal(DANA)?.view.blocks)).toContain(
      '`EIS_API_KEY`, `SPEND_APPROVERS`, `DAILY_CREDIT_CAP` are set in the environment, not here: nothing was saved.',
    );
    expect(await policy()).toEqual(stored);
    await bot.slack.closeView({ user: DANA });
  });

  it('tells the second of two admins who saved at once, on the modal’s first field, and stores the first', async () => {
    await openSettings(DANA);
    await openSettings(OWEN);

    await bot.slack.submitForm({ user: DANA, inputs: { approval_threshold: { value: '3' } } });
    await bot.idle();
    await bot.slack.submitForm({ user: OWEN, inputs: { approval_threshold: { value: '4' } } });
    await bot.idle();

    expect(bot.slack.modal(OWEN)?.errors?.approval_threshold).toMatch(/Someone else saved these settings/);
    expect(await policy()).toMatchObject({ approvalThreshold: 3, updatedBy: DANA });
    await bot.slack.closeView({ user: OWEN });
  });

  it('names the admin to a member refused the settings, and no partner organisation’s admin', async () => {
    const refused = JSON.stringify((await openSettings(ALICE.userId))?.view.blocks);
    await bot.slack.closeView({ user: ALICE.userId });

    expect(refused).not.toContain('approval_threshold');
    expect(refused).toContain(`Ask <@${OWEN}> (owner) or <@${DANA}> (admin) to change what you need.`);
    expect(refused).not.toContain(PARTNER);
  });
});
