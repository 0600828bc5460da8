import * as z from 'zod';
import { readTimeZone } from '../domain/schedule-words.ts';
import { type OutreachOptions, OutreachOptionsSchema } from '../domain/follow-up.ts';
import { type WorkspacePolicyInput, WorkspacePolicyInputSchema } from '../store/workspaces.ts';
import { parseCommand } from './commands/index.ts';
import { asCompanyUrl, readFilterWords } from './features/lists/filter-words.ts';
import type { ListOperations } from './features/lists/definition.ts';
import { LISTS } from './features/lists/index.ts';
import { ListKindSchema } from './button-values.ts';
import {
  type FilterMetadata,
  isFilterableList,
  type ResearchLookup,
  RESEARCH_LOOKUPS,
  SLACK_ZONE,
} from './views/modals.ts';
import { REMOVE_KEY_VALUE, SETTINGS_FIELDS, type SettingsMetadata } from './features/workspace-admin/views.ts';

/**
 * A modal's submission read back: what the user chose, as the `/events …` command text the worker
 * runs (so a modal and the command it stands for cannot drift apart), or field errors keyed by the
 * input's block id, for `response_action: errors`. Pure: values in, a verdict out.
 */

/** `view.state.values` as Slack sends it: `{ [blockId]: { [actionId]: { type, value | selected_… } } }`. */
export type ViewValues = Record<string, Record<string, unknown>>;

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

const FieldSchema = z
  .object({
    value: z.string().nullish(),
    selected_date: z.string().nullish(),
    selected_time: z.string().nullish(),
    selected_conversation: z.string().nullish(),
    selected_channel: z.string().nullish(),
    selected_option: z.object({ value: z.string() }).nullish(),
    selected_options: z.array(z.object({ value: z.string() })).nullish(),
  })
  .loose();

/** A field's value whatever its element, trimmed; undefined when empty or absent. */
export function fieldOf(values: ViewValues, field: string): string | undefined {
  const elements = Object.values(values[field] ?? {});
  for (const element of elements) {
    const parsed = FieldSchema.safeParse(element);
    if (!parsed.success) continue;
    const { data } = parsed;
    const raw =
      data.value ??
      data.selected_date ??
      data.selected_time ??
      data.selected_conversation ??
      data.selected_channel ??
      data.selected_option?.value ??
      data.selected_options?.map((picked) => picked.value).join(',');
    const trimmed = raw?.replace(/\s+/g, ' ').trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

/** `key:"value"`: quoted, so a value can hold spaces or words like `city:` without becoming a filter. */
const filterWord = (key: string, value: string | undefined) =>
  value ? `${key}:"${value.replace(/"/g, "'")}"` : undefined;

const commandText = (words: (string | undefined)[]) => words.filter(Boolean).join(' ');

/** Slack markup in the problem is fine in a modal's error (shown as plain text): drop the backticks. */
const plainProblem = (problem: string) => problem.replace(/`/g, '');

function dateRangeErrors(values: ViewValues): Record<string, string> {
  const from = fieldOf(values, 'from');
  const to = fieldOf(values, 'to');
  if (from && to && from > to) return { to: 'The end date is before the start date.' };
  return {};
}

/**
 * The parser's verdict on the text a modal made; its problem is shown on the field it names (`country:`
 * is longer than…), else on `field`.
 */
function checked(text: string, field: string, values: ViewValues): FormResult<string> {
  const parsed = parseCommand(text);
  if (parsed.ok) return { ok: true, value: text };
  const named = /`(\w+):/.exec(parsed.problem)?.[1];
  const where = named && named in values ? named : field;
  return { ok: false, errors: { [where]: plainProblem(parsed.problem) } };
}

/** A Slack conversation id: a channel, a private channel or a DM. */
export const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

function channelOf(values: ViewValues, errors: Record<string, string>): string {
  const channel = fieldOf(values, 'channel') ?? '';
  if (!CHANNEL_ID.test(channel)) errors.channel = 'Pick the channel to show the results in.';
  return channel;
}

export interface SearchSubmission {
  /** `search …`, as typed after `/events`. */
  text: string;
  channelId: string;
}

export function readSearchForm(values: ViewValues): FormResult<SearchSubmission> {
  const errors: Record<string, string> = dateRangeErrors(values);
  const channelId = channelOf(values, errors);
  const visitors = fieldOf(values, 'visitors') ?? 'any';
  if (!['any', 'yes', 'no'].includes(visitors)) errors.visitors = 'Choose Any, With or Without.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const text = commandText([
    'search',
    filterWord('keywords', fieldOf(values, 'keywords')),
    ...(['country', 'city', 'from', 'to', 'type', 'quality'] as const).map((key) =>
      filterWord(key, fieldOf(values, key)),
    ),
    visitors === 'any' ? undefined : `visitors:${visitors}`,
  ]);
  if (text === 'search') return { ok: false, errors: { keywords: 'Give some keywords or a filter.' } };
  const result = checked(text, 'keywords', values);
  return result.ok ? { ok: true, value: { text, channelId } } : result;
}

