import type { SlackHttpEvent } from '../src/slack/app.ts';
import { createSlackHandlerLoader } from '../src/roots/slack-runtime.ts';
import { createTracing } from '../src/platform/tracing.ts';

// Slash commands and buttons (API Gateway HTTP API v2 / Function URL events). Built once per cold start.
// X-Ray on Lambda only: elsewhere (tests, `npm run dev`) tracing is a no-op that loads nothing.
const tracing = createTracing();
const load = createSlackHandlerLoader(process.env, { tracing });
// Started in the init phase, so the first request finds the secret read and the app built; a failure
// here is reported by the request that awaits it again.
load().catch(() => undefined);

export const handler = (event: SlackHttpEvent, context: unknown) =>
  tracing.traceInvocation(async () => {
    const { handler: slack } = await load();
    return slack(event, context);
  });
