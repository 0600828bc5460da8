import { createSlackHandlerLoader } from '../src/runtime.ts';
import type { SlackHttpEvent } from '../src/slack/app.ts';

// Slash commands and buttons (API Gateway HTTP API v2 / Function URL events). Built once per cold start.
const load = createSlackHandlerLoader();

export const handler = async (event: SlackHttpEvent, context: unknown) => {
  const { handler: slack } = await load();
  return slack(event, context);
};
