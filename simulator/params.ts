import { badRequest, notFound } from './errors.ts';
import type { SeededEvent } from './seed.ts';
import type { SimulatorState } from './state.ts';

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  hasMore: boolean;
}

const INTEGER = /^\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EVENT_ID = /^[A-Za-z0-9_-]{1,100}$/;

function toInteger(name: string, raw: unknown, min: number, max: number): number {
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && INTEGER.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${name} must be an integer between ${min} and ${max}`);
  }
  return value;
}

export function optionalInteger(
  name: string,
  raw: unknown,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  return toInteger(name, raw, min, max);
}

/** page (>= 1) and pageSize (1..max) from a query string or a JSON body. */
export function pageRequest(
  source: URLSearchParams | Record<string, unknown>,
  defaultSize = 20,
  maxSize = 100,
): PageRequest {
  const get = (name: string): unknown =>
    source instanceof URLSearchParams ? (source.get(name) ?? undefined) : source[name];
  return {
    page: optionalInteger('page', get('page'), 1) ?? 1,
    pageSize: optionalInteger('pageSize', get('pageSize'), 1, maxSize) ?? defaultSize,
  };
}

export function paginate<T>(all: readonly T[], { page, pageSize }: PageRequest): Page<T> {
  const totalPages = Math.ceil(all.length / pageSize);
  return {
    items: all.slice((page - 1) * pageSize, page * pageSize),
    total: all.length,
    page,
    pageSize,
    totalPages,
    hasMore: page < totalPages,
  };
}

export function requiredQuery(query: URLSearchParams, name: string, maxLength = 200): string {
  const value = query.get(name)?.trim();
  if (!value) throw badRequest(`${name} is required`);
  if (value.length > maxLength) throw badRequest(`${name} must be at most ${maxLength} characters`);
  return value;
}

export function optionalQuery(query: URLSearchParams, name: string, maxLength = 200): string | undefined {
  const value = query.get(name)?.trim();
  if (!value) return undefined;
  if (value.length > maxLength) throw badRequest(`${name} must be at most ${maxLength} characters`);
  return value;
}

/** Repeated and comma-separated values, e.g. `?category=a&category=b,c`. */
export function multiQuery(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function optionalDate(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name) ?? undefined;
  if (value === undefined || value === '') return undefined;
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw badRequest(`${name} must be a date (YYYY-MM-DD)`);
  }
  return value;
}

export function optionalFlag(query: URLSearchParams, name: string): 0 | 1 | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (value !== '0' && value !== '1') throw badRequest(`${name} must be 0 or 1`);
  return value === '1' ? 1 : 0;
}

export function numericId(name: string, raw: unknown, maxLength = 20): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest(`${name} is required`);
  const value = raw.trim();
  if (!INTEGER.test(value) || value.length > maxLength) throw badRequest(`${name} must be a numeric string`);
  return value;
}

/** Resolves an event by its internal `id` or public `eventId`: 400 when malformed, 404 when unknown. */
export function resolveEvent(state: SimulatorState, raw: unknown, name = 'event_id'): SeededEvent {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest(`${name} is required`);
  const id = raw.trim();
  if (!EVENT_ID.test(id)) throw badRequest(`${name} is invalid`);
  const event = state.eventsById.get(id);
  if (!event) throw notFound(`Event ${id} not found`);
  return event;
}

export function bodyRecord(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function includesText(haystack: string | null | undefined, needle: string): boolean {
  return (haystack ?? '').toLowerCase().includes(needle.toLowerCase());
}

export function sameText(a: string | null | undefined, b: string): boolean {
  return (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();
}
