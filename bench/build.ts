import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BOLT_ON_LAMBDA_ALIASES } from '../infra/bundling/aliases.ts';
import { STACK_ESBUILD, splitBundleOptions } from '../infra/bundling/split-bundle.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export { STACK_ESBUILD };

/**
 * Per-function aliases, as `infra/eventbot-stack.ts` passes them (`aliases:`): the Slack function's
 * Bolt-on-Lambda stubs. The baseline gets none: it stands for a Bolt app built the usual way. The
 * stack baseline is the same app built with the Slack function's own settings and aliases, so the
 * ratio to it counts only what eventbot adds to a Bolt app.
 */
const ALIASES: Partial<Record<BundleName, Readonly<Record<string, string>>>> = {
  slack: BOLT_ON_LAMBDA_ALIASES,
  'baseline-stack': BOLT_ON_LAMBDA_ALIASES,
  'baseline-stack-secrets-manager': BOLT_ON_LAMBDA_ALIASES,
};

/**
 * The Slack function is bundled with code splitting (`infra/bundling/split-bundle.ts`, whose options
 * this bench builds with); the stack baseline is built the same way, so both are split alike.
 */
const SPLIT: ReadonlySet<BundleName> = new Set(['slack', 'baseline-stack', 'baseline-stack-secrets-manager']);

/** What this mirror assumes of the construct and the stack; a mismatch is reported, not ignored. */
const CONSTRUCT_MARKERS = [
  'format: OutputFormat.ESM',
  "target: 'node22'",
  "mainFields: ['module', 'main']",
  'minify: true',
  'bundleAwsSDK: true',
  'banner: REQUIRE_SHIM',
  "import { REQUIRE_SHIM, splitBundleCode } from '../bundling/split-bundle.ts';",
];

/** The settings above that the construct or the stack no longer shows (empty when they agree). */
export function stackSettingsDrift(): string[] {
  const construct = readFileSync(join(ROOT, 'infra/constructs/bot-function.ts'), 'utf8');
  const drift = CONSTRUCT_MARKERS.filter((marker) => !construct.includes(marker));
  const unmirrored = /\b(externalModules|define|loader|nodeModules|inject|footer|keepNames|tsconfig)\s*:/;
  const otherArgs = construct.replace("esbuildArgs: { '--alias': aliases }", '').includes('esbuildArgs');
  if (unmirrored.test(construct) || otherArgs) {
    drift.push('bot-function.ts sets esbuild options (externals, defines, loaders, args) this mirror lacks');
  }
  const stack = readFileSync(join(ROOT, 'infra/eventbot-stack.ts'), 'utf8');
  const aliased = [...stack.matchAll(/handlerFile: '([\w-]+)\.ts'[^}]*?aliases: (\w+)/g)].map(
    (m) => `${m[1]}=${m[2]}`,
  );
  const split = [...stack.matchAll(/handlerFile: '([\w-]+)\.ts'[^}]*?codeSplitting: true/g)].map((m) => m[1]);
  if (split.join() !== 'slack') {
    drift.push(
      `eventbot-stack.ts splits other bundles than this mirror (slack only): ${split.join(', ') || 'none'}`,
    );
  }
  if (aliased.join() !== 'slack=BOLT_ON_LAMBDA_ALIASES') {
    drift.push(
      `eventbot-stack.ts aliases differ from this mirror's (slack only): ${aliased.join(', ') || 'none'}`,
    );
  }
  return drift;
}

export const HANDLERS = ['slack', 'worker', 'poll-tasks', 'digest'] as const;
export type HandlerName = (typeof HANDLERS)[number];
export type BundleName =
  HandlerName | 'baseline' | 'baseline-stack' | 'baseline-stack-secrets-manager' | 'floor';

export interface Bundle {
  name: BundleName;
  file: string;
  bytes: number;
}

const entryOf = (name: BundleName): string => {
  if (name === 'baseline' || name === 'baseline-stack') return join(ROOT, 'bench', 'baseline.ts');
  if (name === 'baseline-stack-secrets-manager') return join(ROOT, 'bench', 'baseline-secrets-manager.ts');
  if (name === 'floor') return join(ROOT, 'bench', 'floor.ts');
  return join(ROOT, 'handlers', `${name}.ts`);
};

/**
 * One bundle as the stack builds it, into `outDir/<name>/index.mjs` (the asset's file name); `bytes`
 * is what a cold start compiles: that file, and for a split bundle the chunks it imports statically
 * (the others are loaded only when a request reaches their `import()`).
 */
export async function buildBundle(name: BundleName, outDir: string): Promise<Bundle> {
  const file = join(outDir, name, 'index.mjs');
  const alias = ALIASES[name];
  if (SPLIT.has(name)) {
    const { metafile } = await build({
      ...splitBundleOptions(entryOf(name), join(outDir, name), alias),
      metafile: true,
    });
    return { name, file, bytes: staticallyLoadedBytes(metafile, file) };
  }
  await build({
    ...STACK_ESBUILD,
    ...(alias ? { alias: { ...alias } } : {}),
    entryPoints: [entryOf(name)],
    outfile: file,
  });
  return { name, file, bytes: statSync(file).size };
}

/** The bytes of `entry` and of every chunk it imports statically, however deep. */
function staticallyLoadedBytes(metafile: Metafile, entry: string): number {
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, output]) => [resolve(path), output]));
  const loaded = new Set<string>();
  const visit = (path: string) => {
    const output = outputs.get(path);
    if (!output || loaded.has(path)) return;
    loaded.add(path);
    for (const imported of output.imports)
      if (imported.kind === 'import-statement') visit(resolve(imported.path));
  };
  visit(resolve(entry));
  return [...loaded].reduce((sum, path) => sum + statSync(path).size, 0);
}

/** Every handler, the baselines and the floor, built one after another (the machine has 2 cores). */
export async function buildAll(outDir: string): Promise<Record<BundleName, Bundle>> {
  const names: BundleName[] = [
    ...HANDLERS,
    'baseline',
    'baseline-stack',
    'baseline-stack-secrets-manager',
    'floor',
  ];
  const bundles: Bundle[] = [];
  for (const name of names) bundles.push(await buildBundle(name, outDir));
  return Object.fromEntries(bundles.map((b) => [b.name, b])) as Record<BundleName, Bundle>;
}

/** The cold-start harness: plain Node, no dependency, so it adds nothing measurable to a start. */
export async function buildHarness(outDir: string): Promise<string> {
  const file = join(outDir, 'harness.mjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'harness.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return file;
}
