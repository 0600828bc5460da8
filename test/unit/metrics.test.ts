import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { createMetrics } from '../../src/platform/metrics.ts';

const EmfSchema = z.looseObject({
  _aws: z.object({
    CloudWatchMetrics: z.array(
      z.object({
        Namespace: z.string(),
        Dimensions: z.array(z.array(z.string())),
        Metrics: z.array(z.object({ Name: z.string(), Unit: z.string() })),
      }),
    ),
  }),
});

describe('metrics', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are written as CloudWatch embedded metric format on Lambda, each point with its dimension', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const metrics = createMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'eventbot-slack' });

    metrics.add('CreditsCharged', 2000, { name: 'action', value: 'event-unlock' });
    metrics.add('AckDuration', 412);

    const [charged, ack] = lines.map((line) => EmfSchema.parse(JSON.parse(line)));
    expect(charged?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'eventbot',
      Metrics: [{ Name: 'CreditsCharged', Unit: 'Count' }],
    });
    expect(charged?._aws.CloudWatchMetrics[0]?.Dimensions[0]).toContain('action');
    expect(charged).toMatchObject({ action: 'event-unlock', CreditsCharged: 2000 });
    expect(ack?._aws.CloudWatchMetrics[0]?.Metrics).toEqual([{ Name: 'AckDuration', Unit: 'Milliseconds' }]);
  });

  it('write nothing off Lambda (local runs and tests)', () => {
    const write = vi.spyOn(process.stdout, 'write');

    createMetrics({}).add('ChargesRun', 1);

    expect(write).not.toHaveBeenCalled();
  });
});
