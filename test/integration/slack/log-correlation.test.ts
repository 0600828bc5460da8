import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Bot, startBot } from '../../support/bot.ts';

const LineSchema = z.looseObject({
  level: z.string(),
  message: z.string(),
  correlation_id: z.string().optional(),
  error: z
    .looseObject({ name: z.string(), message: z.string(), stack: z.string(), cause: z.unknown().optional() })
    .optional(),
});

describe('log lines of one Slack request', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('show a failing upstream call with its stack, its cause and the correlation id of the request', async () => {
    bot.sim.injectFault({ kind: 'malformed-json', route: 'POST /external/events/fit-score', times: 5 });
    const before = bot.logger.lines.length;

    await bot.command('fit 26855');
    await bot.idle();

    const lines = bot.logger.lines.slice(before).map((line) => LineSchema.parse(JSON.parse(line)));
    const failed = lines.find((line) => line.message === 'job failed');
    expect(failed?.error?.stack).toContain('at ');
    // The reply could not be read: the parser's own error is the cause.
    expect(failed?.error?.cause).toMatchObject({ name: 'SyntaxError' });
    expect(failed?.correlation_id).toMatch(/.+/);
    // The request's own lines (the Slack handler's) and the worker's share the one id.
    expect(new Set(lines.map((line) => line.correlation_id))).toEqual(new Set([failed?.correlation_id]));
  });
});
