import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../platform/errors.ts';
import type { ExhibitorPage } from '../../eis/index.ts';
import type { ChargeAction } from '../charging.ts';
import { quoteCharge } from '../charge-quote.ts';
import { type ConfirmationDeps, runCharge, storedOutcome } from '../confirmations.ts';
import type { PreApproval, Price, WatchAccount, WatchSettings } from '../ports/records.ts';
import type { PaidLookupClaim, WatchExhibitor, WatchListRepository } from '../ports/watch.ts';
import { budgetMonth, paidLookupAllowance } from './budget.ts';
import { type AccountLookup, keptRecord, type LookupRun } from './lookup.ts';
import { matchAccount } from './names.ts';

/*
 * The paid name look-up of a scheduled check: for an account the free path did not find, one
 * `exhibitor-search` a month per workspace (guarded by an item of its own, keyed by workspace, account
 * key and month, not by the watched account, which `watch remove` deletes), taken from the channel's
 * monthly budget and charged through the same
 * write-ahead record, daily cap and ledger as a confirmed charge. The budget is the approval: it was
 * set by an admin or approver, who must still be one, and the ledger entry names them.
 */

/** Paid look-ups one check may run (the rest wait for the next check). */
export const PAID_LOOKUPS_PER_CHECK = 5;

/** A pre-approved look-up's confirmation is claimed at once; it never waits for a click. */
const CLAIM_WITHIN_SECONDS = 60;

export interface PaidLookupDeps {
  /** The charge path, as a confirmed charge runs it (service, records, cap and service account). */
  charge: ConfirmationDeps;
  watchLists: Pick<
    WatchListRepository,
    | 'reserveSpend'
    | 'releaseSpend'
    | 'paidLookup'
    | 'claimPaidLookup'
    | 'paidLookupFound'
    | 'releasePaidLookup'
  >;
  /** Whether the user is still an admin or spend approver of the workspace (may pre-approve). */
  mayPreApprove: (teamId: string, channelId: string, userId: string) => Promise<boolean>;
}

/** One check's paid look-ups: the budget as read, who set it, and how many may still run. */
export interface PaidLookupRun {
  deps: PaidLookupDeps;
  settings: WatchSettings;
  setBy: string;
  left: number;
}

/** The check's paid look-ups, or null when its budget cannot pre-approve any (0, or its setter no longer may). */
export async function paidLookupRun(
  deps: PaidLookupDeps | undefined,
  settings: WatchSettings,
): Promise<PaidLookupRun | null> {
  const setBy = settings.budgetSetBy;
  if (!deps || settings.budgetCredits <= 0 || !setBy) return null;
  if (!(await deps.mayPreApprove(settings.teamId, settings.channelId, setBy))) return null;
  return { deps, settings, setBy, left: PAID_LOOKUPS_PER_CHECK };
}

/** A look-up whose price is reserved from the channel's budget for `month`. */
interface Reserved {
  month: string;
  action: ChargeAction;
  price: Price;
}

/** A look-up's own charge record, fresh for each claim (a claim given back is taken again under a new one). */
const newConfirmationId = () => `watch-${randomUUID()}`;

const recordsOf = (page: ExhibitorPage): WatchExhibitor[] =>
  page.items.map(({ id, companyName, domain, website }) => ({
    id,
    companyName,
    domain: domain ?? null,
    website: website ?? null,
  }));

/** The records that are the account (one, or several to choose from); none when no record is. */
function matchesOf(key: string, records: readonly WatchExhibitor[]): WatchExhibitor[] {
  const match = matchAccount(key, records);
  if (match.kind === 'none') return [];
  return match.kind === 'one' ? [match.exhibitor] : match.candidates;
}

/** The records a paid look-up found as a look-up: resolved only on an exact company name or domain match. */
async function lookupOf(
  run: LookupRun,
  key: string,
  records: readonly WatchExhibitor[],
  free: AccountLookup,
) {
  const match = matchAccount(key, records);
  if (match.kind === 'none') return free;
  if (match.kind === 'ambiguous') {
    const ids = match.candidates.map((candidate) => candidate.id);
    return { resolution: 'ambiguous' as const, exhibitorIds: ids, candidates: match.candidates, shows: [] };
  }
  const { id, companyName } = match.exhibitor;
  const shows = await run.lookups.exhibitorShows(id);
  return { resolution: 'resolved' as const, exhibitorIds: [id], candidates: [], companyName, shows };
}

/**
 * Runs the charge of a claimed look-up as a confirmed charge runs: a confirmation claimed by the
 * budget's setter, then `runCharge` (write-ahead, the service once, settle). The results page when
 * it found something; null otherwise. Credits not spent go back to the budget; a look-up that never
 * reached the service gives its claim back too.
 */
