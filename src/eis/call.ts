import type { z } from 'zod';
import type { EisCore, QueryParams } from './core.ts';
import { isCharging } from './charging.ts';
import { parseInput } from './input.ts';
import type { CallRow, OperationKey } from './operations.ts';

interface WireParts {
  path?: Record<string, string>;
  query?: QueryParams;
  body?: Record<string, unknown>;
}

/** The `{name}` parameters of a path: `'POST /external/events/{id}/unlock'` → `'id'`. */
type PathParams<K extends string> = K extends `${string}{${infer P}}${infer Rest}`
  ? P | PathParams<Rest>
  : never;

/**
 * What a call sends besides its row: query and body from the checked input, and a value for each of
 * the row's path parameters (each is encoded); a row with a parameter does not compile without it.
 */
export type CallParts<K extends OperationKey> = WireParts &
  ([PathParams<K>] extends [never] ? { path?: never } : { path: Record<PathParams<K>, string> });

/**
 * One call, built from its row of the operation table: the input checked with the row's request schema
 * (a bad value never costs a round trip, or a credit), sent with the row's method and path, retried as
 * the row's charging allows, the answer parsed with the row's response schema. `wire` puts the checked
 * input under its wire names.
 */
export async function call<K extends OperationKey, I extends z.ZodType, R extends z.ZodType>(
  core: EisCore,
  row: CallRow<string, I, R, K>,
  input: unknown,
  wire: (valid: z.output<I>) => CallParts<K>,
): Promise<z.output<R>> {
  const valid = parseInput(row.clientMethod, row.request, input);
  const { path, ...rest }: WireParts = wire(valid);
  const [method, template] = splitKey(row.operation);
  return core.request({
    operation: row.clientMethod,
    method,
    path: fillPath(template, path ?? {}),
    ...rest,
    charging: isCharging(row.charging),
    schema: row.response,
  });
}

function splitKey(key: CallRow['operation']): ['GET' | 'POST', string] {
  const [method, template = ''] = key.split(' ');
  return [method === 'POST' ? 'POST' : 'GET', template];
}

/** `/external/events/{id}/unlock` with `{ id }`: every parameter encoded, none left unfilled. */
function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for the path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
}