export const ResearchTargetSchema = z.union([
  z.object({ channelId: z.string().min(1), threadTs: z.string().min(1) }),
  z.object({ privately: z.literal(true) }),
]);

export interface ResearchSubmission {
  /** `similar …` or `exhibitor …`. */
  text: string;
  /** Set when the answer goes privately to a channel the user picked. */
  channelId?: string;
}

export function readResearchForm(values: ViewValues, privately: boolean): FormResult<ResearchSubmission> {
  const errors: Record<string, string> = {};
  const company = fieldOf(values, 'company');
  const lookup = fieldOf(values, 'lookup') ?? 'similar';
  const channelId = privately ? channelOf(values, errors) : undefined;
  if (!company) errors.company = 'Give a company name or website.';
  if (!(lookup in RESEARCH_LOOKUPS)) errors.lookup = 'Choose what to look up.';
  // A website by the rule `similar` uses to tell a website from audience text.
  else if (lookup === 'exhibitor' && company && asCompanyUrl(company))
    errors.company = 'Exhibitor records are found by company name; give the name, not the website.';
  if (!company || Object.keys(errors).length > 0) return { ok: false, errors };
  const text = `${lookup as ResearchLookup} ${company.replace(/"/g, '')}`;
  const result = checked(text, 'company', values);
  return result.ok ? { ok: true, value: { text, ...(channelId ? { channelId } : {}) } } : result;
}

/** A zone name's shape: one word, so it cannot read as another word of the command a modal makes. */
const ZONE_NAME = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/;

/**
 * A zone list's choice (`DIGEST_ZONES`): `SLACK_ZONE` (the requester's own), or any zone the command
 * parser reads, since a zone already set may be one the list lacks; else an error on `field`.
 */
function zoneOf(values: ViewValues, field: string, errors: Record<string, string>): string {
  const zone = fieldOf(values, field) ?? SLACK_ZONE;
  if (zone !== SLACK_ZONE && !(ZONE_NAME.test(zone) && readTimeZone(zone).ok))
    errors[field] = 'Pick a time zone from the list.';
  return zone;
}

/** `digest on 08:30 Europe/Berlin keywords:"…"`: the command the digest modal stands for. */
export function readDigestForm(values: ViewValues): FormResult<string> {
  const errors: Record<string, string> = dateRangeErrors(values);
  const time = fieldOf(values, 'time') ?? '';
  const zone = zoneOf(values, 'zone', errors);
  if (!/^\d{2}:\d{2}$/.test(time)) errors.time = 'Pick a time of day.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const text = commandText([
    'digest on',
    time,
    zone === SLACK_ZONE ? undefined : zone,
    ...(['keywords', 'country', 'city', 'from', 'to'] as const).map((key) =>
      filterWord(key, fieldOf(values, key)),
    ),
  ]);
  return checked(text, 'zone', values);
}

export const FilterMetadataSchema = z.object({
  list: ListKindSchema.refine(isFilterableList),
  query: z.record(z.string(), z.unknown()),
  channelId: z.string().min(1),
  responseUrl: z.string().optional(),
  inPlace: z.boolean(),
}) satisfies z.ZodType<FilterMetadata>;

/**
 * The list's query with exactly the modal's search words and filters (an emptied field clears its
 * filter), read by the rules the command's `key:value` words are read by.
 */
