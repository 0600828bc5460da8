import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SeededEvent } from '../../../simulator/server.ts';
import { BOT_TOKEN, type Bot, startBot } from '../../support/bot.ts';

const STEP = 'event_fit_score';
const BAND = { recommended: 'Recommended', consider: 'Consider', not_recommended: 'Not recommended' };

describe('the Workflow Builder step "Event fit score"', () => {
  let bot: Bot;
  let event: SeededEvent;
  beforeAll(async () => {
    bot = await startBot();
    const [first] = bot.sim.events;
    if (!first) throw new Error('no seeded event');
    event = first;
  });
  afterAll(() => bot.close());

  const resultOf = (functionExecutionId: string) =>
    bot.slack.functionResults.filter((result) => result.functionExecutionId === functionExecutionId);
  const completionsOf = (functionExecutionId: string) =>
    bot.slack.calls.filter(
      (call) =>
        call.method.startsWith('functions.complete') &&
        call.args.function_execution_id === functionExecutionId,
    );

  it('completes with the event’s name, score, band and start date', async () => {
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: event.eventId } });
    await bot.idle();

    expect(run.status).toBe(200);
    expect(resultOf(run.functionExecutionId)).toEqual([
      {
        functionExecutionId: run.functionExecutionId,
        outcome: 'success',
        outputs: {
          event_name: event.name,
          score: Math.round(event.fit.score * 10) / 10,
          band: BAND[event.fit.recommendation],
          start_date: event.dateStart,
        },
      },
    ]);
  });

  it('answers with the outputs the manifest declares, every required one included', async () => {
    const declared = z
      .object({
        functions: z.record(
          z.string(),
          z.object({ output_parameters: z.record(z.string(), z.object({ is_required: z.boolean() })) }),
        ),
      })
      .parse(JSON.parse(readFileSync('manifests/manifest.json', 'utf8'))).functions[STEP]?.output_parameters;
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: event.eventId } });
    await bot.idle();

    const outputs = Object.keys(resultOf(run.functionExecutionId)[0]?.outputs ?? {});
    const required = Object.entries(declared ?? {}).filter(([, parameter]) => parameter.is_required);
    expect(outputs.every((name) => name in (declared ?? {}))).toBe(true);
    expect(required.map(([name]) => name).every((name) => outputs.includes(name))).toBe(true);
  });

  it('completes with the bot token and never writes the workflow token to the logs', async () => {
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: event.eventId } });
    await bot.idle();

    const [completion] = completionsOf(run.functionExecutionId);
    expect(completion?.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(bot.logger.lines.join('\n')).not.toContain('xwfp-');
  });

  it('fails with a clear error naming an unknown event id', async () => {
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: '99999999' } });
    await bot.idle();

    const [result] = resultOf(run.functionExecutionId);
    expect(result?.outcome).toBe('error');
    expect(result?.error).toMatch(/No event with id 99999999 was found/);
    expect(result?.error).not.toMatch(/\bat .*\.ts:\d+|sk_|xox|xwfp/);
  });

  it('fails with a clear error when the input is not an event id, without asking the service', async () => {
    const requests = bot.sim.requests().length;
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: 'next week’s show' } });
    await bot.idle();

    const [result] = resultOf(run.functionExecutionId);
    expect(result?.outcome).toBe('error');
    expect(result?.error).toContain('is not an event id');
    expect(bot.sim.requests()).toHaveLength(requests);
  });

  it('completes once when Slack delivers the same execution twice', async () => {
    const run = await bot.slack.runFunction({ callbackId: STEP, inputs: { event_id: event.eventId } });
    const again = await bot.slack.sendEvent(
      {
        type: 'function_executed',
        function: { id: `Fn0${STEP}`, callback_id: STEP, title: STEP, type: 'app' },
        inputs: { event_id: event.eventId },
        function_execution_id: run.functionExecutionId,
        workflow_execution_id: 'Wx0AGAIN',
        bot_access_token: 'xwfp-local-workflow-token',
      },
      { eventId: run.eventId },
    );
    await bot.idle();

    expect(again.status).toBe(200);
    expect(completionsOf(run.functionExecutionId)).toHaveLength(1);
  });
});
