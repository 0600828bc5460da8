import { DEV_API_KEY, startSimulator } from './server.ts';

// Local entry: `tsx simulator/main.ts` (PORT to pin the port, LATENCY_MS to slow it down).
const simulator = await startSimulator({
  port: Number(process.env.PORT ?? 0),
  latencyMs: Number(process.env.LATENCY_MS ?? 0),
});
process.stdout.write(
  `Event Intelligence simulator listening on ${simulator.url} (dev key: ${DEV_API_KEY})\n`,
);

const stop = (): void => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
