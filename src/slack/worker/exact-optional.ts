/**
 * `T` with its optional members typed as absent-or-set (`?: X`), all the way down, as the views take them
 * under `exactOptionalPropertyTypes`.
 */
export type ExactOptional<T> = T extends object
  ? { [K in keyof T]: ExactOptional<Exclude<T[K], undefined>> }
  : T;

/**
 * Hands a parsed service reply or stored item to a view. zod types a member the data may leave out as
 * `?: X | undefined`, yet a parsed object never holds `undefined` (JSON and DynamoDB have none, and zod
 * leaves an absent member absent): the value already has the view's shape, only its type is restated.
 */
export const exactOptional = <T>(parsed: T): ExactOptional<T> => parsed as ExactOptional<T>;
