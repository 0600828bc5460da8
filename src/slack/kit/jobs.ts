import type { KnownBlock } from '@slack/types';
import * as z from 'zod';
import { OutreachOptionsSchema } from '../../eis/outreach-options.ts';
import { ChargeActionKindSchema } from '../../domain/charging.ts';
import { EventIdSchema } from '../../domain/ids.ts';
import { ShareValueSchema } from './share.ts';
import { LIMITS } from '../views/limits.ts';
import {
  ListPageValueSchema,
  FollowUpValueSchema,
  COMMAND_TEXT_MAX,
  MAX_SHOWS,
  MIN_SHOWS,
  IMPORT_MAX_CHARS,
} from './job-values.ts';

/** Where a job came from in Slack, and where its answer goes. */
export const JobContextSchema = z.object({
  teamId: z.string(),
  channelId: z.string(),
  userId: z.string(),
  /** Ephemeral answers go here; absent for scheduled work. */
  responseUrl: z.string().optional(),
  /** The message a button was pressed on, when the job updates it in place. */
  messageTs: z.string().optional(),
  /** The response URL's message is the "working…" placeholder: the answer replaces it. */
  placeholder: z.boolean().optional(),
  /** A follow-up of a public card: its answer goes in the card's thread, for everyone. */
  threadTs: z.string().optional(),
  /** Shared in the channel by this user: the answer is posted for everyone, saying who shared it. */
  sharedBy: z.string().optional(),
});
export type JobContext = z.infer<typeof JobContextSchema>;

/**
 * Slow work leaves the HTTP request as one of these. Its `id` is claimed by the worker before it runs,
 * so a job delivered twice (Lambda's asynchronous invoke is at-least-once) runs once. On Lambda it is the worker's event payload
 * (asynchronous invoke), so it is parsed again on arrival.
 */
const JobId = z.string().min(1).max(300);

/** A button's value as Slack carries it (JSON, as long as Slack lets a value be). */
const ButtonValueSchema = z
  .unknown()
  .refine((value) => value === undefined || (JSON.stringify(value)?.length ?? 0) <= LIMITS.buttonValue);

