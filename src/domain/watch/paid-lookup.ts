import { createHash } from 'node:crypto';
import { ConflictError } from '../../platform/errors.ts';
import type { ExhibitorPage } from '../../eis/index.ts';
import type { ChargeAction } from '../charging.ts';
import { quoteCharge } from '../charge-quote.ts';
import { type ConfirmationDeps, runCharge, storedOutcome } from '../confirmations.ts';
import type { PreApproval, WatchAccount, WatchSettings } from '../ports/records.ts';
import type { WatchExhibitor, WatchListRepository } from '../ports/watch.ts';
import { paidLookupAllowance } from './budget.ts';
import type { AccountLookup, LookupRun } from './lookup.ts';
import { matchAccount } from './names.ts';

/*
 * The paid name look-up of a scheduled check: for an account the free path did not find, one
 * `exhibitor-search` a month, taken from the channel's monthly budget and charged through the same
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
  watchLists: Pick<WatchListRepository, 'reserveSpend' | 'releaseSpend' | 'claimPaidLookup'>;
  /** Whether the user is still an admin or spend approver of the workspace (may pre-approve). */
  mayPreApprove: (teamId: string, userId: string) => Promise<boolean>;
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
  if (!(await deps.mayPreApprove(settings.teamId, setBy))) return null;
  return { deps, settings, setBy, left: PAID_LOOKUPS_PER_CHECK };
}

/** One id per channel, account and month: the charge record of that look-up. */
const confirmationIdOf = (settings: WatchSettings, key: string, month: string) =>
  `watch-${createHash('sha256').update(`${settings.teamId}\n${settings.channelId}\n${key}\n${month}`).digest('hex').slice(0, 32)}`;

const recordsOf = (page: ExhibitorPage): WatchExhibitor[] =>
  page.items.map(({ id, companyName, domain, website }) => ({
    id,
    companyName,
    domain: domain ?? null,
    website: website ?? null,
  }));

/** The search's results as a look-up: resolved only on an exact company name or domain match. */
async function lookupOf(run: LookupRun, key: string, page: ExhibitorPage, free: AccountLookup) {
  const match = matchAccount(key, recordsOf(page));
  if (match.kind === 'none') return free;
  if (match.kind === 'ambiguous') {
    const ids = match.candidates.map((candidate) => candidate.id);
    return { resolution: 'ambiguous' as const, exhibitorIds: ids, candidates: match.candidates, shows: [] };
  }
  const shows = await run.lookups.exhibitorShows(match.exhibitor.id);
  return { resolution: 'resolved' as const, exhibitorIds: [match.exhibitor.id], candidates: [], shows };
}

/**
 * Runs the charge of a reserved look-up as a confirmed charge runs: a confirmation claimed by the
 * budget's setter, then `runCharge` (write-ahead, the service once, settle). The results page when
 * it found something; null otherwise. Credits not spent go back to the budget.
 */
async function chargeLookup(
  paid: PaidLookupRun,
  key: string,
  action: ChargeAction,
  price: { credits: number; upTo: boolean },
  month: string,
): Promise<ExhibitorPage | null> {
  const { deps, settings, setBy } = paid;
  const { teamId, channelId } = settings;
  const release = () => deps.watchLists.releaseSpend(teamId, channelId, { month, credits: price.credits });
  const preApproval: PreApproval = { kind: 'watch-budget', setBy, channelId };
  const id = confirmationIdOf(settings, key, month);
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
    await release();
    return null;
  }
  const claim = await deps.charge.confirmations.claim(id, { by: setBy });
  if (claim.kind !== 'claimed') {
    await release();
    return null;
  }
  const result = await runCharge(id, deps.charge);
  // Not settled: the service may have charged; the reconciler settles it and the budget keeps it.
  if (result.kind !== 'settled') return null;
  const outcome = storedOutcome(result.confirmation);
  if (!outcome.outcomeUnknown && (outcome.creditsSpent ?? 0) === 0) await release();
  return result.results?.kind === 'exhibitors' && outcome.facts?.kind === 'search' && outcome.facts.found
    ? result.results.page
    : null;
}

/**
 * After the free path: an account still not found gets one paid name look-up a month, within the
 * budget and the daily cap, when the precheck does not refuse it. Any other look-up is returned as is.
 */
export async function withPaidLookup(
  paid: PaidLookupRun | null,
  run: LookupRun,
  account: Pick<WatchAccount, 'key' | 'label'>,
  free: AccountLookup,
): Promise<AccountLookup> {
  if (!paid || free.resolution !== 'not-found' || paid.left <= 0) return free;
  const allowance = paidLookupAllowance(paid.settings, 'exhibitor-search', paid.deps.charge.now());
  if (!allowance.allowed) return free;
  paid.left -= 1;
  const { deps, settings } = paid;
  const action: ChargeAction = { kind: 'exhibitor-search', companyName: account.label, page: 1 };
  const quote = await quoteCharge(action, deps.charge.eis);
  // The precheck refuses (or says it would find nothing to charge for): nothing is reserved or run.
  if (quote.refusal || quote.price.credits <= 0) return free;
  const { month } = allowance;
  const spend = { month, credits: quote.price.credits, budget: settings.budgetCredits };
  if (!(await deps.watchLists.reserveSpend(settings.teamId, settings.channelId, spend))) return free;
  if (!(await deps.watchLists.claimPaidLookup(settings.teamId, settings.channelId, account.key, month))) {
    await deps.watchLists.releaseSpend(settings.teamId, settings.channelId, spend);
    return free;
  }
  const page = await chargeLookup(paid, account.key, action, quote.price, month);
  return page ? lookupOf(run, account.key, page, free) : free;
}
