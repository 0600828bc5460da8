import type { Audience } from './audience.ts';
import { readAmount, type AmountReading } from './plan/show-costs.ts';
import {
  LEAD_GRADES,
  type LeadGrade,
  OUTCOME_KINDS,
  type OutcomeChange,
  type OutcomeEntry,
  type OutcomeFields,
  type OutcomeKind,
  RECORD_TYPE,
  type WatchAccount,
} from './ports/records.ts';

/**
 * What a show brought, logged from the channel (`/events outcome`): the kinds and what each carries,
 * the checks an entry passes before it is stored, the watch's company it is matched to, and who may
 * delete it. Words are the Slack room's; the rules are here, once.
 */

export const OUTCOME_LIMITS = {
  /** A note's length, in characters. */
  noteChars: 500,
  /** An account's name, in characters. */
  accountChars: 100,
  /** A show starting further ahead than this (days from today, UTC) has brought nothing yet. */
  aheadDays: 365,
} as const;

/**
 * Who may log an entry: `/events outcome`, the Log for a show form and a past show's Outcome… button
 * all name this one audience (a guest from another organisation is never one of them).
 */
export const OUTCOME_LOGGERS = 'members' satisfies Audience;

/** The kinds that carry money (required), and the one that carries a grade (required). */
const MONEY_KINDS: ReadonlySet<OutcomeKind> = new Set(['opportunity', 'won']);
export const carriesAmount = (kind: OutcomeKind): boolean => MONEY_KINDS.has(kind);
export const carriesGrade = (kind: OutcomeKind): boolean => kind === 'lead';

export const readOutcomeKind = (word: string): OutcomeKind | undefined =>
  OUTCOME_KINDS.find((kind) => kind === word.toLowerCase());

export const readGrade = (word: string): LeadGrade | undefined =>
  LEAD_GRADES.find((grade) => grade === word.toUpperCase());

/** An amount as the plan's costs read it (`12000`, `12,000.50`): never negative, at most 2 decimals. */
export const readOutcomeAmount = (word: string): AmountReading => readAmount(word);

const DAY_MS = 86_400_000;

/** Whether a show starts more than `aheadDays` after `today` (`YYYY-MM-DD`, UTC); undated shows do not. */
export function startsTooFarAhead(show: { dateStart: string | null }, today: string): boolean {
  if (!show.dateStart) return false;
  const limit = new Date(Date.parse(`${today}T00:00:00Z`) + OUTCOME_LIMITS.aheadDays * DAY_MS);
  return show.dateStart.slice(0, 10) > limit.toISOString().slice(0, 10);
}

/**
 * What is wrong with the currency an amount was given in, against the plan's: none set on the plan
 * (`no-plan-currency`), or another one (`other-currency`); undefined when it is fine (no code given,
 * or the plan's).
 */
export function currencyProblem(
  given: string | undefined,
  planCurrency: string | undefined,
): 'no-plan-currency' | 'other-currency' | undefined {
  if (given === undefined) return undefined;
  if (planCurrency === undefined) return 'no-plan-currency';
  return given === planCurrency ? undefined : 'other-currency';
}

/**
 * The watch's resolved company for an account as typed: the channel's watched account whose label or
 * company name is the same, case aside, once the watch has matched it to one exhibitor.
 */
export function watchedCompanyOf(
  account: string,
  watched: readonly Pick<WatchAccount, 'label' | 'companyName' | 'resolution' | 'exhibitorIds'>[],
): OutcomeEntry['company'] {
  const typed = account.trim().toLowerCase();
  const match = watched.find(
    (w) =>
      w.resolution === 'resolved' &&
      (w.label.trim().toLowerCase() === typed || w.companyName?.trim().toLowerCase() === typed),
  );
  const exhibitorId = match?.exhibitorIds[0];
  if (!match || exhibitorId === undefined) return undefined;
  return { exhibitorId, name: match.companyName ?? match.label };
}

/** What the logger gave, checked: the kind with its grade or amount, the account, the note. */
export interface OutcomeInput {
  kind: OutcomeKind;
  grade?: LeadGrade;
  hundredths?: number;
  account: string;
  note?: string;
}

export interface NewOutcome extends OutcomeInput {
  id: string;
  teamId: string;
  channelId: string;
  show: { eventId: string; name: string | null; dateStart: string | null; dateEnd: string | null };
  currency?: string;
  company?: OutcomeEntry['company'];
  loggedBy: string;
  at: Date;
}

/** A new entry, its history starting with its logging. */
export function newOutcome(given: NewOutcome): OutcomeEntry {
  const loggedAt = given.at.toISOString();
  const { show } = given;
  return {
    type: RECORD_TYPE.outcome,
    id: given.id,
    teamId: given.teamId,
    channelId: given.channelId,
    eventId: show.eventId,
    showName: show.name,
    showDateStart: show.dateStart?.slice(0, 10) ?? null,
    showDateEnd: show.dateEnd?.slice(0, 10) ?? null,
    kind: given.kind,
    ...(given.grade ? { grade: given.grade } : {}),
    ...(given.hundredths === undefined ? {} : { hundredths: given.hundredths }),
    ...(given.hundredths !== undefined && given.currency ? { currency: given.currency } : {}),
    account: given.account,
    ...(given.company ? { company: given.company } : {}),
    ...(given.note ? { note: given.note } : {}),
    loggedBy: given.loggedBy,
    loggedAt,
    history: [{ action: 'logged', by: given.loggedBy, at: loggedAt }],
  };
}

/** Who may change or delete an entry: its logger, or an admin of the workspace (a member both; outsiders never get here). */
export const mayChangeOutcome = (
  entry: Pick<OutcomeEntry, 'loggedBy'>,
  user: { userId: string; admin: boolean },
): boolean => user.admin || entry.loggedBy === user.userId;

/** The change a deletion records. */
export const deletion = (by: string, at: Date): OutcomeChange => ({
  action: 'deleted',
  by,
  at: at.toISOString(),
});

/** What an entry says now (its kind, grade, amount, account, company, note). */
function fieldsOf(entry: OutcomeEntry): OutcomeFields {
  const { kind, grade, hundredths, currency, account, company, note } = entry;
  return {
    kind,
    ...(grade ? { grade } : {}),
    ...(hundredths === undefined ? {} : { hundredths }),
    ...(currency ? { currency } : {}),
    account,
    ...(company ? { company } : {}),
    ...(note ? { note } : {}),
  };
}

/**
 * The entry with what it says replaced by `edit` (read and checked as a new one's), the show and who
 * logged it kept, and what it said before added to its history.
 */
export function editedOutcome(
  entry: OutcomeEntry,
  edit: OutcomeInput & { currency?: string; company?: OutcomeEntry['company'] },
  by: string,
  at: Date,
): OutcomeEntry {
  const change: OutcomeChange = { action: 'edited', by, at: at.toISOString(), was: fieldsOf(entry) };
  // What the entry said goes whole: a field the edit does not give is not kept.
  const {
    kind: _kind,
    grade: _grade,
    hundredths: _hundredths,
    currency: _currency,
    account: _account,
    company: _company,
    note: _note,
    ...kept
  } = entry;
  return {
    ...kept,
    kind: edit.kind,
    ...(edit.grade ? { grade: edit.grade } : {}),
    ...(edit.hundredths === undefined ? {} : { hundredths: edit.hundredths }),
    ...(edit.hundredths !== undefined && edit.currency ? { currency: edit.currency } : {}),
    account: edit.account,
    ...(edit.company ? { company: edit.company } : {}),
    ...(edit.note ? { note: edit.note } : {}),
    history: [...entry.history, change],
  };
}
