import {
  carriesAmount,
  carriesGrade,
  OUTCOME_LIMITS,
  readGrade,
  readOutcomeAmount,
  readOutcomeKind,
} from '../../../domain/outcomes.ts';
import { readCurrency } from '../../../domain/plan/show-costs.ts';
import type { AmountReading } from '../../../domain/plan/show-costs.ts';
import type { LeadGrade, OutcomeKind } from '../../../domain/ports/records.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { eventIdOf, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed, Refusal } from '../../kit/command-types.ts';
import { outcomeUsage } from './outcome-words.ts';

/** `outcome <event id> <kind> <account> [amount] [note]` and `outcome delete <id>` read: an entry as typed. */

export interface OutcomeAmount {
  hundredths: number;
  /** The code typed after the amount (`48000 EUR`), if any: the plan's currency is checked when it runs. */
  currency?: string;
}

/** What an entry says, as typed: the kind with its grade or amount, the account, the note. */
export interface OutcomeWords {
  kind: OutcomeKind;
  grade?: LeadGrade;
  amount?: OutcomeAmount;
  account: string;
  note?: string;
}

export type OutcomeCommand =
  | ({ name: 'outcome'; eventId: string } & OutcomeWords)
  | ({ name: 'outcome-edit'; id: string } & OutcomeWords)
  | { name: 'outcome-delete'; id: string };

/** An entry's id as the card's Delete button, `outcome edit` and `outcome delete` carry it. */
export const OUTCOME_ID_PATTERN = /^[0-9a-f]{8}$/;

const AMOUNT_PROBLEMS: Record<Extract<AmountReading, { ok: false }>['reason'], string> = {
  'not-a-number': 'is not an amount',
  negative: 'is below 0; an amount is 0 or more',
  decimals: 'has more than 2 decimals',
  'too-large': 'is too large',
};

/** A word meant as an amount: it starts with a digit, a sign or a currency symbol. */
const looksLikeAmount = (word: string) => /^[-+\d.€$£¥]/.test(word);

type Reading<T> = { ok: true; value: T; rest: string[] } | { ok: false; problem: string };

/** An amount and the currency code after it, from the start of `words`. */
function readAmountAt(words: readonly string[]): Reading<OutcomeAmount> {
  const [word = '', next = '', ...after] = words;
  const amount = readOutcomeAmount(word);
  if (!amount.ok)
    return {
      ok: false,
      problem: `${shown(word)} ${AMOUNT_PROBLEMS[amount.reason]}.${didYouMeanAmount(word, { whole: false })}`,
    };
  const currency = /^[A-Za-z]{3}$/.test(next) ? readCurrency(next) : undefined;
  if (currency) return { ok: true, value: { hundredths: amount.hundredths, currency }, rest: after };
  return { ok: true, value: { hundredths: amount.hundredths }, rest: words.slice(1) };
}

/** The account: one word, or a "quoted name" (quotes dropped). */
function readAccount(words: readonly string[]): Reading<string> {
  const [word] = words;
  const account = word?.replace(/^"|"$/g, '').trim();
  if (!account) return { ok: false, problem: 'Name the account: one word, or a "quoted name".' };
  if (account.length > OUTCOME_LIMITS.accountChars)
    return { ok: false, problem: `The account is over ${OUTCOME_LIMITS.accountChars} characters.` };
  return { ok: true, value: account, rest: words.slice(1) };
}

/** The kind's grade or amount, the account, then an amount (when not given before it) and the note. */
function readEntry(kind: OutcomeKind, words: string[]): Reading<Omit<OutcomeWords, 'kind'>> {
  let rest = words;
  let grade: LeadGrade | undefined;
  let amount: OutcomeAmount | undefined;
  if (carriesGrade(kind)) {
    const [word = ''] = rest;
    grade = readGrade(word);
    if (!grade)
      return {
        ok: false,
        problem: `A lead takes a grade, A, B or C${word ? `; ${shown(word)} is none` : ''}.`,
      };
    rest = rest.slice(1);
  }
  if (carriesAmount(kind) && rest[0] !== undefined && looksLikeAmount(rest[0])) {
    const read = readAmountAt(rest);
    if (!read.ok) return read;
    [amount, rest] = [read.value, read.rest];
  }
  const account = readAccount(rest);
  if (!account.ok) return account;
  rest = account.rest;
  if (carriesAmount(kind) && !amount) {
    if (rest[0] === undefined) return { ok: false, problem: `${kind} takes an amount.` };
    const read = readAmountAt(rest);
    if (!read.ok) return read;
    [amount, rest] = [read.value, read.rest];
  }
  const note = rest.join(' ').trim();
  if (note.length > OUTCOME_LIMITS.noteChars)
    return {
      ok: false,
      problem: `The note is ${note.length} characters; it takes up to ${OUTCOME_LIMITS.noteChars}.`,
    };
  return {
    ok: true,
    value: {
      ...(grade ? { grade } : {}),
      ...(amount ? { amount } : {}),
      account: account.value,
      ...(note ? { note } : {}),
    },
    rest: [],
  };
}

function readDelete({ words, fail }: CommandArgs): Parsed<OutcomeCommand> {
  const [id = '', ...extra] = words;
  if (!OUTCOME_ID_PATTERN.test(id) || extra.length > 0)
    return fail(`Give the entry's id, as its card shows it: \`outcome delete 3f9a0c12\`.`);
  return { ok: true, command: { name: 'outcome-delete', id } };
}

/** The kind and what follows it; `done` says what was not done when they are refused. */
function readWords(words: string[], fail: CommandArgs['fail'], done: string): OutcomeWords | Refusal {
  const [kindWord = '', ...rest] = words;
  const kind = readOutcomeKind(kindWord);
  if (!kind)
    return fail(
      `${kindWord ? `${shown(kindWord)} is not a kind of outcome.` : 'Say what the show brought.'} ${outcomeUsage()}`,
    );
  const entry = readEntry(kind, rest);
  if (!entry.ok) return fail(`${entry.problem} ${done} ${outcomeUsage()}`);
  return { kind, ...entry.value };
}

/** `outcome edit <id> <kind> <account> [amount] [note]`: what the entry says, all of it, again. */
function readEdit({ words, fail }: CommandArgs): Parsed<OutcomeCommand> {
  const [id = '', ...rest] = words;
  if (!OUTCOME_ID_PATTERN.test(id))
    return fail(
      `Give the entry's id, as its card shows it, then what it says now: \`outcome edit 3f9a0c12 lead A Acme\`.`,
    );
  const read = readWords(rest, fail, 'Nothing was changed.');
  if ('ok' in read) return read;
  return { ok: true, command: { name: 'outcome-edit', id, ...read } };
}

export function parseOutcome(args: CommandArgs): Parsed<OutcomeCommand> {
  const { words, fail } = args;
  if (words.length === 0) return fail(`Say which show, what it brought and the account. ${outcomeUsage()}`);
  const first = words[0]?.toLowerCase();
  if (first === 'delete') return readDelete({ ...args, words: words.slice(1) });
  if (first === 'edit') return readEdit({ ...args, words: words.slice(1) });
  const eventId = eventIdOf(words, fail);
  if (typeof eventId !== 'string') return eventId;
  const read = readWords(words.slice(1), fail, 'Nothing was logged.');
  if ('ok' in read) return read;
  return { ok: true, command: { name: 'outcome', eventId, ...read } };
}
