import { createHmac } from 'node:crypto';

/** Signs a request body exactly as Slack does (v0 HMAC-SHA256 of `v0:<ts>:<body>`). */
export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function signedHeaders(
  signingSecret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(signingSecret, timestamp, body),
  };
}
