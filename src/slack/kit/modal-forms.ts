import * as z from 'zod';
import { parseCommand } from '../commands/index.ts';

/**
 * What every room's form reader (`features/<room>/forms.ts`) is built of. A modal's submission is read
 * back as what the user chose, as the `/events …` command text the worker runs (so a modal and the
 * command it stands for cannot drift apart), or field errors keyed by the input's block id, for
 * `response_action: errors`. Pure: values in, a verdict out.
 */

/** `view.state.values` as Slack sends it: `{ [blockId]: { [actionId]: { type, value | selected_… } } }`. */
export type ViewValues = Record<string, Record<string, unknown>>;

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

const FieldSchema = z
  .object({
    value: z.string().nullish(),
    selected_date: z.string().nullish(),
    selected_time: z.string().nullish(),
    selected_conversation: z.string().nullish(),
    selected_channel: z.string().nullish(),
    selected_option: z.object({ value: z.string() }).nullish(),
    selected_options: z.array(z.object({ value: z.string() })).nullish(),
  })
  .loose();

/** A field's value whatever its element, trimmed; undefined when empty or absent. */
export function fieldOf(values: ViewValues, field: string): string | undefined {
  const elements = Object.values(values[field] ?? {});
  for (const element of elements) {
    const parsed = FieldSchema.safeParse(element);
    if (!parsed.success) continue;
    const { data } = parsed;
    const raw =
      data.value ??
      data.selected_date ??
      data.selected_time ??
      data.selected_conversation ??
      data.selected_channel ??
      data.selected_option?.value ??
      data.selected_options?.map((picked) => picked.value).join(',');
    const trimmed = raw?.replace(/\s+/g, ' ').trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

/** `key:"value"`: quoted, so a value can hold spaces or words like `city:` without becoming a filter. */
export const filterWord = (key: string, value: string | undefined) =>
  value ? `${key}:"${value.replace(/"/g, "'")}"` : undefined;

export const commandText = (words: (string | undefined)[]) => words.filter(Boolean).join(' ');

/** Slack markup in the problem is fine in a modal's error (shown as plain text): drop the backticks. */
export const plainProblem = (problem: string) => problem.replace(/`/g, '');

export function dateRangeErrors(values: ViewValues): Record<string, string> {
  const from = fieldOf(values, 'from');
  const to = fieldOf(values, 'to');
  if (from && to && from > to) return { to: 'The end date is before the start date.' };
  return {};
}

/**
 * The parser's verdict on the text a modal made; its problem is shown on the field it names (`country:`
 * is longer than…), else on `field`.
 */
export function checked(text: string, field: string, values: ViewValues): FormResult<string> {
  const parsed = parseCommand(text);
  if (parsed.ok) return { ok: true, value: text };
  const named = /`(\w+):/.exec(parsed.problem)?.[1];
  const where = named && named in values ? named : field;
  return { ok: false, errors: { [where]: plainProblem(parsed.problem) } };
}

/**
 * Each field's word read alone by the parser (`search country:"…"`), so a form with several bad fields
 * says every one at once; a field that already has an error keeps it. The whole text is read after
 * (`checked`) for what lies between fields.
 */
export function fieldErrors(
  command: string,
  words: readonly (readonly [field: string, word: string | undefined])[],
  errors: Record<string, string> = {},
): Record<string, string> {
  for (const [field, word] of words) {
    if (!word || errors[field]) continue;
    const parsed = parseCommand(`${command} ${word}`);
    if (!parsed.ok) errors[field] = plainProblem(parsed.problem);
  }
  return errors;
}

/** A Slack conversation id: a channel, a private channel or a DM. */
export const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

export function channelOf(values: ViewValues, errors: Record<string, string>): string {
  const channel = fieldOf(values, 'channel') ?? '';
  if (!CHANNEL_ID.test(channel)) errors.channel = 'Pick the channel to show the results in.';
  return channel;
}

/** Every value a multiple-choice field (checkboxes) holds, in order; none when empty or absent. */
export function choicesOf(values: ViewValues, field: string): string[] {
  const Choices = z.object({ selected_options: z.array(z.object({ value: z.string() })) });
  return Object.values(values[field] ?? {}).flatMap((element) => {
    const parsed = Choices.safeParse(element);
    return parsed.success ? parsed.data.selected_options.map((option) => option.value) : [];
  });
}

/** A modal's `private_metadata` read by `schema`; undefined when it is missing or does not fit. */
export function metadataOf<S extends z.ZodType>(
  view: { private_metadata: string },
  schema: S,
): z.output<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(view.private_metadata || '{}'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
