import { isValidTimeZone } from '../time/local-time.ts';

/** When a digest set up without a time or zone runs, unless the workspace set its own: 09:00 UTC. */
export const DIGEST_DEFAULTS = { time: '09:00', timeZone: 'UTC' } as const;

/**
 * A workspace's time and zone for a digest set up without them (a channel's digest is the channel's,
 * so the workspace's zone, when its admin set one, goes before the requester's own).
 */
export interface DigestDefaults {
  time?: string | undefined;
  timeZone?: string | undefined;
}

/** The time a new digest runs at: the one asked for, else the workspace's, else the default. */
export const digestTimeOf = (asked: string | undefined, workspace: DigestDefaults | undefined): string =>
  asked ?? workspace?.time ?? DIGEST_DEFAULTS.time;

/** The zone a new digest runs in: the one asked for when valid, else the workspace's, else the default. */
export function digestZoneOf(asked: string | undefined, workspace: DigestDefaults | undefined): string {
  if (asked && isValidTimeZone(asked)) return asked;
  const fallback = workspace?.timeZone;
  return fallback && isValidTimeZone(fallback) ? fallback : DIGEST_DEFAULTS.timeZone;
}
