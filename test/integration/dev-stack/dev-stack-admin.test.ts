import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_SECOND_TEAM, DEV_USERS, type DevStack, startDevStack } from '../../../local/dev-stack.ts';

const OPEN_SETTINGS = 'open.workspace';

/** The Workspace settings as a user of the local page reaches them: Home, then its button. */
async function openSettings(stack: DevStack, user: string, teamId?: string) {
  await stack.slack.openHome(user, teamId);
  await stack.idle();
  const home = stack.slack.home(user);
  if (!home) throw new Error(`${user} has no Home`);
  await stack.slack.clickInView({ user, viewId: home.id, actionId: OPEN_SETTINGS });
  await stack.idle();
  return JSON.stringify(stack.slack.modal(user)?.view.blocks ?? []);
}

/** `npm run dev` has an admin to switch to, in both modes (issue 36): Dana opens and saves the settings. */
describe.each([
  { mode: 'one workspace (the default)', twoWorkspaces: false },
  { mode: 'two workspaces (DEV_WORKSPACES=2)', twoWorkspaces: true },
])('the local page’s admin, with $mode', ({ twoWorkspaces }) => {
  let stack: DevStack;

  beforeAll(async () => {
    stack = await startDevStack({ dynamoEndpoint: inject('dynamoEndpoint'), twoWorkspaces });
  });
  afterAll(() => stack.stop());

  it('lets Dana, the admin, open the Workspace settings from the Home and save them', async () => {
    const shown = await openSettings(stack, DEV_USERS.dana.id);

    await stack.slack.submitForm({
      user: DEV_USERS.dana.id,
      inputs: { approval_threshold: { value: '250' } },
    });
    await stack.idle();

    expect(shown).toContain('"block_id":"approval_threshold"');
    expect(stack.slack.modal(DEV_USERS.dana.id)).toBeUndefined();
    if (!twoWorkspaces)
      expect(shown).toContain(
        `*Approvers:* <@${DEV_USERS.bob.id}>, set by \`SPEND_APPROVERS\` in the environment.`,
      );
    const home = JSON.stringify(stack.slack.home(DEV_USERS.dana.id)?.view.blocks);
    expect(home).toContain('Workspace settings');
    expect(await openSettings(stack, DEV_USERS.dana.id)).toContain('"initial_value":"250"');
    await stack.slack.closeView({ user: DEV_USERS.dana.id });
  });

  it('tells Alice that Dana can change the settings', async () => {
    const refused = await openSettings(stack, DEV_USERS.alice.id);

    expect(refused).not.toContain('approval_threshold');
    expect(refused).toContain(`Ask <@${DEV_USERS.dana.id}> (admin) to change what you need.`);
  });

  it('names Dana once, her role in one parenthetical, as the page shows a mention by the user’s name', async () => {
    // Prepare
    const names = new Map<string, string>(Object.values(DEV_USERS).map((user) => [user.id, user.name]));

    // Act
    const refused = await openSettings(stack, DEV_USERS.alice.id);
    const shown = refused.replace(/<@(\w+)>/g, (_, id: string) => `@${names.get(id) ?? id}`);

    // Assess
    expect(shown).toContain('Ask @Dana (admin) to change');
    expect(shown).not.toMatch(/(\([^()]*\))\s*\1/);
  });

  it.runIf(twoWorkspaces)('lets Carol, the second workspace’s admin, open its settings', async () => {
    const { teamId, user } = DEV_SECOND_TEAM;

    const shown = await openSettings(stack, user.id, teamId);

    expect(shown).toContain('"block_id":"approval_threshold"');
    expect(shown).not.toContain(DEV_USERS.dana.id);
  });
});
