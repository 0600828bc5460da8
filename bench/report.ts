import { cpus, loadavg, totalmem } from 'node:os';
import type { Bundle, BundleName } from './build.ts';
import { type ColdStartSample, type Variant, VARIANTS } from './cold-start.ts';
import { type KeepAliveResult, median } from './keep-alive.ts';
import { SECRETS_MANAGER_DELAY_MS } from './stand-in-world.ts';

/**
 * The issues' targets: issue 12 (bundle sizes, the ack against Bolt built the usual way) and issue 24
 * (the ack against Bolt built with the Slack function's own esbuild settings and aliases).
 */
export const TARGETS = {
  workerKiB: 1_200,
  slackToBaseline: 1.2,
  ackToBaseline: 1.3,
  ackToStackBaseline: 1.3,
} as const;

const kib = (bytes: number) => bytes / 1024;
export const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
export const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const fmtKiB = (bytes: number) => `${fmt(kib(bytes), kib(bytes) < 10 ? 1 : 0)} KiB`;
export const fmtRatio = (value: number) => `${value.toFixed(2)}×`;

export interface ColdStartSummary {
  medianMs: number;
  minMs: number;
  maxMs: number;
  samplesMs: number[];
  /** Median spawn → bundle imported (the init phase, before the request). */
  initMedianMs: number;
  /** Median CPU time (user + system) of the process at the ack, and when the bundle was imported. */
  cpuMedianMs: number;
  initCpuMedianMs: number;
  /** Requests per start to each stand-in (the most seen in any run). */
  requests: ColdStartSample['requests'];
}

export function summarizeColdStarts(
  samples: ColdStartSample[],
  delays: number[],
): Record<Variant, Record<string, ColdStartSummary>> {
  const byVariant = (variant: Variant) =>
    Object.fromEntries(
      delays.map((delayMs) => {
        const mine = samples.filter((s) => s.variant === variant && s.delayMs === delayMs);
        const ms = mine.map((s) => s.ms);
        const most = (key: keyof ColdStartSample['requests']) =>
          Math.max(0, ...mine.map((s) => s.requests[key]));
        const requests = {
          dynamodb: most('dynamodb'),
          lambda: most('lambda'),
          slackAuthTest: most('slackAuthTest'),
          secretsManager: most('secretsManager'),
        };
        return [
          String(delayMs),
          {
            medianMs: median(ms),
            minMs: Math.min(...ms),
            maxMs: Math.max(...ms),
            samplesMs: ms,
            initMedianMs: median(mine.map((s) => s.initMs)),
            cpuMedianMs: median(mine.map((s) => s.cpuMs)),
            initCpuMedianMs: median(mine.map((s) => s.initCpuMs)),
            requests,
          },
        ];
      }),
    );
  return Object.fromEntries(VARIANTS.map((v) => [v, byVariant(v)])) as Record<
    Variant,
    Record<string, ColdStartSummary>
  >;
}

/** The summaries as written to results.json: ms to 0.1, each median also as a ratio to the baseline's and the floor's. */
export function coldStartFigures(cold: Record<Variant, Record<string, ColdStartSummary>>) {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const figures = (variant: Variant) =>
    Object.fromEntries(
      Object.entries(cold[variant]).map(([delay, s]) => [
        delay,
        {
          medianMs: round(s.medianMs),
          minMs: round(s.minMs),
          maxMs: round(s.maxMs),
          initMedianMs: round(s.initMedianMs),
          toBaseline: ratio(s.medianMs, cold.baseline[delay]?.medianMs ?? Number.NaN),
          toStackBaseline: ratio(s.medianMs, cold['baseline-stack'][delay]?.medianMs ?? Number.NaN),
          toStackSecretsManagerBaseline: ratio(
            s.medianMs,
            cold['baseline-stack-secrets-manager'][delay]?.medianMs ?? Number.NaN,
          ),
          toFloor: ratio(s.medianMs, cold.floor[delay]?.medianMs ?? Number.NaN),
          samplesMs: s.samplesMs.map(round),
          requests: s.requests,
        },
      ]),
    );
  return Object.fromEntries(VARIANTS.map((v) => [v, figures(v)]));
}

export type Row = [
  figure: string,
  eventbot: string,
  baseline: string,
  floor: string,
  toBaseline: string,
  target: string,
];

