import * as z from 'zod';
import { EisBadInputError } from './errors.ts';

/*
 * Cheap input checks, run before any HTTP call so that a bad id never costs a round trip (or a credit).
 */

export const EventIdInput = z
  .string()
  .min(1, 'event id is empty')
  .max(100, 'event id is over 100 characters');
export const NumericIdInput = z.string().regex(/^[0-9]{1,20}$/, 'expected a numeric id');
export const TaskIdInput = z.string().regex(/^[0-9]{1,40}$/, 'expected a numeric task id');
export const PageInput = z.number().int().min(1).optional();
export const pageSizeInput = (max: number) => z.number().int().min(1).max(max).optional();
export const DateInput = z.iso.date().optional();
export const textInput = (max: number) => z.string().min(1).max(max).optional();
export const listInput = (max: number) => z.array(z.string().min(1).max(max)).optional();
export const FlagInput = z.union([z.literal(0), z.literal(1)]).optional();
/** An exhibitor id: the OpenAPI asks only for a non-empty string. */
export const ExhibitorIdInput = z.string().trim().min(1, 'exhibitor id is empty').max(100);
export const PersonnelIdsInput = z
  .array(NumericIdInput)
  .min(1, 'no personnel ids')
  .max(2000, 'more than 2000 personnel ids');
export const HttpUrlInput = z.url({ protocol: /^https?$/ }).max(500);
/** `attendance_scope` of a company's events (exhibitor events, company-name event search). */
export const CompanyScopeInput = z.enum(['all', 'exhibitor', 'visitor']).optional();
/** `attendance_scope` of a person's events (related events, by name, by LinkedIn URL). */
export const PersonScopeInput = z.enum(['all', 'exhibitor_employee', 'visitor']).optional();

export function parseInput<S extends z.ZodType>(operation: string, schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const reason = result.error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  throw new EisBadInputError({ operation, reason: `invalid input (${reason})` });
}
