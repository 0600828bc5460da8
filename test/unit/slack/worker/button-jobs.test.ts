import { describe, expect, it } from 'vitest';
import type { ChargeAction } from '../../../../src/domain/charging.ts';
import { BUTTON_COMMANDS } from '../../../../src/slack/commands/buttons.ts';
import { parseCommand } from '../../../../src/slack/commands/index.ts';
import { ACCOUNT_BUTTONS } from '../../../../src/slack/features/account/buttons.ts';
import { CHARGE_BUTTONS } from '../../../../src/slack/features/charges/buttons.ts';
import { DIGEST_BUTTONS } from '../../../../src/slack/features/digests/buttons.ts';
import { EVENT_BUTTONS } from '../../../../src/slack/features/events/buttons.ts';
import { LIST_BUTTONS } from '../../../../src/slack/features/lists/buttons.ts';
import { OUTCOME_BUTTONS } from '../../../../src/slack/features/outcomes/buttons.ts';
import { PLAN_BUTTONS } from '../../../../src/slack/features/plan/buttons.ts';
import { WATCH_BUTTONS } from '../../../../src/slack/features/watch/buttons.ts';
import { askAgainValue, commandTextOf } from '../../../../src/slack/kit/charge-words.ts';
import { OUT_OF_DATE } from '../../../../src/slack/kit/command-buttons.ts';
import { type Job, type JobContext, JobSchema } from '../../../../src/slack/kit/jobs.ts';
import type { WorkerDeps } from '../../../../src/slack/kit/worker-deps.ts';
import type { WorkspaceRoles } from '../../../../src/slack/kit/workspace-roles.ts';
import { ACTION_IDS } from '../../../../src/slack/views/action-ids.ts';
import type { SlackMessage } from '../../../../src/slack/views/types.ts';
import { commandJobs } from '../../../../src/slack/worker/commands.ts';
import { everyoneAMember } from '../../../support/member-roles.ts';

const CONTEXT: JobContext = { teamId: 'T1', channelId: 'C1', userId: 'U1' };
const everyoneAGuest: WorkspaceRoles = {
  ...everyoneAMember,
  standing: () => Promise.resolve({ kind: 'guest' }),
};

/** The worker's command jobs over enough deps to ask for a charge; what it answers and asks for, kept. */
function worker(workspaceRoles: WorkspaceRoles = everyoneAMember) {
  const deps = {
    eis: {},
    store: { fitScores: () => ({}) },
    logger: {},
    now: () => new Date(0),
    slack: { deleteOriginal: () => Promise.resolve() },
    policyIn: () => Promise.resolve({ approvers: [] }),
    workspaceRoles,
  } as unknown as WorkerDeps;
  const asked: ChargeAction[] = [];
  const answered: SlackMessage[] = [];
  const jobs = commandJobs(
    deps,
    (_context, message) => Promise.resolve(void answered.push(message)),
    (action) => Promise.resolve(void asked.push(action)),
  );
  return { ...jobs, asked, answered };
}

/** A button's job as the listener dispatches it, read back as the worker's boundary reads it. */
const buttonJob = (action: string, value: unknown) =>
  JobSchema.parse(
    JSON.parse(JSON.stringify({ kind: 'button', id: 'button:1', action, value, context: CONTEXT })),
  ) as Extract<Job, { kind: 'button' }>;

describe("a button's job", () => {
  it('runs the typed command its value holds, and never reads command text', async () => {
    // A name its command's words would read otherwise: Slack's italics markers come off typed text.
    const search: ChargeAction = { kind: 'exhibitor-events', companyName: '_Acme_ Analytics', page: 3 };
    const { buttonJob: run, asked, answered } = worker();

    await run(buttonJob(ACTION_IDS.searchPageNext, askAgainValue(search)));

    expect(asked).toEqual([search]);
    expect(answered).toEqual([]);
    // Read back from its words, the same button would have searched for another name.
    const asText = parseCommand(commandTextOf(search));
    expect(asText.ok && asText.command).not.toMatchObject({ companyName: search.companyName });
  });

  it('is held to the command it runs: a guest may not ask for an unlock from a fit card', async () => {
    const { buttonJob: run, asked, answered } = worker(everyoneAGuest);

    await run(buttonJob(ACTION_IDS.fitUnlock, { eventId: '26855' }));

    expect(asked).toEqual([]);
    expect(JSON.stringify(answered)).toContain('unlock');
    expect(JSON.stringify(answered)).not.toContain(OUT_OF_DATE);
  });

  it.each([
    ['Start again of an older release (command text)', ACTION_IDS.confirmRestart, { text: 'unlock 26855' }],
    ['Next with a forged charge', ACTION_IDS.searchPageNext, { askAgain: { kind: 'linkedin-activity' } }],
    ['Add to plan with no show', ACTION_IDS.planAdd, { eventId: '' }],
    ['an action no button stands for', 'toString', {}],
  ])('%s is answered as out of date, and nothing is asked for', async (_case, action, value) => {
    const { buttonJob: run, asked, answered } = worker();

    await run(buttonJob(action, value));

    expect(asked).toEqual([]);
    expect(JSON.stringify(answered)).toContain(OUT_OF_DATE);
  });

  it('is read by one declaration per action id, each room declaring its own', () => {
    const rooms = [
      ACCOUNT_BUTTONS,
      CHARGE_BUTTONS,
      DIGEST_BUTTONS,
      EVENT_BUTTONS,
      LIST_BUTTONS,
      PLAN_BUTTONS,
      WATCH_BUTTONS,
      OUTCOME_BUTTONS,
    ];
    const declared = rooms.flatMap((room) => Object.keys(room));

    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(BUTTON_COMMANDS).sort()).toEqual(declared.sort());
  });
});
