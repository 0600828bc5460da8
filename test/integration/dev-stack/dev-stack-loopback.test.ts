import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DevStack, startDevStack } from '../../../local/dev-stack.ts';

/** This machine's own addresses other than loopback: where someone on the network would connect. */
const networkAddresses = Object.entries(networkInterfaces()).flatMap(([name, addresses = []]) =>
  addresses
    .filter((address) => !address.internal)
    // A link-local IPv6 address is reached through its interface.
    .map((address) => (address.address.startsWith('fe80:') ? `${address.address}%${name}` : address.address)),
);

/** What connecting to `host:port` gives: 'open', or the error's code. */
const tryConnect = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect({ host, port, timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

/** `npm run dev` opens nothing to the network (issue 41): every server it starts listens on loopback only. */
describe.skipIf(networkAddresses.length === 0)('the local stack’s servers', () => {
  let stack: DevStack;

  beforeAll(async () => {
    // DynamoDB Local here is the suite's own, started as `npm run dev` starts it.
    stack = await startDevStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  });
  afterAll(() => stack.stop());

  it('answer on loopback and refuse connections on every other address of this machine', async () => {
    // Prepare: DynamoDB Local, the simulator, the bot's Function URL and the local Slack page
    const servers = {
      dynamo: stack.dynamoEndpoint,
      simulator: stack.simulatorUrl,
      bot: stack.botUrl,
      page: stack.slackUrl,
    };
    const seen: Record<string, string[]> = {};

    // Act
    for (const [name, url] of Object.entries(servers)) {
      const port = Number(new URL(url).port);
      seen[name] = [
        `127.0.0.1 ${await tryConnect('127.0.0.1', port)}`,
        ...(await Promise.all(
          networkAddresses.map(async (host) => `${host} ${await tryConnect(host, port)}`),
        )),
      ];
    }

    // Assess
    const expected = ['127.0.0.1 open', ...networkAddresses.map((host) => `${host} ECONNREFUSED`)];
    expect(seen).toEqual({ dynamo: expected, simulator: expected, bot: expected, page: expected });
  });
});
