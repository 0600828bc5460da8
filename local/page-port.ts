import { createServer } from 'node:net';

/**
 * Where `npm run dev` serves the local Slack page: port 3000, so a bookmark keeps working; the next
 * free port when 3000 is taken (and the console says so); `PORT` names one exactly.
 */

export const DEFAULT_PAGE_PORT = 3000;
/** How many ports after the default are tried before giving up. */
const PORTS_TRIED = 20;

export interface PagePort {
  port: number;
  /** Whether a taken port may give way to the next free one (not when `PORT` names it). */
  orNext: boolean;
}

/** Any free port the system picks (the tests' stacks, side by side). */
export const ANY_FREE_PORT: PagePort = { port: 0, orNext: false };

/** The page's port from the environment: `PORT` exactly, else 3000 or the next free one. */
export function pagePortOf(env: NodeJS.ProcessEnv): PagePort {
  const named = env.PORT?.trim();
  if (!named) return { port: DEFAULT_PAGE_PORT, orNext: true };
  const port = Number(named);
  if (!/^\d+$/.test(named) || port < 1 || port > 65_535)
    throw new Error(`PORT must be a port number from 1 to 65535, not "${named}".`);
  return { port, orNext: false };
}

const isTaken = (error: unknown) => (error as { code?: unknown } | null)?.code === 'EADDRINUSE';

/**
 * Whether another program listens on `port` of IPv6 localhost (::1): the page binds 127.0.0.1, but a
 * browser may open "localhost" on ::1 first and meet that program instead. A machine without IPv6
 * (EADDRNOTAVAIL) has nothing there.
 */
async function takenOnIpv6Localhost(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (error) => resolve(isTaken(error)));
    probe.listen({ port, host: '::1', ipv6Only: true }, () => probe.close(() => resolve(false)));
  });
}

/**
 * Starts what serves the page on `port`, or (with `orNext`) on the first of the next ports that is
 * free; says which it took and, when it moved, why.
 */
export async function listenOnPagePort<T>(
  { port, orNext }: PagePort,
  listen: (port: number) => Promise<T>,
): Promise<{ served: T; port: number; note?: string }> {
  const last = orNext ? port + PORTS_TRIED : port;
  for (let candidate = port; candidate <= last; candidate++) {
    if (candidate !== 0 && (await takenOnIpv6Localhost(candidate))) continue;
    try {
      const served = await listen(candidate);
      const note =
        candidate === port ? {} : { note: `port ${port} is taken, so the page is on ${candidate}` };
      return { served, port: candidate, ...note };
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
  }
  throw new Error(
    orNext
      ? `ports ${port} to ${last} are all taken: free one, or set PORT to a free port.`
      : `port ${port} (PORT) is taken: free it, or set PORT to another port.`,
  );
}
