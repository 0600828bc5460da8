import * as z from 'zod';

/*
 * Response shapes. Spec-shown shapes follow the spec exactly (nullable where it says "or null"); where the
 * spec does not say which members are required, the OpenAPI `required` list decides. Shapes the spec leaves
 * out come from the OpenAPI document (see ASSUMPTIONS.md). Every object is loose: unknown members pass.
 */

const nullableString = z.string().nullable();
const nullableInt = z.number().int().nullable();
const stringArray = z.array(z.string());

// ---------- shared ----------

/** The ApiError body: code, message, errorKey, traceId. */
export const ApiErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  errorKey: z.string(),
  traceId: z.string(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

const pageFields = {
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
  hasMore: z.boolean(),
};

/** The pagination envelope shared by list endpoints, over one item schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({ items: z.array(item), ...pageFields });
}

/** Semantics of event-scoped exhibitor and personnel lists (preview or full access). */
export const SemanticsSchema = z.looseObject({
  accessMode: z.string().exactOptional(),
  previewLimit: nullableInt.exactOptional(),
  counts: z
    .looseObject({
      actualTotal: z.number().int().exactOptional(),
      visibleTotal: z.number().int().exactOptional(),
      remainingLockedCount: z.number().int().exactOptional(),
    })
    .exactOptional(),
  pageState: z
    .looseObject({
      requestedPage: z.number().int().exactOptional(),
      accessible: z.boolean().exactOptional(),
      maxAccessiblePage: z.number().int().exactOptional(),
    })
    .exactOptional(),
  unlock: z
    .looseObject({
      requiredForMoreResults: z.boolean().exactOptional(),
      actionType: nullableString.exactOptional(),
      credits: nullableInt.exactOptional(),
    })
    .exactOptional(),
  guidance: z
    .looseObject({ code: z.string().exactOptional(), message: z.string().exactOptional() })
    .exactOptional(),
});
export type Semantics = z.infer<typeof SemanticsSchema>;

// ---------- events ----------

const eventFields = {
  id: z.string(),
  eventId: z.string(),
  name: nullableString,
  nickname: nullableString.exactOptional(),
  description: nullableString.exactOptional(),
  url: nullableString.exactOptional(),
  dateStart: z.iso.date().nullable().exactOptional(),
  dateEnd: z.iso.date().nullable().exactOptional(),
  venue: nullableString.exactOptional(),
  city: nullableString.exactOptional(),
  region: nullableString.exactOptional(),
  country: nullableString.exactOptional(),
  exhibitorCount: nullableInt.exactOptional(),
  hasVisitors: z.boolean().exactOptional(),
  sponsorMatchStarred: z.number().int().min(0).max(1).exactOptional(),
  image: nullableString.exactOptional(),
  dataSource: z.string().exactOptional(),
};

/** Event summary (EventItem): id, eventId and name required; the rest optional. */
export const EventItemSchema = z.looseObject(eventFields);
export type EventItem = z.infer<typeof EventItemSchema>;

export const EventPageSchema = pageSchema(EventItemSchema);
export type EventPage = z.infer<typeof EventPageSchema>;

/** Event detail: OpenAPI `{ event: EventDetail }`, EventDetail extending the summary. */
export const EventDetailSchema = z.looseObject({
  ...eventFields,
  latitude: nullableString.exactOptional(),
  longitude: nullableString.exactOptional(),
  attendeeCount: nullableInt.exactOptional(),
  priceLower: nullableString.exactOptional(),
  priceUpper: nullableString.exactOptional(),
  eventType: nullableString.exactOptional(),
  categories: z.array(z.looseObject({})).exactOptional(),
  topics: stringArray.exactOptional(),
  topicsCount: z.number().int().exactOptional(),
  verified: z.number().int().exactOptional(),
  future: z.number().int().exactOptional(),
  historic: z.number().int().exactOptional(),
  historicEvent: nullableString.exactOptional(),
  personnelCount: nullableInt.exactOptional(),
  eventTypes: z.array(z.looseObject({})).exactOptional(),
});
export type EventDetail = z.infer<typeof EventDetailSchema>;
export const EventDetailResponseSchema = z.looseObject({ event: EventDetailSchema });

/** Event fit score result (spec). */
export const FitScoreSchema = z.looseObject({
  event: EventItemSchema,
  score: z.number().min(0).max(10),
  recommendation: z.enum(['recommended', 'consider', 'not_recommended']),
  breakdown: z.looseObject({
    profile_match: z.number(),
    matched_exhibitor_density: z.number(),
    event_scale: z.number(),
  }),
});
export type FitScore = z.infer<typeof FitScoreSchema>;

/** Event rank (OpenAPI): `{ items: EventRankItem[] }`. */
export const EventRankItemSchema = z.looseObject({
  event_id: z.string(),
  name: nullableString,
  rank: z.number().int(),
  match_score: z.number(),
  reasons: stringArray,
});
export type EventRankItem = z.infer<typeof EventRankItemSchema>;
export const EventRankSchema = z.looseObject({ items: z.array(EventRankItemSchema) });
export type EventRank = z.infer<typeof EventRankSchema>;

// ---------- unlock results: three spellings of "credits spent", normalised to `creditsSpent` ----------

// `.optional()` here and on `sourceType` (elsewhere `.exactOptional()`): a member present as
// `undefined` is normalised like an absent one.
const creditSpellings = {
  creditsSpent: z.number().optional(),
  creditsUsed: z.number().optional(),
  totalCreditsUsed: z.number().optional(),
};
type Spelling = keyof typeof creditSpellings;
const SPELLINGS = Object.keys(creditSpellings) as Spelling[];

// `| undefined`: zod's optional members come out as `number | undefined`.
type CreditSpellings = { [K in Spelling]?: number | undefined };

function spentOf(value: CreditSpellings): number | undefined {
  return value.creditsSpent ?? value.creditsUsed ?? value.totalCreditsUsed;
}

/** `Omit` that keeps the known members of a type with an index signature (loose objects). */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** Drops the alternative spellings so that one field, `creditsSpent`, carries the amount. */
function normaliseSpent<T extends CreditSpellings, N extends number | null>(
  value: T,
  spent: N,
): Without<T, Spelling> & { creditsSpent: N } {
  // Deleted at run time, not omitted by the schema: a loose object would pass omitted members through.
  const rest: Record<string, unknown> = { ...value };
  for (const spelling of SPELLINGS) delete rest[spelling];
  // TypeScript cannot follow the deletes; `Without` names what is left.
  return { ...rest, creditsSpent: spent } as Without<T, Spelling> & { creditsSpent: N };
}

function withRequiredSpent<T extends CreditSpellings>(value: T, ctx: z.RefinementCtx) {
  const spent = spentOf(value);
  if (spent === undefined) {
    ctx.addIssue({ code: 'custom', message: 'no creditsSpent, creditsUsed or totalCreditsUsed member' });
    return z.NEVER;
  }
  return normaliseSpent(value, spent);
}

/** Credit balance (OpenAPI CreditBalance). */
export const CreditBalanceSchema = z.looseObject({
  totalAmount: z.number(),
  totalBalance: z.number(),
  subscriptionAmount: z.number(),
  subscriptionBalance: z.number(),
  addonAmount: z.number(),
  addonBalance: z.number(),
  addonExpireAt: z.number().nullable(),
  giftAmount: z.number(),
  giftBalance: z.number(),
  resetAt: z.number().nullable(),
});
export type CreditBalance = z.infer<typeof CreditBalanceSchema>;

/** `balanceAfter` of unlock results: OpenAPI gives two shapes; both carry totalBalance. */
const BalanceAfterSchema = z
  .union([
    CreditBalanceSchema,
    z.looseObject({
      subscriptionBalance: z.number(),
      permanentBalance: z.number(),
      totalBalance: z.number(),
      unlimited: z.boolean(),
    }),
  ])
  .nullable();

const EventUnlockIdentitySchema = z.looseObject({
  id: z.string(),
  eventId: z.string(),
  name: nullableString,
});

export const EventUnlockResultSchema = z
  .looseObject({
    success: z.boolean(),
    alreadyUnlocked: z.boolean(),
    ...creditSpellings,
    balanceAfter: BalanceAfterSchema,
    event: EventUnlockIdentitySchema,
  })
  .transform(withRequiredSpent);
export type EventUnlockResult = z.infer<typeof EventUnlockResultSchema>;

export const VisitorUnlockResultSchema = EventUnlockResultSchema;
export type VisitorUnlockResult = z.infer<typeof VisitorUnlockResultSchema>;

export const FullAccessUnlockResultSchema = z
  .looseObject({
    success: z.boolean(),
    alreadyUnlocked: z.boolean(),
    eventUnlocked: z.boolean(),
    visitorUnlocked: z.boolean(),
    visitorSkipped: z.boolean(),
    ...creditSpellings,
    balanceAfter: BalanceAfterSchema,
    event: EventUnlockIdentitySchema,
  })
  .transform(withRequiredSpent);
export type FullAccessUnlockResult = z.infer<typeof FullAccessUnlockResultSchema>;

/** Email or phone unlock submission (OpenAPI ContactUnlockSubmission); `creditsSpent` null when not reported. */
export const ContactUnlockSubmissionSchema = z
  .looseObject({
    status: z.enum(['accepted', 'success']),
    task_id: z
      .string()
      .regex(/^[0-9]+$/)
      .exactOptional(),
    job_id: z
      .string()
      .regex(/^[0-9]+$/)
      .exactOptional(),
    skipped_personnel_ids: stringArray.exactOptional(),
    skipped_detail: z
      .looseObject({
        invalid_personnel_ids: stringArray.exactOptional(),
        missing_personnel_ids: stringArray.exactOptional(),
        unlinked_personnel_ids: stringArray.exactOptional(),
        already_unlocked_personnel_ids: stringArray.exactOptional(),
        unlocking_personnel_ids: stringArray.exactOptional(),
      })
      .exactOptional(),
    ...creditSpellings,
  })
  .superRefine((value, ctx) => {
    if (value.status === 'accepted' && value.task_id === undefined && value.job_id === undefined) {
      ctx.addIssue({ code: 'custom', message: 'an accepted submission carries task_id' });
    }
  })
  .transform((value) => ({
    ...normaliseSpent(value, spentOf(value) ?? null),
    // task_id and job_id are aliases: one normalised member to poll with
    taskId: value.task_id ?? value.job_id ?? null,
  }));
export type ContactUnlockSubmission = z.infer<typeof ContactUnlockSubmissionSchema>;

const taskStatus = z.enum(['pending', 'processing', 'completed', 'failed']);
const taskItemStatus = z.enum(['pending', 'processing', 'unlocked', 'failed']);

const TaskItemSchema = z.looseObject({
  personnelId: z.string(),
  status: taskItemStatus,
  errorCode: z.string().exactOptional(),
});

/** An unlock task whose items carry `item`'s extra member (the unlocked email or phone). */
const unlockTaskOf = <Item extends z.ZodType>(item: Item) =>
  z.looseObject({ taskId: z.string(), taskStatus, items: z.array(item) });

/** Email unlock task (spec: taskStatus, per-item status, email; the rest from OpenAPI ContactUnlockTask). */
export const EmailUnlockTaskSchema = unlockTaskOf(
  TaskItemSchema.extend({ email: nullableString.exactOptional() }),
);
export type EmailUnlockTask = z.infer<typeof EmailUnlockTaskSchema>;

/** Phone unlock task (OpenAPI PhoneUnlockTask). */
export const PhoneUnlockTaskSchema = unlockTaskOf(
  TaskItemSchema.extend({ phone: nullableString.exactOptional() }),
);
export type PhoneUnlockTask = z.infer<typeof PhoneUnlockTaskSchema>;

// ---------- actions ----------

/** Action precheck response (OpenAPI ActionPrecheckResponse). */
export const PrecheckResponseSchema = z.looseObject({
  ok: z.boolean(),
  action_type: z.string(),
  allowed: z.boolean(),
  should_charge: z.boolean(),
  credits: z.number().int(),
  reason_code: z.string(),
  biz_code: z.string(),
  detail: z.looseObject({}),
});
export type PrecheckResponse = z.infer<typeof PrecheckResponseSchema>;

// ---------- exhibitors ----------

/** Exhibitor summary (spec); also the item of company-name and company-context searches. */
export const ExhibitorItemSchema = z.looseObject({
  id: z.string(),
  companyName: z.string(),
  domain: nullableString.exactOptional(),
  description: nullableString.exactOptional(),
  website: nullableString.exactOptional(),
  industry: nullableString.exactOptional(),
  employeeCount: nullableInt.exactOptional(),
  country: nullableString.exactOptional(),
  logo: nullableString.exactOptional(),
  linkedinUrl: nullableString.exactOptional(),
  fundingRound: nullableString.exactOptional(),
  matched_event_ids: stringArray,
  isRecommended: z.boolean().exactOptional(),
  recommendationRank: nullableInt.exactOptional(),
  matchStatus: nullableString.exactOptional(),
  matchScore: z.number().nullable().exactOptional(),
  matchTier: nullableString.exactOptional(),
  matchReason: nullableString.exactOptional(),
  techStacks: stringArray.exactOptional(),
  categories: stringArray.exactOptional(),
  dataSource: z.string().exactOptional(),
});
export type ExhibitorItem = z.infer<typeof ExhibitorItemSchema>;

export const ExhibitorPageSchema = pageSchema(ExhibitorItemSchema);
export type ExhibitorPage = z.infer<typeof ExhibitorPageSchema>;

/** Event-scoped exhibitors list: page + recommendationProcessing + semantics. */
export const ExhibitorListPageSchema = z.looseObject({
  ...ExhibitorPageSchema.shape,
  recommendationProcessing: z.boolean().exactOptional(),
  semantics: SemanticsSchema.exactOptional(),
});
export type ExhibitorListPage = z.infer<typeof ExhibitorListPageSchema>;

/** Company name → events: event summaries plus matchedExhibitors. */
export const EventSearchItemSchema = z.looseObject({
  ...eventFields,
  matchedExhibitors: z.array(z.looseObject({ id: z.string(), companyName: z.string() })),
});
export type EventSearchItem = z.infer<typeof EventSearchItemSchema>;
export const EventSearchPageSchema = pageSchema(EventSearchItemSchema);
export type EventSearchPage = z.infer<typeof EventSearchPageSchema>;

// ---------- recommendations ----------

/**
 * A recommended exhibitor's item-level `reason`: the spec gives it no type (the OpenAPI: string or
 * null), so any value parses; text, or a list of texts, is kept, anything else counts as no reason.
 */
const ItemReasonSchema = z.unknown().transform((value): string | null => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
    return value.join('; ');
  }
  return null;
});

