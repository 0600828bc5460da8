import * as z from 'zod';
import type { EisCore } from './core.ts';
import { parseInput } from './input.ts';
import { type PrecheckResponse, PrecheckResponseSchema } from './schemas.ts';

export const PrecheckInputSchema = z.object({
  /** e.g. unlock_event_contacts, unlock_event_visitors, unlock_event_full_access, search_personnel_events_by_name */
  actionType: z.string().min(1).max(100),
  /** Action-specific inputs, such as `{ event_id }`. */
  params: z.record(z.string(), z.unknown()),
  locale: z.string().min(1).max(20).optional(),
  traceId: z.string().min(1).max(200).optional(),
});
export type PrecheckInput = z.input<typeof PrecheckInputSchema>;

export interface ActionsApi {
  /** Read-only: whether an action is allowed, whether it would charge, and how much. Free. */
  precheck(input: PrecheckInput): Promise<PrecheckResponse>;
}

export function createActionsApi(core: EisCore): ActionsApi {
  return {
    async precheck(input) {
      const valid = parseInput('actions.precheck', PrecheckInputSchema, input);
      return core.request({
        operation: 'actions.precheck',
        method: 'POST',
        path: '/external/actions/precheck',
        body: {
          action_type: valid.actionType,
          call_source: 'api',
          params: valid.params,
          locale: valid.locale,
          trace_id: valid.traceId,
        },
        charging: false,
        schema: PrecheckResponseSchema,
      });
    },
  };
}
