import { choicesOf, type FormResult, plainProblem, type ViewValues } from '../../kit/modal-forms.ts';
import { readCompareIds } from './commands.ts';
import { SHOWS_FIELD } from './views.ts';
import { MAX_SHOWS, MIN_SHOWS } from '../../kit/job-values.ts';

/** The Compare… modal's ticked shows, read back: 2 to 5 event ids, or the field's error. */
export function readCompareForm(values: ViewValues): FormResult<string[]> {
  const picked = choicesOf(values, SHOWS_FIELD);
  if (picked.length < MIN_SHOWS)
    return { ok: false, errors: { [SHOWS_FIELD]: `Pick at least ${MIN_SHOWS} shows to compare.` } };
  if (picked.length > MAX_SHOWS)
    return {
      ok: false,
      errors: { [SHOWS_FIELD]: `Pick at most ${MAX_SHOWS} shows: you picked ${picked.length}.` },
    };
  const read = readCompareIds(picked.join(' '));
  return read.ok
    ? { ok: true, value: read.eventIds }
    : { ok: false, errors: { [SHOWS_FIELD]: plainProblem(read.problem) } };
}
