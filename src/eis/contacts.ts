import * as z from 'zod';
import { type EisCore, pathOf } from './core.ts';
import { EventIdInput, NumericIdInput, PageInput, pageSizeInput, parseInput, TaskIdInput } from './input.ts';
import {
  type ContactPage,
  ContactPageSchema,
  type ContactUnlockSubmission,
  ContactUnlockSubmissionSchema,
  type EmailUnlockTask,
  EmailUnlockTaskSchema,
  type PhoneUnlockTask,
  PhoneUnlockTaskSchema,
} from './schemas.ts';

export const UnlockContactsInputSchema = z.object({
  personnelIds: z.array(NumericIdInput).min(1, 'no personnel ids').max(2000, 'more than 2000 personnel ids'),
  eventId: EventIdInput.optional(),
});

/** `role` and `person_name` narrow a company-scoped search; blank values are ignored by the service. */
export const ContactSearchInputSchema = z.object({
  companyName: z.string().trim().min(1, 'company name is empty').max(200),
  role: z.string().trim().min(1).max(200).optional(),
  personName: z.string().trim().min(1).max(200).optional(),
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type ContactSearchInput = z.input<typeof ContactSearchInputSchema>;

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
    (operation: string, path: string) =>
    async (ids: readonly string[], options: UnlockContactsOptions = {}) => {
      const valid = parseInput(operation, UnlockContactsInputSchema, {
        personnelIds: ids,
        eventId: options.eventId,
      });
      return core.request({
        operation,
        method: 'POST',
        path,
        body: { personnel_ids: valid.personnelIds, event_id: valid.eventId },
        charging: true,
        schema: ContactUnlockSubmissionSchema,
      });
    };
  return {
    async search(input) {
      const valid = parseInput('contacts.search', ContactSearchInputSchema, input);
      return core.request({
        operation: 'contacts.search',
        method: 'GET',
        path: '/external/contacts/search',
        query: {
          company_name: valid.companyName,
          role: valid.role,
          person_name: valid.personName,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: false,
        schema: ContactPageSchema,
      });
    },
    unlockEmails: unlock('contacts.unlockEmails', '/external/contacts/unlock'),
    async emailTask(taskId) {
      const id = parseInput('contacts.emailTask', TaskIdInput, taskId);
      return core.request({
        operation: 'contacts.emailTask',
        method: 'GET',
        path: pathOf`/external/contacts/unlock-tasks/${id}`,
        charging: false,
        schema: EmailUnlockTaskSchema,
      });
    },
    unlockPhones: unlock('contacts.unlockPhones', '/external/contacts/unlock-phone'),
    async phoneTask(taskId) {
      const id = parseInput('contacts.phoneTask', TaskIdInput, taskId);
      return core.request({
        operation: 'contacts.phoneTask',
        method: 'GET',
        path: pathOf`/external/contacts/unlock-phone-tasks/${id}`,
        charging: false,
        schema: PhoneUnlockTaskSchema,
      });
    },
  };
}
