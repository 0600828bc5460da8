import * as z from 'zod';
import {
  checked,
  channelOf,
  commandText,
  dateRangeErrors,
  fieldErrors,
  fieldOf,
  filterWord,
  type FormResult,
  plainProblem,
  type ViewValues,
} from '../../kit/modal-forms.ts';
import type { ListOperations } from './definition.ts';
import { type FilterMetadata, isFilterableList } from './filter-views.ts';
import { readFilterWords } from '../../kit/filter-reading.ts';
import { LISTS } from './index.ts';
import { ListKindSchema } from '../../kit/job-values.ts';

/** The search and Filter… modals' submissions read back (`filter-views.ts` builds them). */

export interface SearchSubmission {
  /** `search …`, as typed after `/events`. */
  text: string;
  channelId: string;
}

const SEARCH_FIELDS = ['keywords', 'country', 'region', 'city', 'from', 'to', 'when', 'type', 'quality'];

/** The search modal read back: every field's problem at once, else the `search …` text it stands for. */
export function readSearchForm(values: ViewValues): FormResult<SearchSubmission> {
  const errors: Record<string, string> = dateRangeErrors(values);
  const channelId = channelOf(values, errors);
  const visitors = fieldOf(values, 'visitors') ?? 'any';
  if (!['any', 'yes', 'no'].includes(visitors)) errors.visitors = 'Choose Any, With or Without.';
  const words = SEARCH_FIELDS.map((key) => [key, filterWord(key, fieldOf(values, key))] as const);
  fieldErrors('search', words, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const text = commandText([
    'search',
    ...words.map(([, word]) => word),
    visitors === 'any' ? undefined : `visitors:${visitors}`,
  ]);
  if (text === 'search') return { ok: false, errors: { keywords: 'Give some keywords or a filter.' } };
  const result = checked(text, 'keywords', values);
  return result.ok ? { ok: true, value: { text, channelId } } : result;
}

export const FilterMetadataSchema = z.object({
  list: ListKindSchema.refine(isFilterableList),
  query: z.record(z.string(), z.unknown()),
  channelId: z.string().min(1),
  responseUrl: z.string().optional(),
  inPlace: z.boolean(),
}) satisfies z.ZodType<FilterMetadata>;

/**
 * The list's query with exactly the modal's search words and filters (an emptied field clears its
 * filter), read by the rules the command's `key:value` words are read by.
 */
export function readFilterForm(
  values: ViewValues,
  metadata: FilterMetadata,
  { filterModal, filters }: ListOperations = LISTS[metadata.list],
): FormResult<Record<string, unknown>> {
  const search = filterModal?.search ?? { field: 'keywords' };
  const keys = Object.keys(filters);
  // One word per field: a value cannot be read as another filter, whatever it holds.
  const words = ['keywords', ...keys].flatMap((key) => {
    const value = fieldOf(values, key === 'keywords' ? search.field : key);
    return value ? [`${key}:${value}`] : [];
  });
  const fieldOfProblem = (problem: string) => {
    const named = /`([\w-]+):/.exec(problem)?.[1] ?? '';
    return keys.includes(named) ? named : search.field;
  };
  // Each word read alone first, so every field's problem is said at once; then all of them together.
  const errors: Record<string, string> = {};
  for (const word of words) {
    const { problem } = readFilterWords([word], filters);
    if (problem) errors[fieldOfProblem(problem)] ??= plainProblem(problem);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const read = readFilterWords(words, filters);
  if (read.problem)
    return { ok: false, errors: { [fieldOfProblem(read.problem)]: plainProblem(read.problem) } };
  return {
    ok: true,
    value: {
      eventId: metadata.query.eventId,
      ...(read.leading ? { [search.field]: read.leading } : {}),
      ...read.values,
    },
  };
}
