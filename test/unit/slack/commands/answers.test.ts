import { describe, expect, it } from 'vitest';
import type { ChargeAction } from '../../../../src/domain/charging.ts';
import type { Answers } from '../../../../src/slack/kit/command-answers.ts';
import { COMMAND_SPECS } from '../../../../src/slack/commands/index.ts';
import type { CommandDefinition } from '../../../../src/slack/kit/command-types.ts';
import type { JobContext } from '../../../../src/slack/kit/jobs.ts';
import type { SlackMessage } from '../../../../src/slack/views/types.ts';
import { answersOf, commandJobs } from '../../../../src/slack/worker/commands.ts';
import type { WorkerDeps } from '../../../../src/slack/kit/worker-deps.ts';
import { commandOf } from '../../../support/commands.ts';
import { everyoneAMember } from '../../../support/member-roles.ts';

/** Enough of the worker's deps for the rooms to build their answers; no answer here reads them. */
const deps = {
  eis: {},
  store: { fitScores: () => ({}) },
  slack: { deleteOriginal: () => Promise.resolve() },
  policyIn: () => Promise.resolve({ approvers: [] }),
  workspaceRoles: everyoneAMember,
  logger: {},
  now: () => new Date(0),
} as unknown as WorkerDeps;
/** A room with one free word. */
type Words = { when: CommandDefinition<{ name: 'when'; eventId: string }> };
const CONTEXT: JobContext = { teamId: 'T1', channelId: 'C1', userId: 'U1', placeholder: true };

describe('the answers of /events words', () => {
  it('has one for every word but those whose every form spends credits (those are confirmed)', () => {
    const answered = Object.keys(answersOf({ deps, answer: () => Promise.resolve() }));
    const free = COMMAND_SPECS.filter((spec) => !spec.credits).map((spec) => spec.word);

    expect(answered.sort()).toEqual(free.sort());
  });

  it('asks to confirm a command that charges, even a word that charges in some forms only', async () => {
    const asked: ChargeAction[] = [];
    const answered: SlackMessage[] = [];
    const { runCommand } = commandJobs(
      deps,
      (_context, message) => Promise.resolve(void answered.push(message)),
      (action) => Promise.resolve(void asked.push(action)),
    );

    await runCommand(commandOf('who Jane Smith'), CONTEXT, 'who Jane Smith');
    await runCommand(commandOf('account Acme Analytics'), CONTEXT, 'account Acme Analytics');

    expect(asked).toEqual([
      { kind: 'people-by-name', fullName: 'Jane Smith' },
      { kind: 'exhibitor-search', companyName: 'Acme Analytics' },
    ]);
    expect(answered).toEqual([]);
  });

  it('does not compile without the answer of a free word (checked by tsc)', () => {
    // @ts-expect-error `when` has no answer
    const none: Answers<Words> = {};
    const one: Answers<Words> = { when: () => Promise.resolve() };

    expect(Object.keys(none)).toEqual([]);
    expect(Object.keys(one)).toEqual(['when']);
  });
});
