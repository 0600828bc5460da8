import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/log.ts';

describe('the logger', () => {
  it('logs an error with its stack and its cause chain, secrets masked', () => {
    // Prepare
    const logger = createMemoryLogger();
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const upstream = new Error('events.unlock failed for sk_test_log_4f9c2a', { cause: reset });

    // Act
    logger.error('job failed', { error: upstream, correlationId: 'conf-1' });

    // Assess
    const line = JSON.parse(logger.lines[0] ?? '{}');
    expect(line.error.message).toBe('events.unlock failed for [redacted]');
    expect(line.error.stack).toContain('log.test.ts');
    expect(line.error.stack).not.toContain('sk_test_log_4f9c2a');
    expect(line.error.cause).toMatchObject({ name: 'Error', message: 'socket hang up', code: 'ECONNRESET' });
    expect(line.correlationId).toBe('conf-1');
  });

  it('stops following a cause chain that loops', () => {
    const logger = createMemoryLogger();
    const error = new Error('loop');
    (error as { cause?: unknown }).cause = error;

    logger.error('odd', { error });

    expect(JSON.parse(logger.lines[0] ?? '{}').error.message).toBe('loop');
  });
});