/** Recommended exhibitor item (spec table; later-revision members optional). */
export const RecommendedExhibitorSchema = z.looseObject({
  id: z.string(),
  companyName: z.string(),
  description: nullableString.exactOptional(),
  logo: nullableString.exactOptional(),
  website: nullableString.exactOptional(),
  country: nullableString.exactOptional(),
  industry: nullableString.exactOptional(),
  categories: stringArray.exactOptional(),
  employeeCount: nullableInt.exactOptional(),
  companySize: nullableString.exactOptional(),
  fundingRound: nullableString.exactOptional(),
  techStacks: stringArray.exactOptional(),
  reason: ItemReasonSchema.exactOptional(),
});
export type RecommendedExhibitor = z.infer<typeof RecommendedExhibitorSchema>;

export const RecommendedExhibitorPageSchema = z.looseObject({
  ...pageSchema(RecommendedExhibitorSchema).shape,
  recommendationProcessing: z.boolean().exactOptional(),
  code: nullableString.exactOptional(),
  show_refresh_hint: z.boolean().exactOptional(),
});
export type RecommendedExhibitorPage = z.infer<typeof RecommendedExhibitorPageSchema>;

// ---------- personnel ----------

/** `sourceType`: an array since 0.24.0, a nullable string before; always normalised to an array. */
export const SourceTypeSchema = z
  .union([stringArray, z.string(), z.null()])
  .optional()
  .transform((value): string[] => {
    if (value === null || value === undefined) return [];
    if (typeof value === 'string') {
      return value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    }
    return value;
  });

