import type { CallHolder } from '../platform/fair-shares.ts';
import type { ReadWithin } from './follow-up.ts';
import type { UnlockTask } from './ports/index.ts';

/**
 * Runs one service call of a poll within the key's share of calls for polls, counted per member and
 * per task (`POLL_IN_FLIGHT`, src/eis/limiter.ts). Each Lambda counts its own calls.
 */
export type PollCalls = <T>(holder: CallHolder, call: () => Promise<T>) => Promise<T>;

/** The tasks in turns of their members (each member's first, then each one's second, …), due order kept within a member's. */
export function takingTurns(tasks: UnlockTask[]): UnlockTask[] {
  const byMember = new Map<string, UnlockTask[]>();
  for (const task of tasks) {
    const member = memberOf(task);
    byMember.set(member, [...(byMember.get(member) ?? []), task]);
  }
  const queues = [...byMember.values()];
  const turns: UnlockTask[] = [];
  for (let round = 0; turns.length < tasks.length; round++)
    for (const queue of queues) {
      const task = queue[round];
      if (task) turns.push(task);
    }
  return turns;
}

const memberOf = (task: UnlockTask) => `${task.teamId}:${task.requestedBy}`;

/** A task's calls, within the key's share for polls (as they come, without a share). */
export function callsOf(task: UnlockTask, deps: { calls?: PollCalls | undefined }): ReadWithin {
  const holder = { member: memberOf(task), task: task.taskId };
  return (call) => (deps.calls ? deps.calls(holder, call) : call());
}
