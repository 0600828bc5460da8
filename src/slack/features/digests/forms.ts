import { readTimeZone } from '../../../domain/schedule-words.ts';
import {
  checked,
  commandText,
  dateRangeErrors,
  fieldOf,
  filterWord,
  type FormResult,
  type ViewValues,
} from '../../kit/modal-forms.ts';
import { SLACK_ZONE } from './settings-views.ts';

/** The digest modal's submission read back (`settings-views.ts` builds it). */

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

/** `digest on 08:30 Europe/Berlin keywords:"…"`: the command the digest modal stands for. */
export function readDigestForm(values: ViewValues): FormResult<string> {
  const errors: Record<string, string> = dateRangeErrors(values);
  const time = fieldOf(values, 'time') ?? '';
  const zone = zoneOf(values, 'zone', errors);
  if (!/^\d{2}:\d{2}$/.test(time)) errors.time = 'Pick a time of day.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const text = commandText([
    'digest on',
    time,
    zone === SLACK_ZONE ? undefined : zone,
    ...(['keywords', 'country', 'region', 'city', 'from', 'to', 'when'] as const).map((key) =>
      filterWord(key, fieldOf(values, key)),
    ),
  ]);
  return checked(text, 'zone', values);
}
