import type { SlackHttpEvent } from '../src/slack/app.ts';
import { createSlackHandlerLoader } from '../src/slack-runtime.ts';

// Slash commands and buttons (API Gateway HTTP API v2 / Function URL events). Built once per cold start.
const load = createSlackHandlerLoader();
// Started in the init phase, so the first request finds the secret read and the app built; a failure
// here is reported by the request that awaits it again.
load().catch(() => undefined);

export const handler = async (event: SlackHttpEvent, context: unknown) => {
  const { handler: slack } = await load();
  return slack(event, context);
};
