import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync } from 'esbuild';

/** esbuild's ESM output has no `require`; bundled CommonJS dependencies (Bolt's) still call it. */
export const REQUIRE_SHIM =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The esbuild settings the stack's `NodejsFunction` passes (`infra/constructs/bot-function.ts`):
 * ESM for node22, `module` before `main`, minified, a linked source map without sources, the
 * require shim, and the AWS SDK bundled (no externals). The bench builds with them too.
 */
export const STACK_ESBUILD: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  banner: { js: REQUIRE_SHIM },
  logLevel: 'warning',
};

/**
 * The esbuild options of a code-split bundle: the settings `NodejsFunction` passes the other functions
 * (`STACK_ESBUILD`), plus `splitting` into `outdir`: `index.mjs` and a `chunks/` folder.
 * A module behind a dynamic `import()` goes to a chunk Node reads and compiles only when a request
 * reaches that `import()`; in one file, Node compiles every byte at the cold start.
 */
export function splitBundleOptions(
  entry: string,
  outdir: string,
  aliases: Readonly<Record<string, string>> = {},
): BuildOptions {
  return {
    entryPoints: { index: entry },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    ...STACK_ESBUILD,
    alias: { ...aliases },
  };
}

/**
 * A Lambda asset built by the local esbuild with code splitting (`NodejsFunction` always writes one
 * `--outfile`, which esbuild refuses to split). Never in Docker: the image is only named because CDK
 * requires one, and local bundling always succeeds or throws.
 */
export function splitBundleCode(entry: string, aliases: Readonly<Record<string, string>> = {}): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('never-used-local-bundling-only'),
      // Part of CDK's cache key: two entries must never share one staged bundle.
      command: [
        'esbuild',
        relative(PROJECT_ROOT, entry),
        '--splitting',
        ...Object.entries(aliases).map(([name, path]) => `--alias:${name}=${relative(PROJECT_ROOT, path)}`),
      ],
      local: {
        tryBundle(outputDir) {
          buildSync(splitBundleOptions(entry, outputDir, aliases));
          return true;
        },
      },
    },
  });
}
