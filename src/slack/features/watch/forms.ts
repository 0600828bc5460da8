import * as z from 'zod';
import type { FormResult, ViewValues } from '../../kit/modal-forms.ts';
import { importBox } from './import-views.ts';
import { readListOrRefuse } from './list-reading.ts';
import { formatted } from './list-words.ts';
import { IMPORT_BOX_CHARS, IMPORT_BOXES } from '../../kit/job-values.ts';

/** The import modal's submission read back: every box's lines, read together as one watch list. */

const BoxSchema = z.object({ value: z.string().nullish() }).loose();

/** A box's text as pasted (line breaks kept: `fieldOf` would fold them into spaces). */
function boxText(values: ViewValues, n: number): string {
  for (const element of Object.values(values[importBox(n)] ?? {})) {
    const parsed = BoxSchema.safeParse(element);
    if (parsed.success && parsed.data.value) return parsed.data.value;
  }
  return '';
}

/**
 * The boxes' text joined, when it reads as a watch list with at least one account; otherwise field
 * errors (too many lines or accounts, nothing readable, a box over Slack's length), and nothing is kept.
 */
export function readImportForm(values: ViewValues): FormResult<string> {
  const boxes = Array.from({ length: IMPORT_BOXES }, (_, index) => boxText(values, index + 1));
  const overlong = boxes.findIndex((box) => box.length > IMPORT_BOX_CHARS);
  if (overlong >= 0)
    return {
      ok: false,
      errors: { [importBox(overlong + 1)]: `A box holds at most ${formatted(IMPORT_BOX_CHARS)} characters.` },
    };
  const text = boxes.filter((box) => box.trim()).join('\n');
  const reading = readListOrRefuse(text);
  if (!reading.ok) return { ok: false, errors: { [importBox(1)]: reading.problem } };
  return { ok: true, value: text };
}
