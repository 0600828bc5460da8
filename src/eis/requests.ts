import * as z from 'zod';
import {
  CompanyScopeInput,
  DateInput,
  EventIdInput,
  ExhibitorIdInput,
  FlagInput,
  HttpUrlInput,
  listInput,
  NumericIdInput,
  PageInput,
  pageSizeInput,
  PersonnelIdsInput,
  PersonScopeInput,
  textInput,
} from './input.ts';
import { OutreachOptionsSchema } from './outreach-options.ts';
import { SOURCE_TYPES } from './source-types.ts';

/*
 * What each operation takes, checked before any HTTP call: the request schemas of the operation table
 * (`operations.ts`). Camel-cased; each area module puts the values under their wire names.
 */

/** An operation that takes nothing. */
export const NoInput = z.undefined();

// actions

export const PrecheckInputSchema = z.object({
  /** e.g. unlock_event_contacts, unlock_event_visitors, unlock_event_full_access, search_personnel_events_by_name */
  actionType: z.string().min(1).max(100),
  /** Action-specific inputs, such as `{ event_id }`. */
  params: z.record(z.string(), z.unknown()),
  locale: z.string().min(1).max(20).optional(),
  traceId: z.string().min(1).max(200).optional(),
});
export type PrecheckInput = z.input<typeof PrecheckInputSchema>;

// events

export const EventListQuerySchema = z.object({
  page: PageInput,
  pageSize: pageSizeInput(100),
  keyword: textInput(200),
  country: textInput(100),
  city: textInput(100),
  dateStartFrom: DateInput,
  dateStartTo: DateInput,
  eventType: listInput(200),
  quality: listInput(200),
  sponsorMatchStarred: FlagInput,
  hasVisitors: FlagInput,
});
export type EventListQuery = z.input<typeof EventListQuerySchema>;

export const RankInputSchema = z.object({ eventIds: z.array(EventIdInput).min(1).max(100) });
export type RankInput = z.input<typeof RankInputSchema>;

// exhibitors

export const ExhibitorListQuerySchema = z.object({
  eventId: EventIdInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
  keyword: textInput(200),
  country: textInput(100),
  category: listInput(200),
  industry: listInput(200),
  jobTitle: listInput(200),
  managementLevel: listInput(200),
  department: listInput(200),
  personnelLimit: z.number().int().min(0).optional(),
});
export type ExhibitorListQuery = z.input<typeof ExhibitorListQuerySchema>;

export const ContextSearchInputSchema = z
  .object({
    companyUrl: z.url({ protocol: /^https?$/ }).optional(),
    targetAudience: z.string().trim().min(1).max(2000).optional(),
    page: PageInput,
    pageSize: pageSizeInput(100),
  })
  .refine((input) => input.companyUrl !== undefined || input.targetAudience !== undefined, {
    message: 'give companyUrl or targetAudience',
  });
export type ContextSearchInput = z.input<typeof ContextSearchInputSchema>;

const companyName = z.string().trim().min(1, 'company name is empty').max(200);

