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
 * `build` of the latest value `read` gives, made again only when that value changes (a rotated
 * secret), and shared by every caller until then.
 */
export function rebuiltOnChange<V, T>(read: () => Promise<V>, build: (value: V) => T): () => Promise<T> {
  let built: { value: V; result: T } | undefined;
  return async () => {
    const latest = await read();
    if (built?.value !== latest) built = { value: latest, result: build(latest) };
    return built.result;
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
