import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { digestTimeOf } from '../../domain/digest-defaults.ts';
import { context, input, plainText, section } from './blocks.ts';
import { escapeMrkdwn, truncate } from './limits.ts';
import type { ListKind } from '../button-values.ts';
import { type FilterWord, labelsOf } from '../features/lists/filter-words.ts';
import type { ListOperations } from '../features/lists/definition.ts';
import { LISTS } from '../features/lists/index.ts';

/**
 * The modals: search, research a company, the digest's settings, and the list filters. Pure builders,
 * data in and a view out; `modal-forms.ts` reads their submissions back. Every input's `block_id` is
 * its field name and its element's `action_id` is `value`, so a submission reads as
 * `state.values[field].value`.
 */

export const MODAL_CALLBACKS = {
  search: 'modal.search',
  research: 'modal.research',
  digest: 'modal.digest',
  filter: 'modal.filter',
} as const;

export const FIELD_ACTION = 'value';

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

const option = (text: string, value: string): PlainTextOption => ({ text: plainText(text), value });

function textInput(field: string, label: string, initial?: string, placeholder?: string): InputBlock {
  return input(field, label, {
    type: 'plain_text_input',
    action_id: FIELD_ACTION,
    max_length: 200,
    ...(initial ? { initial_value: truncate(initial, 200) } : {}),
    ...(placeholder ? { placeholder: plainText(placeholder) } : {}),
  });
}

const isDate = (value: string | undefined): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

function dateInput(field: string, label: string, initial?: string): InputBlock {
  return input(field, label, {
    type: 'datepicker',
    action_id: FIELD_ACTION,
    ...(isDate(initial) ? { initial_date: initial } : {}),
  });
}

function selectInput(field: string, label: string, options: PlainTextOption[], initial?: string): InputBlock {
  const chosen = options.find((candidate) => candidate.value === initial);
  return input(field, label, {
    type: 'static_select',
    action_id: FIELD_ACTION,
    options,
    ...(chosen ? { initial_option: chosen } : {}),
  });
}

/**
 * Where a private answer goes when the modal was not opened from a conversation (a global shortcut,
 * App Home). Slack's ephemeral messages need a channel, and so does Share; a DM with the bot could
 * not be shared, so the user picks the channel and only they see the answer there until they share.
 */
function channelInput(initial?: string): InputBlock {
  return input(
    'channel',
    'Show the results in',
    {
      type: 'conversations_select',
      action_id: FIELD_ACTION,
      filter: { include: ['public', 'private'], exclude_bot_users: true },
      ...(initial ? { initial_conversation: initial } : { default_to_current_conversation: true }),
    },
    { optional: false, hint: 'Only you see them there, with a Share button.' },
  );
}

function modal(callbackId: string, title: string, submit: string, blocks: KnownBlock[], metadata = {}) {
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackId,
    title: plainText(title),
    submit: plainText(submit),
    close: plainText('Cancel'),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
  return view;
}

export interface SearchPrefill {
  keywords?: string;
  country?: string;
  city?: string;
  from?: string;
  to?: string;
  type?: string;
  quality?: string;
  visitors?: string;
  channelId?: string;
}

const VISITOR_OPTIONS = [
  option('Any', 'any'),
  option('With visitor data', 'yes'),
  option('Without visitor data', 'no'),
];

/** Every filter the service's events list takes (sponsor stars aside: the bot keeps none). */
export function searchModal(prefill: SearchPrefill = {}): ModalView {
  return modal(MODAL_CALLBACKS.search, 'Search events', 'Search', [
    textInput('keywords', 'Keywords', prefill.keywords, 'fintech, payments'),
    textInput('country', 'Country', prefill.country, 'Germany'),
    textInput('city', 'City', prefill.city, 'Berlin'),
    dateInput('from', 'Starting on or after', prefill.from),
    dateInput('to', 'Starting on or before', prefill.to),
    textInput('type', 'Event type', prefill.type, 'Trade Show, Conference'),
    textInput('quality', 'Quality', prefill.quality, 'high'),
    selectInput('visitors', 'Visitor data', VISITOR_OPTIONS, prefill.visitors ?? 'any'),
    channelInput(prefill.channelId),
  ]);
}

