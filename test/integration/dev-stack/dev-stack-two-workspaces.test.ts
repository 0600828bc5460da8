import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as z from 'zod';
import {
  DEV_SECOND_TEAM,
  DEV_TEAM_ID,
  DEV_USERS,
  type DevStack,
  startDevStack,
} from '../../../local/dev-stack.ts';
import { DEV_API_KEY } from '../../../simulator/server.ts';

const PageStateSchema = z.object({
  users: z.array(z.object({ id: z.string(), teamId: z.string().optional() })),
  installTeams: z.array(z.string()).optional(),
  messages: z.array(z.object({ text: z.string(), teamId: z.string().optional() })),
});

/** `npm run dev` with `DEV_WORKSPACES=2`: the local page as two workspaces of a distributed app. */
describe('the local Slack page with two workspaces', () => {
  let stack: DevStack;
  const pageState = async (user: string) =>
    PageStateSchema.parse(await (await fetch(`${stack.slackUrl}/local/state?user=${user}`)).json());

  beforeAll(async () => {
    stack = await startDevStack({ dynamoEndpoint: inject('dynamoEndpoint'), twoWorkspaces: true });
  });
  afterAll(() => stack.stop());

  it('answers a member of each workspace with that workspace’s key, and shows each only their own', async () => {
    await stack.slack.sendCommand({ user: DEV_USERS.alice.id, channel: 'C0GENERAL', text: 'credits' });
    await stack.slack.sendCommand({ user: DEV_SECOND_TEAM.user.id, channel: 'C0GENERAL', text: 'spend' });
    await stack.idle();

    const alice = await pageState(DEV_USERS.alice.id);
    const carol = await pageState(DEV_SECOND_TEAM.user.id);
    const balance = stack.sim.balance(DEV_API_KEY).toLocaleString('en-US');
    expect(alice.messages.some((m) => m.text.includes(`${balance} credits available`))).toBe(true);
    expect(alice.messages.every((m) => m.teamId !== DEV_SECOND_TEAM.teamId)).toBe(true);
    expect(carol.messages.some((m) => m.text.includes('/events spend'))).toBe(true);
    expect(carol.messages.every((m) => m.teamId !== DEV_TEAM_ID)).toBe(true);
    expect(carol.messages.some((m) => m.teamId === DEV_SECOND_TEAM.teamId && !m.text.startsWith('/'))).toBe(
      true,
    );
    expect(carol.users.find((u) => u.id === DEV_SECOND_TEAM.user.id)?.teamId).toBe(DEV_SECOND_TEAM.teamId);
    expect(alice.installTeams).toEqual([DEV_TEAM_ID, DEV_SECOND_TEAM.teamId]);
  });

  it('runs the OAuth install of a workspace from the page’s Install link', async () => {
    const link = await fetch(`${stack.slackUrl}/local/install?team=T0THIRD`, { redirect: 'manual' });
    const installPage = await fetch(link.headers.get('location') ?? '', { redirect: 'manual' });
    const cookie = (installPage.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(await installPage.text())?.[1] ?? '';
    const consent = await fetch(href.replaceAll('&amp;', '&'), { redirect: 'manual' });
    const done = await fetch(consent.headers.get('location') ?? '', { headers: { cookie } });

    expect(link.status).toBe(302);
    expect(done.status).toBe(200);
    expect(new URL(consent.headers.get('location') ?? '').pathname).toBe('/slack/oauth_redirect');
  });
});
