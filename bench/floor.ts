import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The bench's floor: the least a Slack endpoint on Lambda must do, a hand-written v0 signature check
 * that answers 200. No framework, no dependency: what is left is Node's own start-up.
 */
interface HttpEvent {
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
}

const secret = process.env.SLACK_SIGNING_SECRET ?? '';

function signedBySlack(event: HttpEvent): boolean {
  const timestamp = event.headers?.['x-slack-request-timestamp'] ?? '';
  const given = Buffer.from(event.headers?.['x-slack-signature'] ?? '');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(raw).digest('hex')}`,
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const handler = (event: HttpEvent): Promise<{ statusCode: number; body: string }> =>
  Promise.resolve(signedBySlack(event) ? { statusCode: 200, body: '' } : { statusCode: 401, body: '' });
