import type { Annotations } from '../platform/tracing.ts';
import { commandSpec } from './commands/index.ts';
import type { Job } from './kit/jobs.ts';
import { ACTION_IDS } from './views/action-ids.ts';

/** What a trace says of a Slack job: the tracer is handed these by its callers (dispatch, the worker). */

// Every kind, as a record the type checker holds to `Job['kind']` (a new kind does not compile until
// it is named here); not read from `JobSchema`, whose construction cost the Slack function's cold start.
const JOB_KINDS: Record<Job['kind'], true> = {
  command: true,
  button: true,
  page: true,
  share: true,
  export: true,
  charge: true,
  unfurl: true,
  'workflow-step': true,
  'follow-up': true,
  home: true,
  'watch-import': true,
  compare: true,
};

/**
 * What a trace says of a job: its kind, the subcommand of a command job (its first word when that is
 * a known command, never the arguments), the action id of a button's job (one the views put on a
 * button) and a charge's confirmation id (an id the logs carry too).
 * Reads an unparsed payload (the worker's event) without trusting it.
 */
export function jobAnnotations(job: unknown): Annotations {
  const fields = (typeof job === 'object' && job !== null ? job : {}) as Record<string, unknown>;
  const kind =
    typeof fields.kind === 'string' && Object.hasOwn(JOB_KINDS, fields.kind) ? fields.kind : 'unknown';
  return {
    JobKind: kind,
    Subcommand: kind === 'command' ? subcommandOf(fields.text) : undefined,
    Button: kind === 'button' ? buttonOf(fields.action) : undefined,
    ConfirmationId:
      kind === 'charge' &&
      typeof fields.confirmationId === 'string' &&
      /^[\w-]{1,100}$/.test(fields.confirmationId)
        ? fields.confirmationId
        : undefined,
  };
}

const KNOWN_ACTIONS: ReadonlySet<unknown> = new Set(Object.values(ACTION_IDS));

/** `plan.add` for a button's job of that action id, `unknown` for an id the views never put on a button. */
const buttonOf = (action: unknown): string =>
  typeof action === 'string' && KNOWN_ACTIONS.has(action) ? action : 'unknown';

/** `fit` for `fit 26855`, `help` for nothing, `unknown` for a word that is no command. */
export function subcommandOf(text: unknown): string {
  if (typeof text !== 'string') return 'unknown';
  const [first = ''] = text.trim().split(/\s+/);
  if (first === '') return 'help';
  return commandSpec(first)?.word ?? 'unknown';
}
