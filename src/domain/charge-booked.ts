import type { Logger } from '../platform/log.ts';
import type { ChargeRepository, Confirmation, Settlement } from './ports/index.ts';

/**
 * What follows every booked charge, whoever or whatever booked it: a confirmed charge's worker, the
 * reconciler settling a charge whose worker died, the reconciler deciding an unknown outcome later, a
 * watch's paid look-up. The plan's budget warning is one (src/slack/features/plan/jobs.ts).
 */
export type ChargeBooked = (confirmation: Confirmation) => Promise<void>;

/**
 * The one place a booked charge is noticed: the charge records' settle and resolve, each followed by
 * `booked` once the charge is no longer running. What follows never fails the booking (it is logged):
 * the charge is done.
 */
export function bookingCharges<
  C extends Pick<ChargeRepository, 'settle'> & Partial<Pick<ChargeRepository, 'resolve'>>,
>(charges: C, booked: ChargeBooked, logger: Logger): C {
  const thenBooked =
    (book: (id: string, settlement: Settlement) => Promise<Confirmation | null>) =>
    async (id: string, settlement: Settlement) => {
      const confirmation = await book(id, settlement);
      if (confirmation && confirmation.status !== 'running')
        await booked(confirmation).catch((error: unknown) =>
          logger.error('a step after a booked charge failed', { confirmationId: id, error }),
        );
      return confirmation;
    };
  const { resolve } = charges;
  return overriding(charges, {
    settle: thenBooked(charges.settle),
    ...(resolve ? { resolve: thenBooked(resolve) } : {}),
  } as Partial<C>);
}

/** The store with its charge records booking through `bookingCharges`. */
export function withBookingCharges<
  S extends { charges: Pick<ChargeRepository, 'settle'> & Partial<Pick<ChargeRepository, 'resolve'>> },
>(store: S, booked: ChargeBooked, logger: Logger): S {
  return overriding(store, { charges: bookingCharges(store.charges, booked, logger) } as Partial<S>);
}

/**
 * `base` with some members replaced: the others are reached through it (a prototype), not copied, so
 * a repository whose members are computed on access (a wrapper, a proxy) keeps them all.
 */
function overriding<T extends object>(base: T, members: Partial<T>): T {
  return Object.assign(Object.create(base) as T, members);
}
