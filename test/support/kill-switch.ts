/**
 * A process that dies mid-flight, in one test process: every call through the wrapped dependencies
 * counts as a step; after step `killAfter` completes (its effect applied), or the first step after
 * which `killAt` says so (given the steps so far), that call and every later one never return,
 * exactly as if the Lambda had been killed. `dead` resolves at that moment.
 */
export function createKillSwitch(
  killAfter = Number.POSITIVE_INFINITY,
  killAt: (trace: readonly string[]) => boolean = () => false,
) {
  let steps = 0;
  let killed = false;
  let onDead: () => void = () => {};
  const dead = new Promise<void>((resolve) => {
    onDead = resolve;
  });
  const never = () => new Promise<never>(() => {});
  const trace: string[] = [];

  function wrap<T extends object>(target: T, name: string): T {
    // Over an heir of the target, so frozen objects (the service client) can be wrapped too.
    return new Proxy(Object.create(target) as T, {
      get(object, property, receiver) {
        const value: unknown = Reflect.get(object, property, receiver);
        const path = `${name}.${String(property)}`;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (killed) return never();
            return Promise.resolve(Reflect.apply(value, object, args)).then((result: unknown) => {
              if (killed) return never();
              trace.push(path);
              if (++steps >= killAfter || killAt(trace)) {
                killed = true;
                onDead();
                return never();
              }
              return result;
            });
          };
        }
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return wrap(value, path);
        return value;
      },
    });
  }

  return {
    wrap,
    dead,
    /** The steps that completed, in order (the last one is where the process died). */
    trace,
    get killed() {
      return killed;
    },
    /** Waits for `run` to finish or for the process to die, whichever comes first. */
    async race(run: Promise<unknown>): Promise<'finished' | 'killed'> {
      return Promise.race([run.then(() => 'finished' as const), dead.then(() => 'killed' as const)]);
    },
  };
}
export type KillSwitch = ReturnType<typeof createKillSwitch>;