export function bundleRows(bundles: Record<BundleName, Bundle>): Row[] {
  const base = bundles.baseline.bytes;
  const slack = bundles.slack.bytes;
  const slackRatio = ratio(slack, base);
  const slackLine = TARGETS.slackToBaseline * base;
  const slackVerdict =
    slackRatio <= TARGETS.slackToBaseline
      ? `≤ ${TARGETS.slackToBaseline}× baseline: **met** (${fmtKiB(slackLine - slack)} under)`
      : `≤ ${TARGETS.slackToBaseline}× baseline: **missed** by ${fmtKiB(slack - slackLine)}`;
  const rows: Row[] = [
    [
      'slack bundle, raw',
      fmtKiB(slack),
      fmtKiB(base),
      fmtKiB(bundles.floor.bytes),
      fmtRatio(slackRatio),
      slackVerdict,
    ],
  ];
  const stackBase = bundles['baseline-stack'].bytes;
  rows.push([
    "slack bundle, raw, against Bolt built with the stack's aliases (baseline column)",
    fmtKiB(slack),
    fmtKiB(stackBase),
    fmtKiB(bundles.floor.bytes),
    fmtRatio(ratio(slack, stackBase)),
    '— (no target)',
  ]);
  for (const name of ['worker', 'poll-tasks', 'digest'] as const) {
    const bytes = bundles[name].bytes;
    const over = kib(bytes) - TARGETS.workerKiB;
    const verdict =
      over < 0
        ? `< ${fmt(TARGETS.workerKiB)} KiB: **met** (${fmt(-over, 1)} KiB under)`
        : `< ${fmt(TARGETS.workerKiB)} KiB: **missed** by ${fmt(over, 1)} KiB`;
    rows.push([`${name} bundle, raw`, fmtKiB(bytes), '—', '—', fmtRatio(ratio(bytes, base)), verdict]);
  }
  return rows;
}

const savedByIds = (ms: number) =>
  ms > 0
    ? `— (configuring the ids saves ${fmt(ms)} ms)`
    : `— (no saving measured: ${fmt(ms)} ms, within the noise)`;

const msCell = (s: ColdStartSummary) => `${fmt(s.medianMs)} ms (${fmt(s.minMs)}–${fmt(s.maxMs)})`;

export function coldStartRows(
  cold: Record<Variant, Record<string, ColdStartSummary>>,
  delays: number[],
): Row[] {
  const rows: Row[] = [];
  for (const variant of ['eventbot', 'eventbot-auth-test'] as const) {
    for (const delay of delays) {
      const key = String(delay);
      const [mine, base, floor] = [cold[variant][key], cold.baseline[key], cold.floor[key]];
      if (!mine || !base || !floor) continue;
      const r = ratio(mine.medianMs, base.medianMs);
      const line = TARGETS.ackToBaseline * base.medianMs;
      const calls = mine.requests.dynamodb + mine.requests.lambda + mine.requests.slackAuthTest;
      const ids = variant === 'eventbot' ? 'ids configured' : 'ids from auth.test';
      const figure = `start → first ack, ${delay} ms round trips, ${ids} (${calls} requests before the ack)`;
      const verdict =
        variant === 'eventbot'
          ? `≤ ${TARGETS.ackToBaseline}× baseline: ${r <= TARGETS.ackToBaseline ? `**met** (${fmt(line - mine.medianMs)} ms under)` : `**missed** by ${fmt(mine.medianMs - line)} ms`}`
          : savedByIds(mine.medianMs - (cold.eventbot[key]?.medianMs ?? 0));
      rows.push([figure, msCell(mine), msCell(base), msCell(floor), fmtRatio(r), verdict]);
      if (variant === 'eventbot') rows.push(...stackBaselineRow(cold, delay));
      if (variant === 'eventbot' && delay === delays[0])
        rows.push(...initRow(cold, delay), cpuRow(cold, delay));
    }
  }
  for (const delay of delays) {
    rows.push(...stackBaselineRow(cold, delay, 'eventbot-secrets-manager'));
    rows.push(...stackBaselineRow(cold, delay, 'eventbot-secrets-manager', 'baseline-stack-secrets-manager'));
  }
  rows.push(cpuRow(cold, delays[0] ?? 0, 'eventbot-secrets-manager', 'baseline-stack-secrets-manager'));
  return rows;
}

/**
 * The same first ack against the Bolt app built with the Slack function's own esbuild settings and
 * aliases (issue 24's target): what eventbot adds to Bolt, the stubs' saving taken out of both. With
 * the Slack secret in Secrets Manager, against that app twice: with its secrets in its environment,
 * and reading them from the same stand-in with the SDK (like with like).
 */