/** Where research answers go: a message's thread (message shortcut), or privately (App Home). */
export type ResearchTarget = { channelId: string; threadTs: string } | { privately: true };

export const RESEARCH_LOOKUPS = {
  similar: 'Exhibitors like it (free)',
  exhibitor: 'Its exhibitor records (50 credits if found, confirmed first)',
} as const;
export type ResearchLookup = keyof typeof RESEARCH_LOOKUPS;

export function researchModal(company: string, target: ResearchTarget): ModalView {
  const lookups = Object.entries(RESEARCH_LOOKUPS).map(([value, text]) => option(text, value));
  const blocks: KnownBlock[] = [
    input(
      'company',
      'Company name or website',
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        max_length: 200,
        placeholder: plainText('Acme Analytics or https://acme.example'),
        ...(company ? { initial_value: truncate(company, 200) } : {}),
      },
      { optional: false },
    ),
    input(
      'lookup',
      'Look up',
      {
        type: 'radio_buttons',
        action_id: FIELD_ACTION,
        options: lookups,
        ...(lookups[0] ? { initial_option: lookups[0] } : {}),
      },
      { optional: false },
    ),
  ];
  if ('privately' in target) blocks.push(channelInput());
  else blocks.push(context('The answer is posted in the message’s thread, for everyone there.'));
  return modal(MODAL_CALLBACKS.research, 'Research a company', 'Look up', blocks, target);
}

/** A channel's digest as the modal shows it (the store's subscription fits). */
export interface DigestSettings {
  time: string;
  timeZone: string;
  filters: Partial<Record<'keywords' | 'country' | 'city' | 'from' | 'to', string | undefined>>;
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
  return modal(
    MODAL_CALLBACKS.digest,
    'Daily digest',
    'Save',
    [
      section(`The digest of new events posted daily in <#${escapeMrkdwn(channelId)}>.`),
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
      textInput('city', 'City', filters.city),
      dateInput('from', 'Events starting on or after', filters.from),
      dateInput('to', 'Events starting on or before', filters.to),
    ],
    { channelId },
  );
}

/** The lists with a Filter… modal: those whose definition (`src/slack/features/lists/`) gives it one. */
export const isFilterableList = (list: ListKind): boolean => LISTS[list].filterModal !== undefined;

/** Where a filtered list goes: the card it came from (replaced when it was private), and its query. */
export interface FilterMetadata {
  list: ListKind;
  query: Record<string, unknown>;
  channelId: string;
  responseUrl?: string | undefined;
  inPlace: boolean;
}

/** Checkboxes for a comma-separated filter, its current values ticked. */
function choicesInput(field: string, label: string, choices: Record<string, string>, initial?: string) {
  const options = Object.entries(choices).map(([value, text]) => option(text, value));
  const ticked = options.filter(({ value }) => labelsOf(initial)?.includes(value ?? ''));
  return input(field, label, {
    type: 'checkboxes',
    action_id: FIELD_ACTION,
    options,
    ...(ticked.length > 0 ? { initial_options: ticked } : {}),
  });
}

/**
 * The list's search words and every filter with a label, each prefilled from the list as it stands;
 * `modal-forms.ts` reads the submission back by the same definition.
 */
export function listFilterModal(
  metadata: FilterMetadata,
  { filterModal, filters }: ListOperations = LISTS[metadata.list],
): ModalView | undefined {
  if (!filterModal) return undefined;
  const { search, title } = filterModal;
  const current = (field: string) => {
    const value = metadata.query[field];
    return typeof value === 'string' ? value : undefined;
  };
  const fields = Object.entries<FilterWord>(filters).flatMap(([key, { label, choices, placeholder }]) => {
    if (!label) return [];
    if (choices) return [choicesInput(key, label, choices, current(key))];
    return [textInput(key, label, current(key), placeholder)];
  });
  const blocks: KnownBlock[] = [
    textInput(search.field, search.label, current(search.field), search.placeholder),
    ...fields,
  ];
  return modal(MODAL_CALLBACKS.filter, title, 'Filter', blocks, metadata);
}