async function chargeLookup(
  paid: PaidLookupRun,
  claim: Omit<PaidLookupClaim, 'channelId'>,
  { action, price }: Reserved,
): Promise<ExhibitorPage | null> {
  const { deps, settings, setBy } = paid;
  const { teamId, channelId } = settings;
  const id = claim.confirmationId;
  const release = () =>
    deps.watchLists.releaseSpend(teamId, channelId, { month: claim.month, credits: price.credits });
  const notRun = async () => {
    await release();
    await deps.watchLists.releasePaidLookup(claim);
    return null;
  };
  const preApproval: PreApproval = { kind: 'watch-budget', setBy, channelId };
  try {
    await deps.charge.confirmations.create({
      id,
      teamId,
      channelId,
      requestedBy: setBy,
      action,
      price,
      expiresInSeconds: CLAIM_WITHIN_SECONDS,
      preApproval,
    });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return notRun();
  }
  const confirmed = await deps.charge.confirmations.claim(id, { by: setBy });
  if (confirmed.kind !== 'claimed') return notRun();
  const result = await runCharge(id, deps.charge);
  // Not settled: the service may have charged; the reconciler settles it and the budget keeps it.
  if (result.kind !== 'settled') return null;
  // Settled without a start (the daily cap refused it): the service was never called.
  if (!result.confirmation.chargeStartedAt) return notRun();
  const outcome = storedOutcome(result.confirmation);
  if (!outcome.outcomeUnknown && (outcome.creditsSpent ?? 0) === 0) await release();
  return result.results?.kind === 'exhibitors' && outcome.facts?.kind === 'search' && outcome.facts.found
    ? result.results.page
    : null;
}

/** Keeps a find for the workspace's other channels; one not kept costs them only the find, not this look-up. */
async function keepFound(
  deps: PaidLookupDeps,
  claim: Omit<PaidLookupClaim, 'channelId'>,
  found: WatchExhibitor[],
) {
  try {
    await deps.watchLists.paidLookupFound(claim, found.map(keptRecord));
  } catch (error) {
    deps.charge.logger.warn('a paid look-up’s find could not be kept for other channels', { error });
  }
}

/**
 * Runs the account's paid look-up once its price is reserved from the budget: claims the workspace's
 * look-up of the account this month first (a lost claim gives the credits back and answers the
 * winner's find, if any), then charges it, and keeps what it found on the claim for other channels.
 */
async function claimAndCharge(
  paid: PaidLookupRun,
  run: LookupRun,
  account: Pick<WatchAccount, 'key'>,
  reserved: Reserved,
  free: AccountLookup,
): Promise<AccountLookup> {
  const { deps, settings } = paid;
  const { teamId, channelId } = settings;
  const { month } = reserved;
  const claim = { teamId, key: account.key, month, confirmationId: newConfirmationId() };
  const held = await deps.watchLists.claimPaidLookup({ ...claim, channelId });
  if (held.confirmationId !== claim.confirmationId) {
    await deps.watchLists.releaseSpend(teamId, channelId, { month, credits: reserved.price.credits });
    return lookupOf(run, account.key, held.found ?? [], free);
  }
  const page = await chargeLookup(paid, claim, reserved);
  const found = page ? matchesOf(account.key, recordsOf(page)) : [];
  if (found.length > 0) await keepFound(deps, claim, found);
  return lookupOf(run, account.key, found, free);
}

/**
 * After the free path: an account still not found gets one paid name look-up a month per workspace,
 * within the channel's budget and the daily cap, when the precheck does not refuse it. When another
 * channel of the workspace (or this one, before the account was removed and added again) looked it up
 * this month, its find is used, free; otherwise the account waits for next month. Any other look-up
 * is returned as is.
 */
export async function withPaidLookup(
  paid: PaidLookupRun | null,
  run: LookupRun,
  account: Pick<WatchAccount, 'key' | 'label'>,
  free: AccountLookup,
): Promise<AccountLookup> {
  if (!paid || free.resolution !== 'not-found') return free;
  const { deps, settings } = paid;
  const at = deps.charge.now();
  const month = budgetMonth(at);
  const earlier = await deps.watchLists.paidLookup(settings.teamId, account.key, month);
  if (earlier) return lookupOf(run, account.key, earlier.found ?? [], free);
  if (paid.left <= 0 || !paidLookupAllowance(settings, 'exhibitor-search', at).allowed) return free;
  paid.left -= 1;
  const action: ChargeAction = { kind: 'exhibitor-search', companyName: account.label, page: 1 };
  const quote = await quoteCharge(action, deps.charge.eis);
  // The precheck refuses (or says it would find nothing to charge for): nothing is reserved or run.
  if (quote.refusal || quote.price.credits <= 0) return free;
  const spend = { month, credits: quote.price.credits, budget: settings.budgetCredits };
  if (!(await deps.watchLists.reserveSpend(settings.teamId, settings.channelId, spend))) return free;
  return claimAndCharge(paid, run, account, { month, action, price: quote.price }, free);
}