function stackBaselineRow(
  cold: Record<Variant, Record<string, ColdStartSummary>>,
  delay: number,
  variant: 'eventbot' | 'eventbot-secrets-manager' = 'eventbot',
  baseline: 'baseline-stack' | 'baseline-stack-secrets-manager' = 'baseline-stack',
): Row[] {
  const key = String(delay);
  const [mine, base, floor] = [cold[variant][key], cold[baseline][key], cold.floor[key]];
  if (!mine || !base || !floor) return [];
  const r = ratio(mine.medianMs, base.medianMs);
  const line = TARGETS.ackToStackBaseline * base.medianMs;
  const verdict = `≤ ${TARGETS.ackToStackBaseline}× stack baseline: ${r <= TARGETS.ackToStackBaseline ? `**met** (${fmt(line - mine.medianMs)} ms under)` : `**missed** by ${fmt(mine.medianMs - line)} ms`}`;
  const against =
    baseline === 'baseline-stack'
      ? 'the same stack-built Bolt app (secrets in its environment)'
      : `the same stack-built Bolt app reading its secret from the same stand-in with the SDK (${base.requests.secretsManager} read)`;
  return [
    [
      variant === 'eventbot'
        ? `… the same, against Bolt built with the stack's esbuild settings and aliases (baseline column; import ${fmt(mine.initMedianMs)} ms vs ${fmt(base.initMedianMs)} ms)`
        : `start → first ack, ${delay} ms round trips, the Slack secret from Secrets Manager at +${SECRETS_MANAGER_DELAY_MS} ms (${mine.requests.secretsManager} read), against ${against}`,
      msCell(mine),
      msCell(base),
      msCell(floor),
      fmtRatio(r),
      verdict,
    ],
  ];
}

/** The CPU time of a start (steadier than wall time on a shared machine), against the stack-built Bolt app. */
function cpuRow(
  cold: Record<Variant, Record<string, ColdStartSummary>>,
  delay: number,
  variant: 'eventbot' | 'eventbot-secrets-manager' = 'eventbot',
  baseline: 'baseline-stack' | 'baseline-stack-secrets-manager' = 'baseline-stack',
): Row {
  const key = String(delay);
  const [mine, base, floor] = [cold[variant][key], cold[baseline][key], cold.floor[key]];
  const cell = (s?: ColdStartSummary) =>
    s ? `${fmt(s.cpuMedianMs)} ms (import ${fmt(s.initCpuMedianMs)} ms)` : '—';
  return [
    variant === 'eventbot'
      ? `… CPU time of the start until the first ack, ${delay} ms round trips, against the stack-built Bolt app (baseline column)`
      : `… CPU time of the start until the first ack, the Slack secret from Secrets Manager, against the stack-built Bolt app reading its secret from Secrets Manager (baseline column)`,
    cell(mine),
    cell(base),
    cell(floor),
    mine && base ? fmtRatio(ratio(mine.cpuMedianMs, base.cpuMedianMs)) : '—',
    '— (what the rows above are made of, steadier under load)',
  ];
}

/** Where a start goes: the import alone (module load and the init phase's synchronous part). */
function initRow(cold: Record<Variant, Record<string, ColdStartSummary>>, delay: number): Row[] {
  const key = String(delay);
  const [mine, base, floor] = [cold.eventbot[key], cold.baseline[key], cold.floor[key]];
  if (!mine || !base || !floor) return [];
  const cell = (s: ColdStartSummary) => `${fmt(s.initMedianMs)} ms`;
  return [
    [
      `… of which start → bundle imported (init, before the request), ${delay} ms round trips`,
      cell(mine),
      cell(base),
      cell(floor),
      fmtRatio(ratio(mine.initMedianMs, base.initMedianMs)),
      '— (part of the row above)',
    ],
  ];
}

export function keepAliveRow(k: KeepAliveResult): Row {
  return [
    `service client, ${k.calls} sequential fit-score calls: keep-alive pool (eventbot) vs a new connection per request (baseline column)`,
    `${fmt(k.pooledMs)} ms`,
    `${fmt(k.freshMs)} ms`,
    '—',
    fmtRatio(ratio(k.pooledMs, k.freshMs)),
    '— (no target)',
  ];
}

export interface Measured {
  bundles: Record<BundleName, Bundle>;
  cold: Record<Variant, Record<string, ColdStartSummary>>;
  delays: number[];
  keepAlive: KeepAliveResult;
  /** The ack, poller and digest sections' rows, in that order. */
  sectionRows: Row[];
}

export function renderTable(m: Measured): string {
  return tableOf([
    ...bundleRows(m.bundles),
    ...coldStartRows(m.cold, m.delays),
    keepAliveRow(m.keepAlive),
    ...m.sectionRows,
  ]);
}

/** Rows as a Markdown table (a partial run, `BENCH_ONLY`, prints only its own). */
export function tableOf(rows: Row[]): string {
  const header: Row = ['figure', 'eventbot', 'baseline', 'floor', 'eventbot ÷ baseline', 'target'];
  const line = (row: Row) => `| ${row.join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

export function machine() {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}