export const CompanyNameSearchInputSchema = z.object({
  companyName,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type CompanyNameSearchInput = z.input<typeof CompanyNameSearchInputSchema>;

export const EventSearchInputSchema = z.object({
  companyName,
  sponsorMatchStarred: FlagInput,
  attendanceScope: CompanyScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventSearchInput = z.input<typeof EventSearchInputSchema>;

export const ExhibitorEventsQuerySchema = z.object({
  exhibitorId: ExhibitorIdInput,
  attendanceScope: CompanyScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type ExhibitorEventsQuery = z.input<typeof ExhibitorEventsQuerySchema>;

// personnel

export const PersonnelListQuerySchema = z.object({
  eventId: EventIdInput,
  page: PageInput,
  // the spec states both 100 and 50 as the maximum for personnel lists: 50 is valid under either
  pageSize: pageSizeInput(50),
  exhibitorId: NumericIdInput.optional(),
  department: textInput(100),
  level: textInput(50),
  searchQuery: textInput(200),
  sourceType: z.array(z.enum(SOURCE_TYPES)).min(1).optional(),
});
export type PersonnelListQuery = z.input<typeof PersonnelListQuerySchema>;

export const PersonnelProfileInputSchema = z.object({ personnelId: NumericIdInput });

export const PersonEventsOptionsSchema = z.object({
  pageSize: pageSizeInput(100),
  attendanceScope: PersonScopeInput,
});
export type PersonEventsOptions = z.input<typeof PersonEventsOptionsSchema>;

export const PersonEventsInputSchema = PersonEventsOptionsSchema.extend({
  personnelId: NumericIdInput,
  page: PageInput,
});

export const EventsByNameInputSchema = z.object({
  personName: z.string().trim().min(1, 'person name is empty').max(200),
  attendanceScope: PersonScopeInput,
  dateStartFrom: DateInput,
  dateStartTo: DateInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventsByNameInput = z.input<typeof EventsByNameInputSchema>;

export const EventsByLinkedinInputSchema = z.object({
  linkedinUrl: HttpUrlInput,
  attendanceScope: PersonScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventsByLinkedinInput = z.input<typeof EventsByLinkedinInputSchema>;

export const LinkedinActivityInputSchema = z.object({
  personnelIds: PersonnelIdsInput,
  // the OpenAPI's LinkedinActivityUnlockRequest allows at most 20 characters here
  eventId: z.string().min(1).max(20).optional(),
});

// contacts

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

// outreach

// Both ids are numeric strings of at most 20 characters (OpenAPI OutreachMessageRequest, getOutreachDetail).
const OutreachIdInput = z.string().regex(/^[0-9]{1,20}$/, 'expected a numeric id');

export const OutreachGenerationInputSchema = OutreachOptionsSchema.extend({
  personnelIds: PersonnelIdsInput,
  /** The event's internal `id` (not its public `eventId`): the service requires it here (0.26.0). */
  eventId: OutreachIdInput.optional(),
});
export type OutreachGenerationInput = z.input<typeof OutreachGenerationInputSchema>;

export const OutreachDetailInputSchema = z.object({
  personnelId: OutreachIdInput,
  /** The internal event `id` the drafts were generated for. */
  eventId: OutreachIdInput,
});
export type OutreachDetailInput = z.input<typeof OutreachDetailInputSchema>;

// recommendations

export const RecommendedExhibitorsQuerySchema = z
  .object({
    eventId: EventIdInput,
    page: PageInput,
    pageSize: pageSizeInput(100),
    location: textInput(200),
    searchQuery: textInput(500),
    exhibitorName: listInput(200),
    category: listInput(200),
    industry: listInput(200),
    employeesMin: z.number().int().min(0).optional(),
    employeesMax: z.number().int().min(0).optional(),
  })
  .refine(
    (q) => q.employeesMin === undefined || q.employeesMax === undefined || q.employeesMin <= q.employeesMax,
    { message: 'employeesMin is above employeesMax' },
  );
export type RecommendedExhibitorsQuery = z.input<typeof RecommendedExhibitorsQuerySchema>;

const count = z.number().int().min(0).optional();

/** Every member of the OpenAPI ProfileMatchingBody, camel-cased. */
export const RecommendedEventsInputSchema = z
  .object({
    companyUrl: HttpUrlInput.optional(),
    targetAudience: z.string().trim().min(1).max(2000).optional(),
    page: PageInput,
    pageSize: pageSizeInput(100),
    autoRecommendTop3EventsEnabled: z.boolean().optional(),
    city: textInput(100),
    region: textInput(100),
    country: textInput(100),
    category: listInput(200),
    eventTypeIds: z.array(z.number().int().min(0)).optional(),
    dateStartFrom: DateInput,
    dateStartTo: DateInput,
    future: FlagInput,
    attendeeCountMin: count,
    attendeeCountMax: count,
    linkedinUrl: HttpUrlInput.optional(),
    companyDescription: textInput(2000),
    industry: textInput(255),
    targetIndustry: listInput(255),
    plannedEvents: textInput(500),
    targetManagementLevel: listInput(100),
    targetJobTitles: listInput(255),
    timeoutMs: z.number().int().min(60_000).max(3_600_000).optional(),
  })
  .refine((q) => q.companyUrl !== undefined || q.targetAudience !== undefined, {
    message: 'give companyUrl or targetAudience',
  })
  .refine(
    (q) =>
      q.attendeeCountMin === undefined ||
      q.attendeeCountMax === undefined ||
      q.attendeeCountMin <= q.attendeeCountMax,
    { message: 'attendeeCountMin is above attendeeCountMax' },
  )
  .refine(
    (q) => q.dateStartFrom === undefined || q.dateStartTo === undefined || q.dateStartFrom <= q.dateStartTo,
    { message: 'dateStartFrom is after dateStartTo' },
  );
export type RecommendedEventsInput = z.input<typeof RecommendedEventsInputSchema>;
