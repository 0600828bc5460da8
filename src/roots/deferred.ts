/** `load` run once, on the first call; a failure is not kept (the next call tries again). */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * An object of async methods that load their target on the first call and then call its method:
 * the Slack function's store, whose AWS SDK loads only when a request needs it. Every method of `T`
 * is listed in `methods` (a new one does not compile until listed) and returns a promise.
 */
export function deferred<T extends object>(load: () => Promise<T>, methods: Record<keyof T, true>): T {
  const call =
    (name: string) =>
    async (...args: unknown[]) => {
      const target = await load();
      const method = target[name as keyof T] as (...args: unknown[]) => unknown;
      return method.apply(target, args);
    };
  return Object.fromEntries(Object.keys(methods).map((name) => [name, call(name)])) as T;
}
