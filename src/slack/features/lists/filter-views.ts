import type { KnownBlock, ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import { input } from '../../views/blocks.ts';
import {
  channelInput,
  dateInput,
  FIELD_ACTION,
  modal,
  option,
  selectInput,
  textInput,
} from '../../views/modal-inputs.ts';
import type { ListOperations } from './definition.ts';
import { type EventSearchFilters, type FilterWord, labelsOf } from '../../kit/filter-reading.ts';
import { LISTS } from './index.ts';
import type { ListKind } from '../../kit/job-values.ts';

/**
 * The lists' modals: search (the events list's filters) and every other list's Filter…. Pure builders,
 * data in and a view out; `forms.ts` reads their submissions back.
 */

export const SEARCH_MODAL = FORM_IDS.search;
export const FILTER_MODAL = FORM_IDS.filter;

/** The search's filters as the modal is filled in (any text, as a button carried it), and its channel. */
export type SearchPrefill = Omit<EventSearchFilters, 'visitors'> & { visitors?: string; channelId?: string };

const VISITOR_OPTIONS = [
  option('Any', 'any'),
  option('With visitor data', 'yes'),
  option('Without visitor data', 'no'),
];

/** Every filter the service's events list takes (sponsor stars aside: the bot keeps none). */
export function searchModal(prefill: SearchPrefill = {}): ModalView {
  return modal(SEARCH_MODAL, 'Search events', 'Search', [
    textInput('keywords', 'Keywords', prefill.keywords, 'fintech, payments'),
    textInput('country', 'Country', prefill.country, 'Germany'),
    textInput(
      'region',
      'Or a region: Europe, DACH, Nordics, North America, LATAM, APAC or Middle East',
      prefill.region,
      'Europe',
    ),
    textInput('city', 'City', prefill.city, 'Berlin'),
    dateInput('from', 'Starting on or after', prefill.from),
    dateInput('to', 'Starting on or before', prefill.to),
    textInput('when', 'Or a quarter or a month (Q2-2027, 2027-03)', undefined, 'Q2-2027'),
    textInput('type', 'Event type', prefill.type, 'Trade Show, Conference'),
    textInput('quality', 'Quality', prefill.quality, 'high'),
    selectInput('visitors', 'Visitor data', VISITOR_OPTIONS, prefill.visitors ?? 'any'),
    channelInput(prefill.channelId),
  ]);
}

/** The lists with a Filter… modal: those whose definition (this folder) gives it one. */
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
 * `forms.ts` reads the submission back by the same definition.
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
  return modal(FILTER_MODAL, title, 'Filter', blocks, metadata);
}