export function readFilterForm(
  values: ViewValues,
  metadata: FilterMetadata,
  { filterModal, filters }: ListOperations = LISTS[metadata.list],
): FormResult<Record<string, unknown>> {
  const search = filterModal?.search ?? { field: 'keywords' };
  const keys = Object.keys(filters);
  // One word per field: a value cannot be read as another filter, whatever it holds.
  const words = ['keywords', ...keys].flatMap((key) => {
    const value = fieldOf(values, key === 'keywords' ? search.field : key);
    return value ? [`${key}:${value}`] : [];
  });
  const read = readFilterWords(words, filters);
  if (read.problem) {
    const named = /`([\w-]+):/.exec(read.problem)?.[1] ?? '';
    const field = keys.includes(named) ? named : search.field;
    return { ok: false, errors: { [field]: plainProblem(read.problem) } };
  }
  return {
    ok: true,
    value: {
      eventId: metadata.query.eventId,
      ...(read.leading ? { [search.field]: read.leading } : {}),
      ...read.values,
    },
  };
}

/**
 * What a message names, to prefill "Research a company": its first link (Slack writes links as
 * `<https://…|label>`), else its first line without mentions or formatting, at most 200 characters.
 */
export function companyHint(messageText: string): string {
  const link =
    /<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/i.exec(messageText)?.[1] ?? /https?:\/\/\S+/i.exec(messageText)?.[0];
  if (link) return link.slice(0, 200);
  const firstLine =
    messageText
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? '';
  return firstLine
    .replace(/<[@#!][^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/(^|\s)[*_~`]+|[*_~`]+(?=\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

/** Every value a multiple-choice field (checkboxes) holds, in order; none when empty or absent. */
export function choicesOf(values: ViewValues, field: string): string[] {
  const Choices = z.object({ selected_options: z.array(z.object({ value: z.string() })) });
  return Object.values(values[field] ?? {}).flatMap((element) => {
    const parsed = Choices.safeParse(element);
    return parsed.success ? parsed.data.selected_options.map((option) => option.value) : [];
  });
}

/** The Draft outreach modal: its channels, LinkedIn variants (only with LinkedIn) and purpose. */
export function readOutreachForm(values: ViewValues): FormResult<OutreachOptions> {
  const channels = choicesOf(values, 'channels');
  const linkedin = channels.includes('linkedin_message');
  const types = linkedin ? choicesOf(values, 'linkedin_types') : [];
  const purpose = fieldOf(values, 'purpose');
  if (linkedin && types.length === 0)
    return { ok: false, errors: { linkedin_types: 'Choose at least one kind of LinkedIn message.' } };
  // Slack requires a channel and caps the purpose's length; anything else is a form out of date.
  const parsed = OutreachOptionsSchema.safeParse({
    channels,
    ...(types.length > 0 ? { linkedinMessageTypes: types } : {}),
    ...(purpose ? { outreachPurpose: purpose } : {}),
  });
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: { channels: 'This form is out of date; open it again.' } };
}

/** What the workspace settings modal asks for (`views/workspace-settings.ts`). */
export interface WorkspaceSettingsSubmission {
  /** A new key to check and connect; absent keeps the connected one. */
  serviceKey?: string;
  removeKey: boolean;
  policy: WorkspacePolicyInput;
}

const UserIdsSchema = z.object({ selected_users: z.array(z.string()) });

/** The users a multi-user select holds; none when empty or absent. */
const usersOf = (values: ViewValues, field: string) =>
  Object.values(values[field] ?? {}).flatMap((element) => {
    const parsed = UserIdsSchema.safeParse(element);
    return parsed.success ? parsed.data.selected_users : [];
  });

const SettingsMetadataSchema = z.object({ revision: z.string().min(1).optional() });

/** The settings modal's metadata; none (as a policy never saved) when it cannot be read. */
export function readSettingsMetadata(privateMetadata: string | undefined): SettingsMetadata {
  try {
    return SettingsMetadataSchema.parse(JSON.parse(privateMetadata || '{}'));
  } catch {
    return {};
  }
}

/**
 * The workspace settings modal: a new key or the removal of the connected one, the spending rules
 * (an empty one keeps the environment's default), the digest defaults (`SLACK_ZONE`: no default
 * zone) and the app managers (none when the field is empty or absent: whether the submitter may set
 * them is the listener's to apply). The key is only trimmed here: the service judges it.
 */
export function readWorkspaceSettingsForm(
  values: ViewValues,
  current: { connected: boolean },
): FormResult<WorkspaceSettingsSubmission> {
  const F = SETTINGS_FIELDS;
  const errors: Record<string, string> = {};
  const serviceKey = fieldOf(values, F.key);
  const removeKey = choicesOf(values, F.removeKey).includes(REMOVE_KEY_VALUE);
  if (serviceKey && removeKey) errors[F.key] = 'Either give a new key or remove the key, not both.';
  else if (!serviceKey && !current.connected) errors[F.key] = 'Paste the workspace’s API key to connect it.';
  const approvers = usersOf(values, F.approvers);
  const appManagers = usersOf(values, F.appManagers);
  const group = fieldOf(values, F.approverGroup);
  if (group && !/^S[A-Z0-9]{2,}$/.test(group))
    errors[F.approverGroup] = 'A user group id starts with S, e.g. S0123ABCD.';
  const credits = (field: string) => {
    const value = fieldOf(values, field);
    if (value === undefined) return undefined;
    if (/^\d{1,12}$/.test(value) && Number(value) > 0) return Number(value);
    errors[field] = 'A whole number of credits, at least 1.';
    return undefined;
  };
  const dailyCap = credits(F.dailyCap);
  const approvalThreshold = credits(F.approvalThreshold);
  const time = fieldOf(values, F.digestTime);
  const zone = zoneOf(values, F.digestZone, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const digestDefaults = {
    ...(time ? { time } : {}),
    ...(zone !== SLACK_ZONE ? { timeZone: zone } : {}),
  };
  const policy = WorkspacePolicyInputSchema.safeParse({
    ...(appManagers.length > 0 ? { appManagerUserIds: appManagers } : {}),
    ...(approvers.length > 0 ? { approverUserIds: approvers } : {}),
    ...(group ? { approverUserGroupId: group } : {}),
    ...(dailyCap !== undefined ? { dailyCap } : {}),
    ...(approvalThreshold !== undefined ? { approvalThreshold } : {}),
    ...(Object.keys(digestDefaults).length > 0 ? { digestDefaults } : {}),
  });
  if (!policy.success)
    return { ok: false, errors: { [F.digestTime]: 'This form is out of date; open it again.' } };
  return { ok: true, value: { ...(serviceKey ? { serviceKey } : {}), removeKey, policy: policy.data } };
}
