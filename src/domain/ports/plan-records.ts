import * as z from 'zod';
import { Id, IsoTime, LocalDate, RECORD_TYPE } from './record-types.ts';

// The channel's plan, as the store keeps it (re-exported by records.ts, with the other records).

/** A show on a channel's plan, with its name, dates and city as the service told them when it was added. */
export const PlanShowSchema = z.object({
  eventId: Id,
  name: z.string().nullable(),
  dateStart: LocalDate.nullable(),
  dateEnd: LocalDate.nullable(),
  city: z.string().nullable(),
  addedBy: Id,
  addedAt: IsoTime,
});
export type PlanShow = z.infer<typeof PlanShowSchema>;

/**
 * A show taken off the plan, as it was when removed: what was spent on it stays counted in its quarter
 * (a quarter's spend on its shows never goes down), marked as removed from the plan.
 */
export const RemovedPlanShowSchema = PlanShowSchema.pick({
  eventId: true,
  name: true,
  dateStart: true,
  dateEnd: true,
});
export type RemovedPlanShow = z.infer<typeof RemovedPlanShowSchema>;

/** A quarter's budget for unlocking the plan's shows, in credits. */
export const PlanBudgetSchema = z.object({
  credits: z.number().int().nonnegative(),
  setBy: Id,
  setAt: IsoTime,
});
export type PlanBudget = z.infer<typeof PlanBudgetSchema>;

/** What a plan's costs beyond credits are for (`plan cost 26855 12000 booth`). */
export const COST_KINDS = ['booth', 'sponsorship', 'travel', 'other'] as const;
export type CostKind = (typeof COST_KINDS)[number];

/**
 * One cost of one show on the plan, in hundredths of the plan's currency (whole numbers, so totals add
 * exactly); who set it and when. A show has at most one cost of each kind.
 */
export const PlanShowCostSchema = z.object({
  eventId: Id,
  kind: z.enum(COST_KINDS),
  hundredths: z.number().int().positive(),
  setBy: Id,
  setAt: IsoTime,
});
export type PlanShowCost = z.infer<typeof PlanShowCostSchema>;

/** The one currency of a plan's costs, an ISO 4217 code; none set until someone sets it. */
export const PlanCurrencySchema = z.object({
  code: z.string().regex(/^[A-Z]{3}$/),
  setBy: Id,
  setAt: IsoTime,
});
export type PlanCurrency = z.infer<typeof PlanCurrencySchema>;

/**
 * The team's price of one credit in the plan's currency (`plan credit-price 0.12`), in ten-thousandths
 * of the currency (a rate has at most 4 decimals), with the currency it was set in: a rate set in
 * another currency than the plan's now prices nothing.
 */
export const PlanCreditPriceSchema = z.object({
  tenThousandths: z.number().int().positive(),
  code: z.string().regex(/^[A-Z]{3}$/),
  setBy: Id,
  setAt: IsoTime,
});
export type PlanCreditPrice = z.infer<typeof PlanCreditPriceSchema>;

/** A quarter's budget in money (`plan budget 50000 EUR Q2-2027`), in hundredths of the currency it was set in. */
export const PlanMoneyBudgetSchema = z.object({
  hundredths: z.number().int().positive(),
  code: z.string().regex(/^[A-Z]{3}$/),
  setBy: Id,
  setAt: IsoTime,
});
export type PlanMoneyBudget = z.infer<typeof PlanMoneyBudgetSchema>;

/** A channel's plan: the shows it is considering and its budgets by quarter (`Q2-2027`). */
export const PlanSchema = z.object({
  type: z.literal(RECORD_TYPE.plan),
  teamId: Id,
  channelId: Id,
  shows: z.array(PlanShowSchema),
  budgets: z.record(z.string(), PlanBudgetSchema),
  /** Costs beyond credits (booth, sponsorship, travel, other), of shows on the plan; absent: none yet. */
  costs: z.array(PlanShowCostSchema).exactOptional(),
  currency: PlanCurrencySchema.exactOptional(),
  /** The price of a credit; absent: not set (the money cost of credits is not shown). */
  creditPrice: PlanCreditPriceSchema.exactOptional(),
  /** Money budgets by quarter (`Q2-2027`), beside the credits budgets; absent: none. */
  moneyBudgets: z.record(z.string(), PlanMoneyBudgetSchema).exactOptional(),
  /** Shows taken off the plan, oldest removal first; absent: none (or a plan written before). */
  removed: z.array(RemovedPlanShowSchema).exactOptional(),
  /** Raised by every change of the shows or budgets: a write from an older read is refused. */
  revision: z.number().int().positive(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  /** The Slack canvas that shows the plan, once created. */
  canvasId: Id.exactOptional(),
  /** Whoever is creating the canvas holds it until then: no other change creates a second one. */
  canvasClaimUntil: IsoTime.exactOptional(),
  /** When its canvas was found deleted; cleared when the next one is saved (the channel is told). */
  canvasDeletedAt: IsoTime.exactOptional(),
});
export type Plan = z.infer<typeof PlanSchema>;
