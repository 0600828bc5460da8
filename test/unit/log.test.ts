import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger, createMemoryLogger, withCorrelationId } from '../../src/platform/log.ts';

/** What these tests read from a log line; everything else passes through for `toMatchObject`. */
const LogLine = z.looseObject({
  level: z.string(),
  message: z.string(),
  correlation_id: z.string().optional(),
  cold_start: z.unknown().optional(),
  error: z.looseObject({ message: z.string(), stack: z.string(), cause: z.unknown() }).optional(),
});

/** One JSON log line, parsed and typed; a missing line fails the parse. */
function lineOf(json: string | undefined) {
  return LogLine.parse(JSON.parse(json ?? '{}'));
}

describe('the logger', () => {
  it('logs an error with its stack and its cause chain, secrets masked', () => {
    // Prepare
    const logger = createMemoryLogger();
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const upstream = new Error('events.unlock failed for sk_test_log_4f9c2a', { cause: reset });

    // Act
    withCorrelationId('conf-1', () => logger.error('job failed', { error: upstream }));

    // Assess
    const line = lineOf(logger.lines[0]);
    expect(line.error?.message).toBe('events.unlock failed for [redacted]');
    expect(line.error?.stack).toContain('log.test.ts');
    expect(line.error?.stack).not.toContain('sk_test_log_4f9c2a');
    expect(line.error?.cause).toMatchObject({ name: 'Error', message: 'socket hang up', code: 'ECONNRESET' });
    expect(line.correlation_id).toBe('conf-1');
    expect(line.level).toBe('error');
  });

  it('stops following a cause chain that loops', () => {
    const logger = createMemoryLogger();
    const error = new Error('loop');
    (error as { cause?: unknown }).cause = error;

    logger.error('odd', { error });

    expect(lineOf(logger.lines[0]).error?.message).toBe('loop');
  });

  it('puts the Lambda request id and the cold start on every line once given the context', () => {
    const logger = createMemoryLogger();
    logger.addLambdaContext({
      awsRequestId: 'req-7',
      functionName: 'slack',
      invokedFunctionArn: 'arn',
      memoryLimitInMB: '256',
      functionVersion: '$LATEST',
    });

    logger.child({ team: 'T1' }).info('hello');
    logger.debug('below the threshold? no: the memory logger keeps debug');

    const [first, second] = logger.lines.map(lineOf);
    expect(first).toMatchObject({ request_id: 'req-7', team: 'T1', message: 'hello' });
    expect(typeof first?.cold_start).toBe('boolean');
    expect(second).toMatchObject({ request_id: 'req-7', level: 'debug' });
  });

  it('writes nothing below its level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });

    logger.info('quiet');
    logger.warn('loud');

    expect(lines.map((line) => lineOf(line).message)).toEqual(['loud']);
  });
});
