/** Who a service call is made for: the member who asked, and the task it reads. */
export interface CallHolder {
  member: string;
  task: string;
}

/** How many calls may be in flight at once: in all, for one member, for one task. */
export interface ShareLimits {
  total: number;
  perMember: number;
  perTask: number;
}

/**
 * Calls in flight, counted and shared out: never more than `total` at once, nor more than a member's
 * or a task's share of them. A freed place goes to the waiting call whose member has the fewest in
 * flight (the earliest of those), so one member's many tasks cannot keep another's waiting.
 */
export interface CallShares {
  run<T>(holder: CallHolder, call: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
  readonly waiting: number;
}

interface Waiter {
  holder: CallHolder;
  start: () => void;
}

export function createCallShares(limits: ShareLimits, onIdle: () => void = () => {}): CallShares {
  let inFlight = 0;
  const byMember = new Map<string, number>();
  const byTask = new Map<string, number>();
  const waiters: Waiter[] = [];

  const count = (counts: Map<string, number>, key: string, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next === 0) counts.delete(key);
    else counts.set(key, next);
  };
  const fits = ({ member, task }: CallHolder) =>
    (byMember.get(member) ?? 0) < limits.perMember && (byTask.get(task) ?? 0) < limits.perTask;
  const take = (holder: CallHolder) => {
    inFlight += 1;
    count(byMember, holder.member, 1);
    count(byTask, holder.task, 1);
  };

  /** Starts waiting calls while places are free: the fairest first. */
  const startWaiting = () => {
    while (inFlight < limits.total) {
      let chosen = -1;
      for (const [index, waiter] of waiters.entries()) {
        if (!fits(waiter.holder)) continue;
        const chosenWaiter = waiters[chosen];
        const load = byMember.get(waiter.holder.member) ?? 0;
        if (!chosenWaiter || load < (byMember.get(chosenWaiter.holder.member) ?? 0)) chosen = index;
      }
      if (chosen < 0) return;
      const [waiter] = waiters.splice(chosen, 1);
      if (!waiter) return;
      take(waiter.holder);
      waiter.start();
    }
  };

  const release = (holder: CallHolder) => {
    inFlight -= 1;
    count(byMember, holder.member, -1);
    count(byTask, holder.task, -1);
    startWaiting();
    if (inFlight === 0 && waiters.length === 0) onIdle();
  };

  return {
    async run(holder, call) {
      await new Promise<void>((start) => {
        waiters.push({ holder, start });
        startWaiting();
      });
      try {
        return await call();
      } finally {
        release(holder);
      }
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
  };
}