export const PersonnelItemSchema = z.looseObject({
  id: z.string(),
  fullName: z.string(),
  title: nullableString.exactOptional(),
  department: nullableString.exactOptional(),
  seniorityLevel: nullableString.exactOptional(),
  linkedinUrl: nullableString.exactOptional(),
  companyName: nullableString.exactOptional(),
  sourceType: SourceTypeSchema,
  email: nullableString.exactOptional(),
  contactUnlockStatus: z.string(),
});
export type PersonnelItem = z.infer<typeof PersonnelItemSchema>;

/** A row of an event's people (OpenAPI ContactItem): a phone only where it is unlocked for the account. */
const PersonnelListItemSchema = PersonnelItemSchema.extend({
  phone: nullableString.exactOptional(),
  phoneUnlockStatus: nullableString.exactOptional(),
});

export const PersonnelListPageSchema = z.looseObject({
  ...pageSchema(PersonnelListItemSchema).shape,
  semantics: SemanticsSchema.exactOptional(),
});
export type PersonnelListPage = z.infer<typeof PersonnelListPageSchema>;

// ---------- agent files ----------

export const AgentFileSchema = z.looseObject({
  id: z.string(),
  fileName: z.string(),
  fileSize: nullableInt,
  mimeType: z.string(),
  status: z.string(),
  createdAt: z.string(),
});
export type AgentFile = z.infer<typeof AgentFileSchema>;
export const AgentFilePageSchema = pageSchema(AgentFileSchema);
export type AgentFilePage = z.infer<typeof AgentFilePageSchema>;

