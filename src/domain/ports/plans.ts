import type {
  Plan,
  PlanBudget,
  PlanCreditPrice,
  PlanCurrency,
  PlanMoneyBudget,
  PlanShow,
  PlanShowCost,
  RemovedPlanShow,
} from './records.ts';

/** What a change to a plan decides: its shows and budgets, and its costs beyond credits. */
export interface PlanContent {
  shows: PlanShow[];
  budgets: Record<string, PlanBudget>;
  /** Absent: none (a plan written before costs, or without any). */
  costs?: PlanShowCost[];
  currency?: PlanCurrency;
  /** Absent: no price of a credit set. */
  creditPrice?: PlanCreditPrice;
  /** Money budgets by quarter key; absent: none. */
  moneyBudgets?: Record<string, PlanMoneyBudget>;
  /** Shows taken off the plan, kept for their spend; absent: none. */
  removed?: RemovedPlanShow[];
}

/** A change's decision: the plan to write (absent: nothing changes) and what to answer. */
export interface PlanEdit<T> {
  next?: PlanContent;
  result: T;
}

/** Channels' plans in the store (every call scoped by team and channel). */
export interface PlanRepository {
  get(teamId: string, channelId: string): Promise<Plan | null>;
  /** Every plan of the workspace, by channel id. */
  forTeam(teamId: string): Promise<Plan[]>;
  /**
   * Applies `edit` to the channel's current plan (an empty one when there is none) and writes what it
   * decides only if no other change came in between; otherwise reads again and re-applies it.
   */
  update<T>(
    teamId: string,
    channelId: string,
    edit: (current: PlanContent) => PlanEdit<T>,
  ): Promise<{ result: T; plan: Plan | null }>;
  /** Claims the creation of the channel's canvas until `until`; false when one exists or is claimed. */
  claimCanvas(teamId: string, channelId: string, until: Date): Promise<boolean>;
  /** Ends a claim whose canvas could not be created, so the next change tries again. */
  releaseCanvasClaim(teamId: string, channelId: string): Promise<void>;
  /**
   * Stores the canvas created under the claim (and ends the claim). `replacesDeleted`: the channel's
   * earlier canvas was found deleted, told to this one caller only (the mark is cleared with the write).
   */
  saveCanvas(teamId: string, channelId: string, canvasId: string): Promise<{ replacesDeleted: boolean }>;
  /**
   * Forgets `canvasId`, found deleted in Slack, and marks the plan so that the next canvas saved says
   * so; nothing when the plan holds another canvas by now.
   */
  forgetCanvas(teamId: string, channelId: string, canvasId: string): Promise<void>;
  /**
   * Records that the channel was warned about the budget of `quarterKey` set at `budgetSetAt`:
   * true for the first call only (a conditional write), so retries and concurrent charges warn once.
   */
  claimBudgetWarning(
    teamId: string,
    channelId: string,
    quarterKey: string,
    budgetSetAt: string,
  ): Promise<boolean>;
  /** Frees a claimed warning that could not be posted, so the next charge warns instead. */
  releaseBudgetWarning(
    teamId: string,
    channelId: string,
    quarterKey: string,
    budgetSetAt: string,
  ): Promise<void>;
}
