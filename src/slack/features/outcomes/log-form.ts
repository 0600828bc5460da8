import type { KnownBlock, ModalView } from '@slack/types';
import * as z from 'zod';
import { carriesAmount, carriesGrade, OUTCOME_LIMITS, readOutcomeKind } from '../../../domain/outcomes.ts';
import { LEAD_GRADES, OUTCOME_KINDS } from '../../../domain/ports/records.ts';
import { checked, commandText, fieldOf, type FormResult, type ViewValues } from '../../kit/modal-forms.ts';
import { context, input, plainText } from '../../views/blocks.ts';
import { FORM_IDS } from '../../views/form-ids.ts';
import { FIELD_ACTION, modal, option, selectInput, textInput } from '../../views/modal-inputs.ts';
import { truncate } from '../../views/mrkdwn.ts';
import { KIND_LABELS } from './outcome-words.ts';

/**
 * Log for a show: the form the message shortcut and a past show's Outcome… open, and its submission
 * read back as the `/events outcome …` command it stands for (the worker runs it as typed), or the
 * command's refusals on the fields they concern.
 */

export const OUTCOME_MODAL = FORM_IDS.outcome;

/** Where the entry's card goes: the channel, in the thread of the message (or card) it was logged from. */
export const OutcomeTargetSchema = z.object({
  channelId: z.string().min(1),
  threadTs: z.string().min(1).optional(),
});
export type OutcomeTarget = z.infer<typeof OutcomeTargetSchema>;

/** What the form opens with: the show (from its card), the note and link (from a message). */
export interface OutcomePrefill {
  eventId?: string;
  note?: string;
  link?: string;
}

/**
 * The note a message prefills: its text as a reader sees it (a mention as its words, `@U123` or
 * `#general`, as the command takes no mention markup), then its link, within the note's limit.
 */
export function noteOf(messageText: string, link: string | undefined): string {
  const text = messageText
    .replace(/<([@#!])([^|>]*)(?:\|([^>]*))?>/g, (_mention, sigil: string, id: string, label?: string) => {
      const named = label?.trim() || id.replace(/^subteam\^/, '');
      return /^[@#]/.test(named) ? named : `${sigil === '#' ? '#' : '@'}${named}`;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!link) return truncate(text, OUTCOME_LIMITS.noteChars);
  const room = OUTCOME_LIMITS.noteChars - link.length - 1;
  return room <= 0
    ? link.slice(0, OUTCOME_LIMITS.noteChars)
    : [truncate(text, room), link].filter(Boolean).join(' ');
}

export function outcomeModal(prefill: OutcomePrefill, target: OutcomeTarget): ModalView {
  const kinds = OUTCOME_KINDS.map((kind) => option(KIND_LABELS[kind], kind));
  const note = prefill.note ? noteOf(prefill.note, prefill.link) : prefill.link;
  const blocks: KnownBlock[] = [
    input(
      'show',
      'Show (event id)',
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        max_length: 100,
        placeholder: plainText('26855'),
        ...(prefill.eventId ? { initial_value: truncate(prefill.eventId, 100) } : {}),
      },
      { optional: false },
    ),
    input(
      'kind',
      'What it brought',
      { type: 'static_select', action_id: FIELD_ACTION, options: kinds },
      { optional: false },
    ),
    input(
      'account',
      'Account',
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        max_length: OUTCOME_LIMITS.accountChars,
        placeholder: plainText('Acme Robotics'),
      },
      { optional: false },
    ),
    selectInput(
      'grade',
      'Grade (a lead)',
      LEAD_GRADES.map((grade) => option(grade, grade)),
    ),
    textInput('amount', 'Amount (an opportunity or a deal won)', undefined, "48,000 in the plan's currency"),
    input('note', 'Note', {
      type: 'plain_text_input',
      action_id: FIELD_ACTION,
      multiline: true,
      max_length: OUTCOME_LIMITS.noteChars,
      ...(note ? { initial_value: truncate(note, OUTCOME_LIMITS.noteChars) } : {}),
    }),
    context('The entry’s card is posted in the channel, in the thread it was logged from.'),
  ];
  return modal(OUTCOME_MODAL, 'Log for a show', 'Log', blocks, target);
}

/** The command's refusal of `outcome <words>`, without the usage every refusal adds after it. */
function refusalOf(words: (string | undefined)[]): string | undefined {
  const read = checked(commandText(['outcome', ...words]), 'field', {});
  if (read.ok) return undefined;
  const [problem = ''] = Object.values(read.errors);
  return `${problem.split(' Nothing was logged.')[0] ?? problem} Nothing was logged.`;
}

/** The form as `/events outcome …` text, or its refusals on the fields they concern. */
export function readOutcomeForm(values: ViewValues): FormResult<string> {
  const errors: Record<string, string> = {};
  const show = fieldOf(values, 'show');
  const kind = readOutcomeKind(fieldOf(values, 'kind') ?? '');
  const account = fieldOf(values, 'account')?.replace(/"/g, "'");
  const amount = fieldOf(values, 'amount');
  const grade = kind && carriesGrade(kind) ? fieldOf(values, 'grade') : undefined;
  const note = fieldOf(values, 'note');
  const showProblem = show ? refusalOf([show, 'meeting-held', 'x']) : 'Give the show’s event id.';
  if (showProblem) errors.show = showProblem;
  if (!kind) errors.kind = 'Choose what the show brought.';
  if (!account) errors.account = 'Name the account.';
  if (kind && carriesGrade(kind) && !grade) errors.grade = 'A lead takes a grade, A, B or C.';
  if (kind && carriesAmount(kind) && !amount) errors.amount = `${KIND_LABELS[kind]} takes an amount.`;
  if (kind && !carriesAmount(kind) && amount)
    errors.amount = 'Only an opportunity or a deal won takes an amount; leave it empty.';
  if (kind && carriesAmount(kind) && amount && show && !errors.show) {
    // After an account, so that anything typed is read as the amount (and said wrong as one).
    const problem = refusalOf([show, kind, 'x', amount]);
    if (problem) errors.amount = problem;
  }
  if (!show || !kind || !account || Object.keys(errors).length > 0) return { ok: false, errors };
  // The amount before the account, so that no word of the note is read as its currency.
  const words = [show, kind, grade, amount, `"${account}"`, note];
  const problem = refusalOf(words);
  const text = commandText(['outcome', ...words]);
  return problem ? { ok: false, errors: { note: problem } } : { ok: true, value: text };
}