// ---------- account research, contacts, outreach, profile matching (OpenAPI shapes: the spec shows none) ----------

/** LinkedIn activity of a contact (OpenAPI ContactItem.linkedinActivity). */
export const LinkedinActivitySchema = z.looseObject({
  activityLevel: z.string().exactOptional(),
  isActive: z.boolean().exactOptional(),
  latestPostAt: nullableString.exactOptional(),
});

/** The members the OpenAPI ContactItem adds to the spec's personnel item (phone, LinkedIn, outreach). */
const contactExtras = {
  phone: nullableString.exactOptional(),
  phoneUnlockStatus: nullableString.exactOptional(),
  linkedinActivity: LinkedinActivitySchema.nullable().exactOptional(),
  linkedinActivityStatus: nullableString.exactOptional(),
  eventCount: nullableInt.exactOptional(),
  outreachMessageStatus: nullableString.exactOptional(),
  outreachMessageChannels: stringArray.exactOptional(),
};

/** Personnel profile: the personnel item plus the contact members (OpenAPI ContactItem). */
export const PersonnelProfileSchema = PersonnelItemSchema.extend(contactExtras);
export type PersonnelProfile = z.infer<typeof PersonnelProfileSchema>;

/** Contact search item (OpenAPI ContactItem: `fullName` may be null). */
export const ContactItemSchema = PersonnelItemSchema.extend({ ...contactExtras, fullName: nullableString });
export type ContactItem = z.infer<typeof ContactItemSchema>;
export const ContactPageSchema = pageSchema(ContactItemSchema);
export type ContactPage = z.infer<typeof ContactPageSchema>;

