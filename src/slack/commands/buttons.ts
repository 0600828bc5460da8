import { ACCOUNT_BUTTONS } from '../features/account/buttons.ts';
import { CHARGE_BUTTONS } from '../features/charges/buttons.ts';
import { DIGEST_BUTTONS } from '../features/digests/buttons.ts';
import { EVENT_BUTTONS } from '../features/events/buttons.ts';
import { LIST_BUTTONS } from '../features/lists/buttons.ts';
import { OUTCOME_BUTTONS } from '../features/outcomes/buttons.ts';
import { PLAN_BUTTONS } from '../features/plan/buttons.ts';
import { WATCH_BUTTONS } from '../features/watch/buttons.ts';
import type { ButtonRun } from '../kit/command-buttons.ts';
import type { Command } from './index.ts';

/**
 * Every button that stands for an `/events` command, by action id, each declared in its room's
 * `buttons.ts`. The listener checks a click's value with it; the worker reads the job with it again,
 * into a typed `Command` that runs as if typed. A button whose command is no `Command` does not compile.
 */
export const BUTTON_COMMANDS: Readonly<Record<string, (value: unknown) => ButtonRun<Command>>> = {
  ...EVENT_BUTTONS,
  ...LIST_BUTTONS,
  ...ACCOUNT_BUTTONS,
  ...CHARGE_BUTTONS,
  ...DIGEST_BUTTONS,
  ...WATCH_BUTTONS,
  ...PLAN_BUTTONS,
  ...OUTCOME_BUTTONS,
};
