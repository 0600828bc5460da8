import { describe, expect, it } from 'vitest';
import { AppError, ConflictError, ValidationError } from '../../../src/platform/errors.ts';
import { SERVICE_ERROR_CODE, isServiceError, ServiceError } from '../../../src/platform/service-error.ts';

// The checks that matter here are the typecheck's (`npm run checks` includes test/): each
// `@ts-expect-error` fails tsc when a misspelt code would be accepted again.
describe('error codes', () => {
  it('keeps the code an error was thrown with, for callers that branch on it', () => {
    expect(new ValidationError('bad').code).toBe('VALIDATION');
    expect(new ConflictError('lost').code).toBe('CONFLICT');
    expect(new AppError('WATCH_CHECK_FAILED', 'all failed').code).toBe('WATCH_CHECK_FAILED');
  });

  it('refuses a misspelt code when thrown or compared', () => {
    // @ts-expect-error: not a code of the union
    const misspelt = new AppError('WATCH_CHECK_FAILD', 'all failed');
    // @ts-expect-error: comparing with a code no error carries
    const compared = misspelt.code === 'EIS_RATE_LIMTED';
    expect(compared).toBe(false);
    const upstream = new ServiceError(SERVICE_ERROR_CODE.upstream, 'down', {
      userMessage: 'x',
      retryable: true,
    });
    // @ts-expect-error: a service error's code is one of the service's codes
    expect(isServiceError(upstream, 'VALIDATION')).toBe(false);
    expect(isServiceError(upstream, SERVICE_ERROR_CODE.upstream)).toBe(true);
  });
});
