import * as z from 'zod';
import type { OutreachDetail } from '../../eis/schemas.ts';

/** What the drafts are for, as the service's generation request takes it (the modal's choices). */
export const OutreachOptionsSchema = z.object({
  channels: z.array(z.enum(['email', 'linkedin_message'])).min(1, 'no channel'),
  linkedinMessageTypes: z.array(z.enum(['inmail', 'connection_note', 'connected_message'])).optional(),
  outreachPurpose: z.string().trim().min(1).max(500).optional(),
});
export type OutreachOptions = z.infer<typeof OutreachOptionsSchema>;

export type OutreachProgress = 'ready' | 'pending' | 'failed';

/**
 * Where one person's drafts stand. `found: false` means not generated or not ready yet (the OpenAPI
 * gives both the same answer), so it reads as pending; the poller's own deadline ends the wait.
 */
export function outreachProgress(detail: OutreachDetail): OutreachProgress {
  const status = detail.status?.toLowerCase() ?? null;
  if (status === 'failed' || status === 'error') return 'failed';
  if (!detail.found) return 'pending';
  return status === 'pending' || status === 'processing' || status === 'generating' ? 'pending' : 'ready';
}