export const JobSchema = z.discriminatedUnion('kind', [
  /** An `/events` command, typed or from a form, parsed by the worker. */
  z.object({
    kind: z.literal('command'),
    id: JobId,
    text: z.string().max(COMMAND_TEXT_MAX),
    context: JobContextSchema,
  }),
  /**
   * A button standing for an `/events` command: its action id and value, read by the worker into the
   * typed command with the button's declaration (`ButtonCommands`), never through command text.
   */
  z.object({
    kind: z.literal('button'),
    id: JobId,
    /** Slack's `action_id`, at most 255 characters. */
    action: z.string().min(1).max(255),
    value: ButtonValueSchema,
    context: JobContextSchema,
  }),
  /**
   * `/events watch import`'s modal: the pasted lines (up to 1,000, more than a command's text holds),
   * read again by the worker and stored as the channel's watched accounts.
   */
  z.object({
    kind: z.literal('watch-import'),
    id: JobId,
    text: z.string().max(IMPORT_MAX_CHARS),
    context: JobContextSchema,
  }),
  /** Previous / Next on a list: re-render the message in place with another page. */
  z.object({
    kind: z.literal('page'),
    id: JobId,
    /** Show the page as a new private message instead of re-rendering the clicked one. */
    fresh: z.boolean().optional(),
    ...ListPageValueSchema.shape,
    context: JobContextSchema,
  }),
  /** "Share in channel" on a private answer: the same command (or list page), for everyone. */
  z.object({
    kind: z.literal('share'),
    id: JobId,
    share: ShareValueSchema,
    context: JobContextSchema,
  }),
  /**
   * "Export CSV" on a list card: every page of its query (free reads only) as one file, in the card's
   * thread (`context.threadTs`), or in the clicker's DM with the app when the card is only theirs.
   */
  z.object({
    kind: z.literal('export'),
    id: JobId,
    ...ListPageValueSchema.shape,
    /** The card is ephemeral (only the clicker sees it). */
    private: z.boolean(),
    /** The card as clicked, shown again after the progress line; re-rendered when Slack sent none. */
    card: z
      .object({
        text: z.string(),
        blocks: z.array(z.custom<KnownBlock>((block) => typeof block === 'object' && block !== null)),
      })
      .optional(),
    context: JobContextSchema,
  }),
  /**
   * The Compare… modal's picked shows, read in parallel into one card where the list was: privately
   * (through the list's response URL) for a private list, else posted in the channel.
   */
  z.object({
    kind: z.literal('compare'),
    id: JobId,
    eventIds: z.array(EventIdSchema).min(MIN_SHOWS).max(MAX_SHOWS),
    private: z.boolean(),
    context: JobContextSchema,
  }),
  /**
   * A confirmation that this process claimed: run the charge. `actionKind` (the confirmation's action)
   * chooses the room that shows it (the LinkedIn activity card) with no read; a job sent by a release
   * before it names none and is shown the shared way.
   */
  z.object({
    kind: z.literal('charge'),
    id: JobId,
    confirmationId: z.string(),
    actionKind: ChargeActionKindSchema.optional(),
    context: JobContextSchema,
  }),
  /** Event links in a message (`link_shared`): each known event unfurls into a compact fit card. */
  z.object({
    kind: z.literal('unfurl'),
    id: JobId,
    /** Where the links are: a posted message, or (`source: composer`) a message still being written. */
    target: z.union([
      z.object({ channel: z.string().min(1), ts: z.string().min(1) }),
      z.object({ unfurlId: z.string().min(1), source: z.enum(['composer', 'conversations_history']) }),
    ]),
    links: z
      .array(z.object({ url: z.string().min(1).max(3000), eventId: z.string().min(1).max(100) }))
      .min(1)
      .max(20),
    context: JobContextSchema,
  }),
  /**
   * The Workflow Builder step "Event fit score" (`function_executed`): the raw input, checked by the
   * worker. The workflow token is not carried: the worker completes the step with the bot token.
   */
  z.object({
    kind: z.literal('workflow-step'),
    id: JobId,
    functionExecutionId: z.string().min(1).max(200),
    eventId: z.string().max(500),
    context: JobContextSchema,
  }),
  /**
   * Draft outreach (free) or ask to confirm a LinkedIn activity analysis, for people of an email
   * unlock's results; `context.threadTs` is the unlock's thread, where everything is answered.
   */
  z.object({
    kind: z.literal('follow-up'),
    id: JobId,
    followUp: z.enum(['outreach', 'linkedin']),
    ...FollowUpValueSchema.shape,
    /** Outreach: what the drafting modal's choices were. */
    outreach: OutreachOptionsSchema.optional(),
    context: JobContextSchema,
  }),
  /**
   * Build and publish the user's App Home (`context.userId`); first turn a channel's digest off when
   * asked, and show `notice` (the answer to a click on the Home) at its top.
   */
  z.object({
    kind: z.literal('home'),
    id: JobId,
    notice: z.string().max(1000).optional(),
    digestOff: z.string().min(1).max(50).optional(),
    context: JobContextSchema,
  }),
]);
export type Job = z.infer<typeof JobSchema>;

export type Dispatch = (job: Job) => Promise<void>;

/** The payload's correlation id (stamped by the dispatcher), so the worker's lines join the request's. */
export function correlationIdOf(payload: unknown): string | undefined {
  const parsed = z.object({ correlationId: z.string().min(1) }).safeParse(payload);
  return parsed.success ? parsed.data.correlationId : undefined;
}

/** The workspace a job acts for, read before the job is parsed (a distributed app loads its access first). */
export function teamIdOf(payload: unknown): string | undefined {
  const parsed = z.object({ context: z.object({ teamId: z.string().min(1) }) }).safeParse(payload);
  return parsed.success ? parsed.data.context.teamId : undefined;
}
