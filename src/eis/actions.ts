import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { PrecheckInput } from './requests.ts';
import type { PrecheckResponse } from './schemas.ts';

export interface ActionsApi {
  /** Read-only: whether an action is allowed, whether it would charge, and how much. Free. */
  precheck(input: PrecheckInput): Promise<PrecheckResponse>;
}

export function createActionsApi(core: EisCore): ActionsApi {
  return {
    precheck: (input) =>
      call(core, rowOf('actions.precheck'), input, (valid) => ({
        body: {
          action_type: valid.actionType,
          call_source: 'api',
          params: valid.params,
          locale: valid.locale,
          trace_id: valid.traceId,
        },
      })),
  };
}
