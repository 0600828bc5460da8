import type { PlanReadDeps } from './read.ts';

type Read<A extends unknown[], R> = (...args: A) => Promise<R>;

/**
 * The service's free reads a plan's card makes, each asked once per answer (by its arguments): a read
 * started early (`startPlanReads`) is the one the card awaits, and a show's detail read to add it is
 * the one its row reads again. For one answer only: nothing is kept after it.
 */
export function readsOnce<E extends PlanReadDeps['eis']>(eis: E): E {
  const asked = new Map<string, Promise<unknown>>();
  const once =
    <A extends unknown[], R>(name: string, read: Read<A, R>): Read<A, R> =>
    (...args) => {
      const key = `${name} ${JSON.stringify(args)}`;
      const known = asked.get(key) as Promise<R> | undefined;
      if (known) return known;
      const reading = read(...args);
      asked.set(key, reading);
      return reading;
    };
  type Precheck = Parameters<E['actions']['precheck']>[0];
  return {
    ...eis,
    events: {
      ...eis.events,
      detail: once('detail', (eventId: string) => eis.events.detail(eventId)),
      fitScore: once('fitScore', (eventId: string) => eis.events.fitScore(eventId)),
    },
    actions: { ...eis.actions, precheck: once('precheck', (input: Precheck) => eis.actions.precheck(input)) },
    credits: { ...eis.credits, balance: once('balance', () => eis.credits.balance()) },
  };
}
