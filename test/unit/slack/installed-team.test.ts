import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { onlyInstalledTeam, OTHER_WORKSPACE_TEXT } from '../../../src/slack/app.ts';

type Args = Parameters<Middleware<AnyMiddlewareArgs>>[0];

/** The middleware's arguments as Bolt builds them, keeping what it reads; records ack, respond and next. */
function argsFor(teamId: string | undefined, kind: { command?: object; action?: object; view?: object }) {
  const calls: { ack: unknown[][]; respond: unknown[]; next: number } = { ack: [], respond: [], next: 0 };
  const args = {
    ...kind,
    body: {},
    context: { teamId },
    ack: (...response: unknown[]) => {
      calls.ack.push(response);
      return Promise.resolve();
    },
    respond: (message: unknown) => {
      calls.respond.push(message);
      return Promise.resolve();
    },
    next: () => {
      calls.next += 1;
      return Promise.resolve();
    },
  } as unknown as Args;
  return { args, calls };
}

describe('onlyInstalledTeam', () => {
  const check = onlyInstalledTeam('T0MINE', createMemoryLogger());

  it('lets a request from the installed workspace through, untouched', async () => {
    const { args, calls } = argsFor('T0MINE', { command: { command: '/events' } });

    await check(args);

    expect(calls).toEqual({ ack: [], respond: [], next: 1 });
  });

  it('acks a command from another workspace with the ephemeral notice and stops', async () => {
    const { args, calls } = argsFor('T0OTHER', { command: { command: '/events' } });

    await check(args);

    expect(calls).toEqual({
      ack: [[{ response_type: 'ephemeral', text: OTHER_WORKSPACE_TEXT }]],
      respond: [],
      next: 0,
    });
  });

  it('acks a button from another workspace and tells the clicker through the response_url', async () => {
    const { args, calls } = argsFor('T0OTHER', { action: { type: 'button' } });

    await check(args);

    expect(calls).toEqual({
      ack: [[]],
      respond: [{ response_type: 'ephemeral', replace_original: false, text: OTHER_WORKSPACE_TEXT }],
      next: 0,
    });
  });

  it('acks a view submission from another workspace with nothing (a body there would change the modal)', async () => {
    const { args, calls } = argsFor('T0OTHER', { view: { type: 'modal' } });

    await check(args);

    expect(calls).toEqual({ ack: [[]], respond: [], next: 0 });
  });

  it('refuses a request whose team Bolt could not tell', async () => {
    const { args, calls } = argsFor(undefined, { command: { command: '/events' } });

    await check(args);

    expect(calls.next).toBe(0);
  });
});