/** Event brief (OpenAPI getEventBrief): the event summary plus coverage counts. */
export const EventBriefSchema = z.looseObject({
  event: EventItemSchema,
  summary: z.looseObject({
    attendeeCount: nullableInt.exactOptional(),
    exhibitorCount: z.number().int().exactOptional(),
    topCategories: stringArray.exactOptional(),
    dataFreshness: z.string().exactOptional(),
  }),
});
export type EventBrief = z.infer<typeof EventBriefSchema>;

/** An event of a company or person reverse lookup; `attendance_identity` kept as plain strings. */
export const RelatedEventItemSchema = z.looseObject({
  ...eventFields,
  attendance_identity: stringArray.exactOptional(),
});
export type RelatedEventItem = z.infer<typeof RelatedEventItemSchema>;
export const RelatedEventPageSchema = pageSchema(RelatedEventItemSchema);
export type RelatedEventPage = z.infer<typeof RelatedEventPageSchema>;

/** Exhibitor profile (OpenAPI ExhibitorProfile): the exhibitor summary plus compact event references. */
export const ExhibitorProfileSchema = ExhibitorItemSchema.extend({
  events: z
    .array(
      z.looseObject({
        id: z.string().exactOptional(),
        eventId: z.string().exactOptional(),
        name: nullableString.exactOptional(),
      }),
    )
    .exactOptional(),
});
export type ExhibitorProfile = z.infer<typeof ExhibitorProfileSchema>;

