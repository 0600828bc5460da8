import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../local/fake-slack/fake-slack.ts';
import { listenOnPagePort, pagePortOf } from '../../../local/page-port.ts';

// `npm run dev`'s page port: 3000 unless PORT says otherwise, the next free one when 3000 is taken.

describe('the local page’s port', () => {
  const opened: { close: () => unknown }[] = [];
  afterEach(async () => {
    for (const server of opened.splice(0)) await server.close();
  });

  /** Something else listening on a port the system picks, as another program on 3000 would. */
  const occupy = async (host = '127.0.0.1'): Promise<{ server: Server; port: number }> => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen({ port: 0, host, ipv6Only: true }, resolve));
    opened.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    return { server, port: (server.address() as AddressInfo).port };
  };
  const startSlack = async (port: number): Promise<FakeSlack> => {
    const slack = await startFakeSlack({ port });
    opened.push(slack);
    return slack;
  };

  it('is 3000 by default, and PORT names another exactly', () => {
    expect(pagePortOf({})).toEqual({ port: 3000, orNext: true });
    expect(pagePortOf({ PORT: '' })).toEqual({ port: 3000, orNext: true });
    expect(pagePortOf({ PORT: '8080' })).toEqual({ port: 8080, orNext: false });
    expect(() => pagePortOf({ PORT: 'eighty' })).toThrow('PORT must be a port number from 1 to 65535');
    expect(() => pagePortOf({ PORT: '70000' })).toThrow('PORT must be a port number');
  });

  it('takes the next free port when the default one is taken, and says so', async () => {
    // Prepare
    const { port } = await occupy();

    // Act
    const { served, port: taken, note } = await listenOnPagePort({ port, orNext: true }, startSlack);

    // Assess: the page answers on the next port, and the note names both
    expect(taken).toBeGreaterThan(port);
    expect(served.url).toBe(`http://127.0.0.1:${taken}`);
    expect((await fetch(`${served.url}/`)).status).toBe(200);
    expect(note).toBe(`port ${port} is taken, so the page is on ${taken}`);
  });

  it('serves on the port asked for without a note when it is free', async () => {
    // Prepare: a port just freed
    const { server, port } = await occupy();
    await new Promise((resolve) => server.close(resolve));

    // Act
    const result = await listenOnPagePort({ port, orNext: true }, startSlack);

    // Assess
    expect(result.port).toBe(port);
    expect(result.note).toBeUndefined();
  });

  it('refuses a taken PORT with a clear message instead of moving', async () => {
    const { port } = await occupy();
    await expect(listenOnPagePort({ port, orNext: false }, startSlack)).rejects.toThrow(
      `port ${port} (PORT) is taken: free it, or set PORT to another port.`,
    );
  });

  it('counts a port taken on IPv6 localhost (::1) as taken, where a browser may open "localhost" first', async () => {
    // Prepare: another program on ::1 only (127.0.0.1 of the same port is free)
    const { port } = await occupy('::1');

    // Act
    const moved = await listenOnPagePort({ port, orNext: true }, startSlack);

    // Assess: the page moved on and says why; a PORT naming it is refused
    expect(moved.port).toBeGreaterThan(port);
    expect(moved.note).toBe(`port ${port} is taken, so the page is on ${moved.port}`);
    await expect(listenOnPagePort({ port, orNext: false }, startSlack)).rejects.toThrow(
      `port ${port} (PORT) is taken`,
    );
  });
});
