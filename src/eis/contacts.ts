import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { ContactSearchInput } from './requests.ts';
import type { ContactPage, ContactUnlockSubmission, EmailUnlockTask, PhoneUnlockTask } from './schemas.ts';

export interface UnlockContactsOptions {
  /** Optional event context; the service then checks the people belong to the event. */
  eventId?: string;
}

export interface ContactsApi {
  /** People at one company, narrowed by role and name; emails and phones stay locked. Free. */
  search(input: ContactSearchInput): Promise<ContactPage>;
  /** Start an asynchronous email unlock. CHARGES per chargeable contact. */
  unlockEmails(
    personnelIds: readonly string[],
    options?: UnlockContactsOptions,
  ): Promise<ContactUnlockSubmission>;
  /** Progress of an email unlock task. Free. */
  emailTask(taskId: string): Promise<EmailUnlockTask>;
  /** Start an asynchronous phone unlock. CHARGES 150 credits per chargeable contact. */
  unlockPhones(
    personnelIds: readonly string[],
    options?: UnlockContactsOptions,
  ): Promise<ContactUnlockSubmission>;
  /** Progress of a phone unlock task. Free. */
  phoneTask(taskId: string): Promise<PhoneUnlockTask>;
}

export function createContactsApi(core: EisCore): ContactsApi {
  const unlock =
    (row: ReturnType<typeof rowOf<'contacts.unlockEmails' | 'contacts.unlockPhones'>>) =>
    (ids: readonly string[], options: UnlockContactsOptions = {}) =>
      call(core, row, { personnelIds: ids, eventId: options.eventId }, (valid) => ({
        body: { personnel_ids: valid.personnelIds, event_id: valid.eventId },
      }));
  const byTaskId = (taskId: string) => ({ path: { taskId } });
  return {
    search: (input) =>
      call(core, rowOf('contacts.search'), input, (valid) => ({
        query: {
          company_name: valid.companyName,
          role: valid.role,
          person_name: valid.personName,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
    unlockEmails: unlock(rowOf('contacts.unlockEmails')),
    emailTask: (taskId) => call(core, rowOf('contacts.emailTask'), taskId, byTaskId),
    unlockPhones: unlock(rowOf('contacts.unlockPhones')),
    phoneTask: (taskId) => call(core, rowOf('contacts.phoneTask'), taskId, byTaskId),
  };
}
