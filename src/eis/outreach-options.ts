import * as z from 'zod';

/**
 * What the drafts are for, as the service's generation request takes it (OpenAPI OutreachMessageRequest;
 * the modal's choices). Apart from `outreach.ts` so the Slack function can read a form or a job payload
 * with it without loading the service client.
 */
export const OutreachOptionsSchema = z.object({
  channels: z.array(z.enum(['email', 'linkedin_message'])).min(1, 'no channel'),
  linkedinMessageTypes: z.array(z.enum(['inmail', 'connection_note', 'connected_message'])).optional(),
  outreachPurpose: z.string().trim().min(1).max(500).optional(),
});
export type OutreachOptions = z.infer<typeof OutreachOptionsSchema>;
