/** The store's clock and condition check, apart from `support.ts` (which loads the AWS SDK) for the ack path. */

export const systemClock = (): Date => new Date();

export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

export const DAY_SECONDS = 24 * 60 * 60;

/** A conditional write refused, by name: the SDK's exception, or the same answer read over `fetch`. */
export function failedItsCondition(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
