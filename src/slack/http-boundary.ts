import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../platform/log.ts';
import type { AwsLambdaReceiver } from '@slack/bolt';

/** The two-argument Lambda handler `AwsLambdaReceiver` makes (its event and response types are not exported). */
export type SlackHttpHandler = ReturnType<AwsLambdaReceiver['toHandler']>;
export type SlackHttpEvent = Parameters<SlackHttpHandler>[0];

const MAX_AGE_SECONDS = 5 * 60;

export interface SlackHttpBoundaryOptions {
  signingSecret: string;
  logger: Logger;
  /** Epoch milliseconds; tests move it. */
  now?: () => number;
  /** Pages a browser opens (the OAuth install, when distributed): unsigned GETs, answered apart from Bolt. */
  pages?: SlackPages;
  /** Answers a signed request Bolt is not needed for (`command-requests.ts`); `undefined` for any other. */
  withoutBolt?: (mediaType: string, body: string) => Promise<SlackHttpResult | undefined>;
}

export type SlackHttpResult = Awaited<ReturnType<SlackHttpHandler>>;
/** Answers the GET requests it knows; `undefined` for any other. */
export type SlackPages = (event: SlackHttpEvent) => Promise<SlackHttpResult | undefined>;
const answer = (statusCode: number, body: string, headers: Record<string, string> = {}): SlackHttpResult => ({
  statusCode,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  body,
});

/**
 * What every Slack request passes before Bolt sees it. `AwsLambdaReceiver` parses the body before it
 * checks the signature (so unsigned junk throws) and compares content types exactly (so
 * `; charset=utf-8` throws); here the signature is checked on the raw bytes first, and Bolt gets a
 * decoded body and a bare media type. A request `withoutBolt` answers never loads Bolt.
 */
export function slackHttpBoundary(
  loadBolt: () => Promise<SlackHttpHandler>,
  options: SlackHttpBoundaryOptions,
): SlackHttpHandler {
  const { logger } = options;
  const now = options.now ?? Date.now;
  return async (event, context) => {
    const method = methodOf(event);
    if (method === 'GET' && options.pages) {
      const page = await options.pages(event);
      if (page) return page;
    }
    if (method !== 'POST') return answer(405, 'Method not allowed', { allow: 'POST' });
    const headers = lowerCaseKeys(event.headers ?? {});
    const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
    const timestamp = headers['x-slack-request-timestamp'] ?? '';
    if (!isSignedBySlack(options.signingSecret, raw, timestamp, headers['x-slack-signature'] ?? '', now())) {
      logger.warn('rejected a request with an invalid or stale signature', {
        requestTimestamp: timestamp.slice(0, 20),
      });
      return answer(401, 'Invalid signature');
    }
    const mediaType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    // Slack retries Events API deliveries (JSON) whose first answer was slow or lost: those go through,
    // and the app runs each event id once, so an event whose first delivery died is not lost. Slack
    // does not retry commands and clicks (form bodies); a retry of one is answered without work.
    if (headers['x-slack-retry-num'] !== undefined && mediaType !== 'application/json') {
      logger.info('acknowledged a Slack retry without doing the work again', {
        retryNum: headers['x-slack-retry-num'],
        retryReason: headers['x-slack-retry-reason'],
      });
      return { statusCode: 200, body: '' };
    }
    if (mediaType !== 'application/x-www-form-urlencoded' && mediaType !== 'application/json') {
      logger.warn('refused a signed request with an unsupported content type', {
        mediaType: mediaType.slice(0, 100),
      });
      return answer(400, 'Unsupported content type');
    }
    const body = raw.toString('utf8');
    const answered = await options.withoutBolt?.(mediaType, body);
    if (answered) return answered;
    // Loaded by the first request that needs it (a failure to load is not a malformed body).
    const bolt = await loadBolt();
    let result: SlackHttpResult;
    try {
      result = await bolt(
        {
          ...event,
          headers: { ...headers, 'content-type': mediaType },
          body,
          isBase64Encoded: false,
        },
        context,
      );
    } catch (error) {
      // Bolt throws only while parsing the body (it catches listener errors itself). The parser's
      // message quotes the body, so only the error's name is logged.
      logger.warn('refused a signed request whose body could not be parsed', {
        mediaType,
        errorName: error instanceof Error ? error.name : typeof error,
      });
      return answer(400, 'Malformed request body');
    }
    // Bolt answers 500 (after one log line of its own) when a parsed body has a shape it cannot read,
    // such as `null`; listener errors never get here, the app's error handler takes them.
    return result.statusCode === 500 ? answer(400, 'Malformed request body') : result;
  };
}

/** Slack's v0 scheme: HMAC-SHA256 of `v0:<timestamp>:<raw body>`, with a timestamp at most five minutes off. */
export function isSignedBySlack(
  signingSecret: string,
  rawBody: Buffer,
  timestamp: string,
  signature: string,
  nowMs: number,
): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(rawBody).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function methodOf(event: Parameters<SlackHttpHandler>[0]): string {
  if ('httpMethod' in event) return event.httpMethod;
  const context = event.requestContext as { http?: { method?: string } } | undefined;
  return context?.http?.method?.toUpperCase() ?? '';
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}
