import { balanceOrNull, type ChargeAction, type ChargeEis, searchPage } from './charging.ts';
import {
  type ChargeOutcome,
  contactsUnlocking,
  eventUnlocked,
  linkedinOutcome,
  searchOutcome,
} from './charge-outcome.ts';
import { ServiceError, traceIdOf } from './ports/service.ts';

/** Running a charge: the one charging call of each kind of action, read into its outcome. */

/** The unlock's event context as its optional argument, when it has one. */
const unlockOptions = (eventId: string | undefined): [] | [{ eventId: string }] =>
  eventId ? [{ eventId }] : [];

/** Calls the charging operation once. Errors (typed `EisError`s) are the caller's to show. */
export async function executeCharge(action: ChargeAction, eis: ChargeEis): Promise<ChargeOutcome> {
  const { response, outcome } = await callService(action, eis);
  const traceId = traceIdOf(response);
  // Every card says the balance after its charge: read it when the reply did not carry it (LinkedIn's
  // outcome already read it). Null then means it could not be read.
  const balanceAfter =
    outcome.balanceAfter ?? (action.kind === 'linkedin-activity' ? null : await balanceOrNull(eis));
  return { ...outcome, balanceAfter, ...(traceId ? { traceId } : {}) };
}

/** The service's reply (its trace id is looked up by it) and what it did. */
interface ServiceReply {
  response: unknown;
  outcome: ChargeOutcome;
}

type ActionOf<K extends ChargeAction['kind']> = Extract<ChargeAction, { kind: K }>;
type ServiceCall<A extends ChargeAction> = (eis: ChargeEis, action: A) => Promise<ServiceReply>;

/** A service call of one kind: how to call the client, and how to read what it returns. */
function serviceCall<A extends ChargeAction, R>(
  call: (eis: ChargeEis, action: A) => Promise<R>,
  read: (result: R, action: A) => ChargeOutcome,
): ServiceCall<A> {
  return async (eis, action) => {
    const response = await call(eis, action);
    return { response, outcome: read(response, action) };
  };
}

/** The one charging call of each kind of action. */
const SERVICE_CALLS: { [K in ChargeAction['kind']]: ServiceCall<ActionOf<K>> } = {
  'event-unlock': serviceCall(
    (eis, a) => eis.events.unlock(a.eventId),
    (result, a) => eventUnlocked('event', result, a.eventId),
  ),
  'visitors-unlock': serviceCall(
    (eis, a) => eis.events.unlockVisitors(a.eventId),
    (result, a) => eventUnlocked('visitors', result, a.eventId),
  ),
  'full-access-unlock': serviceCall(
    (eis, a) => eis.events.unlockFullAccess(a.eventId),
    (result, a) => eventUnlocked('full-access', result, a.eventId),
  ),
  'email-unlock': serviceCall(
    (eis, a) => eis.contacts.unlockEmails(a.personnelIds, ...unlockOptions(a.fromEventId)),
    (submission, a) => contactsUnlocking('email', submission, a.personnelIds),
  ),
  'phone-unlock': serviceCall(
    (eis, a) => eis.contacts.unlockPhones(a.personnelIds, ...unlockOptions(a.fromEventId)),
    (submission, a) => contactsUnlocking('phone', submission, a.personnelIds),
  ),
  'people-by-name': serviceCall(
    (eis, a) => eis.personnel.eventsByName({ personName: a.fullName, ...searchPage(a.page) }),
    (page, a) => searchOutcome(a.kind, a.fullName, page, { kind: 'events', page }),
  ),
  'exhibitor-events': serviceCall(
    (eis, a) => eis.exhibitors.searchEvents({ companyName: a.companyName, ...searchPage(a.page) }),
    (page, a) => searchOutcome(a.kind, a.companyName, page, { kind: 'events', page }),
  ),
  'exhibitor-search': serviceCall(
    (eis, a) => eis.exhibitors.searchByCompanyName({ companyName: a.companyName, ...searchPage(a.page) }),
    (page, a) => searchOutcome(a.kind, a.companyName, page, { kind: 'exhibitors', page }),
  ),
  'linkedin-activity': serviceCall(async (eis, a) => {
    // The answer has no amount: the balance's drop is the best figure.
    const before = await balanceOrNull(eis);
    const answer = await eis.personnel.unlockLinkedinActivity(a.personnelIds);
    return { ...answer, before, after: await balanceOrNull(eis) };
  }, linkedinOutcome),
};

function callService(action: ChargeAction, eis: ChargeEis): Promise<ServiceReply> {
  // The entry for `action.kind` takes that kind of action; TypeScript cannot correlate the two by itself.
  const call = SERVICE_CALLS[action.kind] as ServiceCall<ChargeAction>;
  return call(eis, action);
}

/** A user-facing sentence for any error of a charge; never a stack or a secret. */
export function chargeErrorMessage(error: unknown): string {
  if (error instanceof ServiceError) return error.userMessage;
  return 'Something went wrong on our side; nothing more will be attempted for this confirmation.';
}
