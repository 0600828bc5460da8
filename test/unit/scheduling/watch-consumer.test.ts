import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/platform/log.ts';
import { WorkspaceNotConnectedError } from '../../../src/platform/errors.ts';
import { CONSUMER_CHECK_RESERVE_MS, consumeWatchChecks } from '../../../src/scheduling/watch-consumer.ts';
import type { WatchCheckRequest } from '../../../src/scheduling/watch-dispatch.ts';

const check = (channelId: string) => ({ teamId: 'T1', channelId, checkId: 'r1@2026-12-01T09:00:00.000Z' });
const record = (messageId: string, body: unknown) => ({
  messageId,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  eventSource: 'aws:sqs',
});

function quietLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'info', write: (line) => lines.push(line) }) };
}

describe('the watch queue consumer', () => {
  it('checks each message and returns only the failed ones to the queue', async () => {
    const checked: WatchCheckRequest[] = [];
    const { logger } = quietLogger();
    const event = {
      Records: [record('m1', check('C1')), record('m2', check('C2')), record('m3', check('C3'))],
    };

    const response = await consumeWatchChecks(event, {
      check: (request) => {
        checked.push(request);
        return request.channelId === 'C2' ? Promise.reject(new Error('service down')) : Promise.resolve({});
      },
      logger,
    });

    expect(checked.map((request) => request.channelId)).toEqual(['C1', 'C2', 'C3']);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('drops a malformed message (logged by id, without its body) and checks the rest', async () => {
    const checked: string[] = [];
    const { logger, lines } = quietLogger();
    const event = {
      Records: [
        record('bad-json', '{not json'),
        record('bad-shape', { teamId: 'T1', channelId: '', secret: 'xoxb-do-not-log' }),
        record('good', check('C1')),
      ],
    };

    const response = await consumeWatchChecks(event, {
      check: (request) => {
        checked.push(request.channelId);
        return Promise.resolve({});
      },
      logger,
    });

    expect(checked).toEqual(['C1']);
    expect(response.batchItemFailures).toEqual([]);
    expect(lines.join('\n')).toContain('bad-shape');
    expect(lines.join('\n')).not.toContain('xoxb-do-not-log');
  });

  it('given a scheduled event (no records), does nothing and does not fail', async () => {
    let calls = 0;
    const { logger } = quietLogger();
    const scheduled = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };

    const response = await consumeWatchChecks(scheduled, {
      check: () => {
        calls++;
        return Promise.resolve({});
      },
      logger,
    });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(calls).toBe(0);
  });

  it('drops the check of a workspace without a service key instead of retrying it into the dead-letter queue', async () => {
    const { logger } = quietLogger();

    const response = await consumeWatchChecks(
      { Records: [record('m1', check('C1'))] },
      { check: () => Promise.reject(new WorkspaceNotConnectedError('T1')), logger },
    );

    expect(response.batchItemFailures).toEqual([]);
  });

  it('returns the messages it has no time left to start', async () => {
    const checked: string[] = [];
    const { logger } = quietLogger();
    let remaining = CONSUMER_CHECK_RESERVE_MS + 1;

    const response = await consumeWatchChecks(
      { Records: [record('m1', check('C1')), record('m2', check('C2'))] },
      {
        check: (request) => {
          checked.push(request.channelId);
          remaining = CONSUMER_CHECK_RESERVE_MS - 1;
          return Promise.resolve({});
        },
        logger,
        remainingMs: () => remaining,
      },
    );

    expect(checked).toEqual(['C1']);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
  });

  it('sends the next slice of a check that has more to the queue, and only then', async () => {
    const { logger } = quietLogger();
    const sent: WatchCheckRequest[] = [];
    const next = { ...check('C1'), slice: 1 };

    const response = await consumeWatchChecks(
      { Records: [record('m1', check('C1')), record('m2', check('C2'))] },
      {
        check: (request) => Promise.resolve(request.channelId === 'C1' ? { next } : {}),
        handOn: (requests) => {
          sent.push(...requests);
          return Promise.resolve({ sent: requests.length, failed: 0 });
        },
        logger,
      },
    );

    expect(sent).toEqual([next]);
    expect(response.batchItemFailures).toEqual([]);
  });
});
