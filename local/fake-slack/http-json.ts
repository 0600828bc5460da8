import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Args, safeJson } from './slack-state.ts';

/** The fake's HTTP bodies: JSON answers, and requests read as JSON or as the Web API client's form. */

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export async function readBody(request: IncomingMessage): Promise<Args> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if ((request.headers['content-type'] ?? '').includes('application/json')) return JSON.parse(raw) as Args;
  const args: Args = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // The Web API client sends arrays and objects as JSON strings inside the form.
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}
