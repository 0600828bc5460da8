import * as z from 'zod';
import { ListPageValueSchema, ShareValueSchema } from './button-values.ts';

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

export const JobSchema = z.discriminatedUnion('kind', [
  /** An `/events` command (or a button standing for one), re-parsed by the worker. */
  z.object({ kind: z.literal('command'), id: JobId, text: z.string().max(5000), context: JobContextSchema }),
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
  /** A confirmation that this process claimed: run the charge. */
  z.object({ kind: z.literal('charge'), id: JobId, confirmationId: z.string(), context: JobContextSchema }),
]);
export type Job = z.infer<typeof JobSchema>;

export type Dispatch = (job: Job) => Promise<void>;

/** The payload's correlation id (stamped by the dispatcher), so the worker's lines join the request's. */
export function correlationIdOf(payload: unknown): string | undefined {
  const parsed = z.object({ correlationId: z.string().min(1) }).safeParse(payload);
  return parsed.success ? parsed.data.correlationId : undefined;
}
