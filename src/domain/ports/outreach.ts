import type { OutreachDetail } from '../../eis/schemas.ts';

/** What the drafts are for: the service's generation request states it (src/eis/outreach-options.ts). */
export type { OutreachOptions } from '../../eis/outreach-options.ts';

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
