import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { apiErrorBody, ERROR_KEYS } from './errors.ts';

const MAX_BODY_BYTES = 1_000_000;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** lower-case names; Authorization is replaced by `Bearer [redacted]` */
  headers: Record<string, string>;
  /** parsed JSON, the raw text when it was not JSON, or undefined when empty */
  body: unknown;
  at: string;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; text: string };

export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, text };
  }
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] =
      name === 'authorization' ? 'Bearer [redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    out[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return out;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, JSON.stringify(body), headers);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  traceId: string,
  status: number,
  message: string,
  errorKey = ERROR_KEYS[status] ?? 'ERROR',
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, apiErrorBody(status, errorKey, message, traceId), headers);
}

/** `Authorization: Bearer sk_…`, scheme matched case-insensitively. */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  return key?.startsWith('sk_') ? key : undefined;
}
