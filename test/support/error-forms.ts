import { inspect } from 'node:util';
import type { AppError } from '../../src/platform/errors.ts';

/** Every way an error can reach a person or a log: its messages, its JSON and its inspected form. */
export const everyFormOf = (error: AppError): string[] => [
  error.message,
  error.userMessage,
  JSON.stringify(error),
  inspect(error, { depth: 10 }),
];
