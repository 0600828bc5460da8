import type { UnlockPollingDeps } from '../../src/domain/unlock-polling.ts';
import type { UnlockTask } from '../../src/domain/ports/index.ts';

/**
 * An in-memory unlock-task store with the repository's conditional semantics (one lease at a time,
 * the result marked posted once), recording what was marked and which Slack failures were recorded.
 */
export function fakeUnlockTasks(tasks: UnlockTask[], now: () => Date) {
  const byId = new Map(tasks.map((task) => [task.taskId, { ...task }]));
  const marks: { taskId: string; outcome: unknown }[] = [];
  const failures: { taskId: string; reason: string }[] = [];
  const stops: { taskId: string; reason: string }[] = [];
  const repo: UnlockPollingDeps['tasks'] = {
    due({ now: at, limit }) {
      return Promise.resolve(
        [...byId.values()]
          .filter(
            (t) =>
              !t.resultPostedAt && !t.stoppedAt && (t.leaseExpiresAt ?? t.nextPollAt) <= at.toISOString(),
          )
          .slice(0, limit),
      );
    },
    lease(taskId, { owner, leaseMs }) {
      const task = byId.get(taskId);
      const at = now().toISOString();
      if (!task || task.resultPostedAt || task.nextPollAt > at) return Promise.resolve(null);
      if (task.leaseExpiresAt && task.leaseExpiresAt > at) return Promise.resolve(null);
      Object.assign(task, {
        leaseOwner: owner,
        leaseExpiresAt: new Date(now().getTime() + leaseMs).toISOString(),
      });
      return Promise.resolve({ ...task });
    },
    reschedule(taskId, { owner, nextPollAt, attempts, waitingShown }) {
      const task = byId.get(taskId);
      if (!task || task.leaseOwner !== owner) return Promise.resolve(false);
      Object.assign(task, {
        nextPollAt: nextPollAt.toISOString(),
        attempts,
        ...(waitingShown === undefined ? {} : { waitingShown }),
        leaseOwner: undefined,
        leaseExpiresAt: undefined,
      });
      return Promise.resolve(true);
    },
    markResultPosted(taskId, { outcome }) {
      const task = byId.get(taskId);
      if (!task || task.resultPostedAt) return Promise.resolve(false);
      task.resultPostedAt = now().toISOString();
      marks.push({ taskId, outcome });
      return Promise.resolve(true);
    },
    recordSlackFailure(taskId, reason) {
      failures.push({ taskId, reason });
      return Promise.resolve();
    },
    stop(taskId, reason) {
      const task = byId.get(taskId);
      if (!task || task.resultPostedAt || task.stoppedAt) return Promise.resolve(false);
      Object.assign(task, { stoppedAt: now().toISOString(), stoppedReason: reason });
      stops.push({ taskId, reason });
      return Promise.resolve(true);
    },
  };
  return { repo, byId, marks, failures, stops };
}
