import type { ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import { digestTimeOf } from '../../../domain/digest-defaults.ts';
import { calendarPeriodOf } from '../../../domain/periods.ts';
import { input, section } from '../../views/blocks.ts';
import { dateInput, FIELD_ACTION, modal, option, selectInput, textInput } from '../../views/modal-inputs.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import { DIGEST_ZONES, SLACK_ZONE } from '../../kit/time-zones.ts';

/** The digest's settings modal: a pure builder; `forms.ts` reads its submission back. */

export const DIGEST_MODAL = FORM_IDS.digest;

/** A channel's digest as the modal shows it (the store's subscription fits). */
export interface DigestSettings {
  time: string;
  timeZone: string;
  filters: Partial<Record<'keywords' | 'country' | 'region' | 'city' | 'from' | 'to', string | undefined>>;
}

/**
 * The digest's settings; with `current`, the channel's digest as it stands, to edit. A new digest
 * starts at the workspace's default time and zone (a distributed app's admin sets them), else 09:00 in
 * the requester's Slack zone.
 */
export function digestModal(
  channelId: string,
  current?: DigestSettings,
  defaults: { time?: string | undefined; timeZone?: string | undefined } = {},
): ModalView {
  const offered: readonly string[] = DIGEST_ZONES;
  // A zone set by command that the list lacks is offered too, so saving keeps it.
  const zone = current?.timeZone ?? defaults.timeZone ?? SLACK_ZONE;
  const extra = zone !== SLACK_ZONE && !offered.includes(zone) ? [zone] : [];
  // A workspace zone replaces "my Slack zone": a digest set up without a zone takes the workspace's.
  const own = defaults.timeZone ? [] : [SLACK_ZONE];
  const zones = [...own, ...extra, ...DIGEST_ZONES].map((zone) =>
    option(zone === SLACK_ZONE ? 'My Slack time zone' : zone, zone),
  );
  const filters = current?.filters ?? {};
  // A digest saved with `when:Q2-2027` shows it so, not as its first and last days.
  const period = calendarPeriodOf(filters.from, filters.to);
  return modal(
    DIGEST_MODAL,
    'Daily digest',
    'Save',
    [
      section(mk`The digest of new events posted daily in <#${escapeMrkdwn(channelId)}>.`),
      input(
        'time',
        'Time of day',
        {
          type: 'timepicker',
          action_id: FIELD_ACTION,
          initial_time: digestTimeOf(current?.time, defaults),
        },
        { optional: false },
      ),
      selectInput('zone', 'Time zone', zones, zone),
      textInput('keywords', 'Keywords', filters.keywords, 'healthcare'),
      textInput('country', 'Country', filters.country, 'Germany'),
      textInput(
        'region',
        'Or a region: Europe, DACH, Nordics, North America, LATAM, APAC or Middle East',
        filters.region,
        'Europe',
      ),
      textInput('city', 'City', filters.city),
      dateInput('from', 'Events starting on or after', period ? undefined : filters.from),
      dateInput('to', 'Events starting on or before', period ? undefined : filters.to),
      textInput('when', 'Or a quarter or a month (Q2-2027, 2027-03)', period?.key, 'Q2-2027'),
    ],
    { channelId },
  );
}
