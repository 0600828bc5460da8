import { type Interceptable, MockAgent } from 'undici';
import { createEisClient, type EisClientOptions } from '../../src/eis/index.ts';
import { createMemoryLogger } from '../../src/platform/log.ts';

/*
 * A fake service for unit tests: an undici MockAgent injected as the client's dispatcher, recording every
 * request it answers. No module is mocked.
 */

export const ORIGIN = 'http://eis.test';
export const KEY = 'sk_test_unit_4f9c2a7d1e';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeReply =
  { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | { error: Error };

function headersOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw && typeof raw === 'object') {
    for (const [name, value] of Object.entries(raw)) out[name.toLowerCase()] = String(value);
  }
  return out;
}

export function fakeService() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool: Interceptable = agent.get(ORIGIN);
  const requests: RecordedRequest[] = [];

  /** Queues replies, in order, for `method path` (path without its query string). */
  function on(method: string, path: string, ...replies: FakeReply[]) {
    for (const reply of replies) {
      const interceptor = pool.intercept({ method, path: (actual: string) => actual.split('?')[0] === path });
      const record = (opts: { path: string; method: string; headers?: unknown; body?: unknown }) => {
        const [pathname = '', search = ''] = opts.path.split('?');
        const text = typeof opts.body === 'string' ? opts.body : undefined;
        requests.push({
          method: opts.method,
          path: pathname,
          query: new URLSearchParams(search),
          headers: headersOf(opts.headers),
          body: text === undefined ? undefined : JSON.parse(text),
        });
      };
      if ('error' in reply) {
        // a request answered with an error is not recorded: replyWithError has no hook for it
        interceptor.replyWithError(reply.error);
        continue;
      }
      const scope = interceptor.reply((opts) => {
        record(opts);
        const body = reply.body;
        return {
          statusCode: reply.status,
          data: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
          responseOptions: { headers: { 'content-type': 'application/json', ...reply.headers } },
        };
      });
      if (reply.delayMs) scope.delay(reply.delayMs);
    }
  }

  return { agent, requests, on };
}

export function clientFor(
  service: ReturnType<typeof fakeService>,
  overrides: Partial<EisClientOptions> = {},
) {
  const sleeps: number[] = [];
  const logger = createMemoryLogger();
  const client = createEisClient({
    baseUrl: ORIGIN,
    apiKey: KEY,
    dispatcher: service.agent,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    logger,
    ...overrides,
  });
  return { client, sleeps, logger };
}

export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

// ---------- body builders ----------

export const apiError = (code: number, errorKey: string, message = 'failed') => ({
  code,
  message,
  errorKey,
  traceId: `trace-${code}`,
});

export const concurrencyEnvelope = () => ({
  code: 429,
  message: 'Too many concurrent requests',
  errorKey: 'USER_CONCURRENCY_LIMIT_EXCEEDED',
  data: null,
  details: null,
  traceId: 'trace-concurrency',
});

export const featureEnvelope = () => ({
  code: 400,
  message: 'This feature requires an active paid subscription',
  errorKey: 'USER_HAS_NO_FEATURE',
  traceId: 'trace-feature',
});

export const creditBalance = (overrides: Record<string, unknown> = {}) => ({
  totalAmount: 10_000,
  totalBalance: 8_000,
  subscriptionAmount: 10_000,
  subscriptionBalance: 8_000,
  addonAmount: 0,
  addonBalance: 0,
  addonExpireAt: null,
  giftAmount: 0,
  giftBalance: 0,
  resetAt: 1_790_000_000_000,
  ...overrides,
});

export const eventItem = (overrides: Record<string, unknown> = {}) => ({
  id: '101',
  eventId: 'ev-101',
  name: 'Packaging Expo',
  nickname: null,
  description: 'Trade show',
  url: 'https://expo.example',
  dateStart: '2026-10-01',
  dateEnd: '2026-10-03',
  venue: 'Hall 1',
  city: 'Lyon',
  region: null,
  country: 'France',
  exhibitorCount: 120,
  hasVisitors: true,
  sponsorMatchStarred: 0,
  image: null,
  dataSource: 'Service',
  ...overrides,
});

export const page = <T>(items: T[], overrides: Record<string, unknown> = {}) => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
  totalPages: items.length === 0 ? 0 : 1,
  hasMore: false,
  ...overrides,
});

export const unlockResult = (overrides: Record<string, unknown> = {}) => ({
  success: true,
  alreadyUnlocked: false,
  creditsUsed: 2000,
  balanceAfter: { subscriptionBalance: 6000, permanentBalance: 0, totalBalance: 6000, unlimited: false },
  event: { id: '101', eventId: 'ev-101', name: 'Packaging Expo' },
  ...overrides,
});

export const personnelItem = (overrides: Record<string, unknown> = {}) => ({
  id: '789',
  fullName: 'Jane Doe',
  title: 'VP Marketing',
  department: 'marketing',
  seniorityLevel: 'vp',
  linkedinUrl: null,
  companyName: 'Acme',
  sourceType: ['exhibitor'],
  email: null,
  contactUnlockStatus: 'locked',
  ...overrides,
});

export const exhibitorItem = (overrides: Record<string, unknown> = {}) => ({
  id: '4182',
  companyName: 'Acme',
  domain: 'acme.example',
  description: null,
  website: 'https://acme.example',
  industry: 'Software',
  employeeCount: 120,
  country: 'France',
  logo: null,
  linkedinUrl: null,
  fundingRound: null,
  matched_event_ids: ['101'],
  isRecommended: false,
  recommendationRank: null,
  matchStatus: null,
  matchScore: null,
  matchTier: null,
  matchReason: null,
  techStacks: [],
  ...overrides,
});
