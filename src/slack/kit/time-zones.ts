import { readTimeZone } from './schedule-reading.ts';
import { fieldOf, type ViewValues } from './modal-forms.ts';

/** The time zones a modal offers (the digest's, the workspace's defaults) and how a choice is read back. */

/** Zones offered in the digest modal; anything else is one `/events digest on 08:30 <zone>` away. */
export const DIGEST_ZONES = [
  'UTC',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Madrid',
  'Europe/Amsterdam',
  'Europe/Stockholm',
  'Europe/Warsaw',
  'Europe/Helsinki',
  'Europe/Istanbul',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
] as const;

/** The zone option that means "the requester's Slack time zone" (the command's default). */
export const SLACK_ZONE = 'slack';

/** A zone name's shape: one word, so it cannot read as another word of the command a modal makes. */
const ZONE_NAME = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/;

/**
 * A zone list's choice (`DIGEST_ZONES`): `SLACK_ZONE` (the requester's own), or any zone the command
 * parser reads, since a zone already set may be one the list lacks; else an error on `field`.
 */
export function zoneOf(values: ViewValues, field: string, errors: Record<string, string>): string {
  const zone = fieldOf(values, field) ?? SLACK_ZONE;
  if (zone !== SLACK_ZONE && !(ZONE_NAME.test(zone) && readTimeZone(zone).ok))
    errors[field] = 'Pick a time zone from the list.';
  return zone;
}