/** Events by LinkedIn URL: the matched person and a page of their events. */
export const LinkedinEventsSchema = z.looseObject({
  personnel: ContactItemSchema,
  events: RelatedEventPageSchema,
});
export type LinkedinEvents = z.infer<typeof LinkedinEventsSchema>;

const numericString = z.string().regex(/^[0-9]+$/);

/** One person's result of a LinkedIn activity unlock (OpenAPI LinkedinActivityUnlockItem). */
export const LinkedinActivityUnlockItemSchema = z.looseObject({
  personnel_id: z.string(),
  success: z.boolean(),
  alreadyUnlocked: z.boolean(),
  taskId: numericString.nullable(),
  error: nullableString,
});
export const LinkedinActivityUnlockSchema = z.looseObject({
  items: z.array(LinkedinActivityUnlockItemSchema),
});
export type LinkedinActivityUnlock = z.infer<typeof LinkedinActivityUnlockSchema>;

/** Outreach generation accepted (OpenAPI OutreachMessageResponse). */
export const OutreachGenerationSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      personnel_id: z.string(),
      success: z.boolean(),
      taskId: numericString.nullable(),
      error: nullableString,
    }),
  ),
  taskCenterId: numericString.nullable().exactOptional(),
});
export type OutreachGeneration = z.infer<typeof OutreachGenerationSchema>;

const linkedinVariant = z.looseObject({
  subject: z.string().exactOptional(),
  body: z.string().exactOptional(),
});

/** Outreach detail (OpenAPI OutreachDetail): `found: false` while not generated or not ready. */
export const OutreachDetailSchema = z.looseObject({
  found: z.boolean(),
  channels: stringArray,
  messages: z.looseObject({
    email: nullableString.exactOptional(),
    linkedin_message: nullableString.exactOptional(),
    linkedin: z
      .looseObject({
        inmail: linkedinVariant.exactOptional(),
        connection_note: linkedinVariant.exactOptional(),
        connected_message: linkedinVariant.exactOptional(),
      })
      .exactOptional(),
  }),
  reason: nullableString.exactOptional(),
  sources: z.array(z.looseObject({})).exactOptional(),
  outreach_purpose: nullableString.exactOptional(),
  tone: nullableString.exactOptional(),
  status: nullableString.exactOptional(),
  create_time: nullableInt.exactOptional(),
  update_time: nullableInt.exactOptional(),
});
export type OutreachDetail = z.infer<typeof OutreachDetailSchema>;

/** One recommended event (OpenAPI ProfileRecommendedEvent: an event detail plus the match evidence). */
export const RecommendedEventSchema = EventDetailSchema.extend({
  matched_exhibitor_count: z.number().int(),
  matched_personnel_count: z.number().int(),
  match_score: z.number().nullable(),
  unlocked: z.boolean(),
  rank: z.number().int(),
  relevanceReason: nullableString.exactOptional(),
  declaredExpectedAttendees: nullableInt.exactOptional(),
  estimatedExpectedAttendees: nullableString.exactOptional(),
  quality: nullableString.exactOptional(),
  sourceTags: stringArray.exactOptional(),
  previewPersonnelCount: nullableInt.exactOptional(),
});
export type RecommendedEvent = z.infer<typeof RecommendedEventSchema>;

/** Recommended events for a profile (OpenAPI ProfileEventRecommendationPage); `status` kept as a string. */
export const RecommendedEventPageSchema = z.looseObject({
  ...pageSchema(RecommendedEventSchema).shape,
  status: z.string(),
  condition_tags: z.record(z.string(), z.unknown()),
  profile_version: nullableInt,
  active_result_version: nullableInt,
  is_stale: z.boolean(),
});
export type RecommendedEventPage = z.infer<typeof RecommendedEventPageSchema>;
