import type { Period } from '../periods.ts';
import type { PlanContent, PlanEdit } from '../ports/plans.ts';
import {
  COST_KINDS,
  type CostKind,
  type PlanCurrency,
  type PlanShow,
  type PlanShowCost,
} from '../ports/records.ts';
import { quarterOfShow } from './rules.ts';

/** A plan's costs beyond credits: booth, sponsorship, travel and other, per show, in one currency. */

/** The largest cost of one kind for one show: more is a slip (a pasted number, a missing decimal point). */
export const PLAN_COST_MAX = 10_000_000;

export type AmountReading =
  | { ok: true; hundredths: number }
  | { ok: false; reason: 'not-a-number' | 'negative' | 'decimals' | 'too-large' };

/**
 * An amount as typed: digits, thousands optionally grouped by commas, at most 2 decimals
 * (`12000`, `12,000`, `12000.50`); 0 is allowed (it removes that cost).
 */
export function readAmount(text: string): AmountReading {
  const word = text.trim();
  if (/^-/.test(word) && readAmount(word.slice(1)).ok) return { ok: false, reason: 'negative' };
  const shape = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(word);
  if (!shape) return { ok: false, reason: 'not-a-number' };
  const [, whole = '', decimals = ''] = shape;
  if (decimals.length > 2) return { ok: false, reason: 'decimals' };
  const units = Number(whole.replace(/,/g, ''));
  if (units > PLAN_COST_MAX) return { ok: false, reason: 'too-large' };
  const hundredths = units * 100 + Number(decimals.padEnd(2, '0'));
  if (hundredths > PLAN_COST_MAX * 100) return { ok: false, reason: 'too-large' };
  return { ok: true, hundredths };
}

export const readCostKind = (word: string): CostKind | undefined =>
  COST_KINDS.find((kind) => kind === word.toLowerCase());

/** The ISO 4217 codes this runtime knows (Node's ICU). */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** A currency code as typed (`eur`, `EUR`), when ISO 4217 has it. */
export function readCurrency(word: string): string | undefined {
  const code = word.toUpperCase();
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code) ? code : undefined;
}

/** One show's costs to set: each kind's amount in hundredths (0 removes that kind). */
export interface CostChange {
  eventId: string;
  amounts: Partial<Record<CostKind, number>>;
  setBy: string;
  at: Date;
}

export type SetCostsResult =
  { outcome: 'set'; show: PlanShow; costs: PlanShowCost[] } | { outcome: 'not-on-plan' };

/**
 * Sets a show's costs of the kinds given, all at once (a kind at 0 is removed; the others are kept);
 * a show not on the plan is refused and nothing changes.
 */
export function setShowCosts(current: PlanContent, change: CostChange): PlanEdit<SetCostsResult> {
  const show = current.shows.find((s) => s.eventId === change.eventId);
  if (!show) return { result: { outcome: 'not-on-plan' } };
  const given = COST_KINDS.filter((kind) => change.amounts[kind] !== undefined);
  const kept = (current.costs ?? []).filter(
    (cost) => cost.eventId !== change.eventId || !given.includes(cost.kind),
  );
  const added = given.flatMap((kind): PlanShowCost[] => {
    const hundredths = change.amounts[kind] ?? 0;
    if (hundredths === 0) return [];
    return [
      { eventId: change.eventId, kind, hundredths, setBy: change.setBy, setAt: change.at.toISOString() },
    ];
  });
  const costs = [...kept, ...added];
  return {
    next: { ...current, costs },
    result: { outcome: 'set', show, costs: costs.filter((cost) => cost.eventId === change.eventId) },
  };
}

/** Sets the plan's one currency; the costs already there keep their amounts (nothing is converted). */
export function setCurrency(
  current: PlanContent,
  code: string,
  setBy: string,
  at: Date,
): PlanEdit<{ code: string; previous?: string; costs: number }> {
  const previous = current.currency?.code;
  const currency: PlanCurrency = { code, setBy, setAt: at.toISOString() };
  return {
    next: { ...current, currency },
    result: { code, ...(previous ? { previous } : {}), costs: current.costs?.length ?? 0 },
  };
}

/** A show's costs leave the plan with it (after `removeShow`): re-adding the show starts with none. */
export function withoutCostsOfRemoved<R>(edit: PlanEdit<R>, eventId: string): PlanEdit<R> {
  if (!edit.next?.costs) return edit;
  return { ...edit, next: { ...edit.next, costs: edit.next.costs.filter((c) => c.eventId !== eventId) } };
}

/** Each kind's total and the sum, in hundredths. */
export type KindTotals = Record<CostKind, number> & { total: number };

const noCosts = (): KindTotals => ({ booth: 0, sponsorship: 0, travel: 0, other: 0, total: 0 });

function add(totals: KindTotals, cost: Pick<PlanShowCost, 'kind' | 'hundredths'>): void {
  totals[cost.kind] += cost.hundredths;
  totals.total += cost.hundredths;
}

/** The plan's costs by show, by quarter (in order), for the shows without dates, and in all. */
export interface ShowCostTotals {
  byShow: Map<string, KindTotals>;
  quarters: { quarter: Period; totals: KindTotals }[];
  undated: KindTotals;
  all: KindTotals;
}

/** Totals of the costs of the shows on the plan (a cost of a show no longer there is not counted). */
export function showCostTotals(
  shows: readonly Pick<PlanShow, 'eventId' | 'dateStart'>[],
  costs: readonly PlanShowCost[],
): ShowCostTotals {
  const byShow = new Map<string, KindTotals>();
  const quarters = new Map<string, { quarter: Period; totals: KindTotals }>();
  const undated = noCosts();
  const all = noCosts();
  const totalsOfQuarter = (show: Pick<PlanShow, 'dateStart'>): KindTotals => {
    const quarter = quarterOfShow(show);
    if (!quarter) return undated;
    const known = quarters.get(quarter.key) ?? { quarter, totals: noCosts() };
    quarters.set(quarter.key, known);
    return known.totals;
  };
  for (const show of shows) {
    const own = costs.filter((cost) => cost.eventId === show.eventId);
    if (own.length === 0) continue;
    const totals = byShow.get(show.eventId) ?? noCosts();
    const inQuarter = totalsOfQuarter(show);
    for (const cost of own) for (const sum of [totals, inQuarter, all]) add(sum, cost);
    byShow.set(show.eventId, totals);
  }
  const ordered = [...quarters.values()].sort((a, b) => a.quarter.from.localeCompare(b.quarter.from));
  return { byShow, quarters: ordered, undated, all };
}
