import {
  checked,
  commandText,
  dateRangeErrors,
  fieldOf,
  filterWord,
  type FormResult,
  type ViewValues,
} from '../../kit/modal-forms.ts';
import { SLACK_ZONE, zoneOf } from '../../kit/time-zones.ts';

/** The digest modal's submission read back (`settings-views.ts` builds it). */

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
