import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BOLT_ON_LAMBDA_ALIASES } from '../../infra/bundling/aliases.ts';
import * as iconvStub from '../../infra/bundling/stubs/iconv-lite.ts';
import * as undiciStub from '../../infra/bundling/stubs/undici.ts';

// The stubs the Slack function's bundle gets in place of packages on Bolt's Express path. Whether the
// bundle really carries them is checked on the synthesized asset (`template.test.ts`, the bundles).

/** Resolves a chain of dependencies as Node would load it: `resolveVia('express', 'mime-types')`. */
function resolveVia(...chain: string[]): string {
  return chain.reduce((from, pkg) => createRequire(from).resolve(pkg), import.meta.filename);
}
/** The source of `file` in the package reached through `chain` from Bolt. */
function sourceOf(file: string, ...chain: string[]): string {
  const manifest = resolveVia('@slack/bolt', ...chain.slice(0, -1), `${chain.at(-1)}/package.json`);
  return readFileSync(manifest.replace(/package\.json$/, file), 'utf8');
}
/** The `iconv.name(` calls in a module. */
const iconvCalls = (source: string) =>
  [...source.matchAll(/\biconv\.(\w+)\(/g)].map((match) => match[1] ?? '');

describe('the Slack bundle aliases', () => {
  it('point at stub files that exist, for packages Bolt really depends on', () => {
    expect(Object.keys(BOLT_ON_LAMBDA_ALIASES).sort()).toEqual(['iconv-lite', 'mime-db', 'undici']);
    for (const path of Object.values(BOLT_ON_LAMBDA_ALIASES)) expect(existsSync(path), path).toBe(true);
    // If an upgrade of Bolt drops one, its alias goes too (rather than lingering unexplained).
    expect(() => resolveVia('@slack/bolt', 'raw-body', 'iconv-lite')).not.toThrow();
    expect(() => resolveVia('@slack/bolt', 'express', 'body-parser', 'iconv-lite')).not.toThrow();
    expect(() => resolveVia('@slack/bolt', 'express', 'mime-types', 'mime-db')).not.toThrow();
    expect(() => resolveVia('@slack/bolt', '@slack/socket-mode', 'undici')).not.toThrow();
  });

  it('stub every iconv-lite function raw-body and body-parser call', () => {
    const called = new Set([
      ...iconvCalls(sourceOf('index.js', 'raw-body')),
      ...iconvCalls(sourceOf('lib/read.js', 'express', 'body-parser')),
    ]);
    expect([...called].sort()).toEqual(['decode', 'encodingExists', 'getDecoder']);
    for (const name of called) expect(iconvStub).toHaveProperty(name, expect.any(Function));
  });

  it.each([
    ['getDecoder', () => iconvStub.getDecoder('shift_jis')],
    ['encodingExists', () => iconvStub.encodingExists('utf-8')],
    ['decode', () => iconvStub.decode(Buffer.from('x'), 'utf-8')],
  ])('make iconv-lite %s throw, naming the stub and the call', (name, call) => {
    expect(call).toThrow(iconvStub.ICONV_STUB_MESSAGE);
    expect(call).toThrow(`${name}(`);
  });

  it("keep raw-body from turning the stub's error into a 415 (it does so for unknown encodings only)", () => {
    // raw-body answers 415 for errors matching this; the stub's must stay visible as what they are.
    expect(sourceOf('index.js', 'raw-body')).toContain('/^Encoding not recognized: /');
    expect(() => iconvStub.getDecoder('utf-8')).toThrow(/^(?!Encoding not recognized: )/);
  });

  it('stub mime-db with a few entries in its format, which mime-types indexes like the real one', () => {
    const stub = JSON.parse(readFileSync(BOLT_ON_LAMBDA_ALIASES['mime-db'] as string, 'utf8')) as Record<
      string,
      { source: string; extensions?: string[] }
    >;
    const real = JSON.parse(
      readFileSync(resolveVia('@slack/bolt', 'express', 'mime-types', 'mime-db/db.json'), 'utf8'),
    ) as Record<string, { extensions?: string[] }>;
    expect(Object.keys(stub).length).toBeLessThan(10);
    for (const [type, entry] of Object.entries(stub)) {
      expect(real, type).toHaveProperty(type);
      expect(entry.source).toBe('iana');
      for (const extension of entry.extensions ?? []) {
        expect(real[type]?.extensions).toContain(extension);
      }
    }
    expect(stub['application/json']?.extensions).toEqual(['json']);
  });

  it('stub every undici export @slack/socket-mode uses, each throwing and naming the stub', () => {
    const used = new Set(socketModeSources().flatMap((source) => undiciUses(source)));
    expect([...used].sort()).toEqual([
      'Agent',
      'CloseEvent',
      'ErrorEvent',
      'MessageEvent',
      'WebSocket',
      'buildConnector',
      'fetch',
      'ping',
    ]);
    for (const name of used) {
      const stubbed: unknown = (undiciStub as Record<string, unknown>)[name];
      expect(stubbed, name).toEqual(expect.any(Function));
      const use = () => {
        const fn = stubbed as new () => unknown;
        return /^[A-Z]/.test(name) ? new fn() : (stubbed as () => unknown)();
      };
      expect(use, name).toThrow(undiciStub.UNDICI_STUB_MESSAGE);
      expect(use, name).toThrow(name);
    }
  });

  it("leave undici only to @slack/socket-mode in the Slack function's code (else the stub would be reached)", async () => {
    // The Slack handler bundled without the aliases: who imports undici, from outside undici itself?
    const result = await build({
      entryPoints: [join(ROOT, 'handlers', 'slack.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      mainFields: ['module', 'main'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const importers = Object.entries(result.metafile.inputs)
      .filter(([file]) => !file.includes('node_modules/undici/'))
      .filter(([, input]) => input.imports.some((imported) => imported.original === 'undici'))
      .map(([file]) => file);
    expect(importers.length).toBeGreaterThan(0);
    for (const file of importers) expect(file).toMatch(/node_modules\/@slack\/socket-mode\//);
  }, 60_000);
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The compiled sources of the `@slack/socket-mode` that Bolt loads. */
function socketModeSources(): string[] {
  const dir = join(dirname(resolveVia('@slack/bolt', '@slack/socket-mode/package.json')), 'dist', 'src');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}

/** The names a compiled CommonJS module reads off its `require("undici")` (`undici_1.WebSocket`). */
function undiciUses(source: string): string[] {
  const binding = /(?:const|var|let)\s+(\w+)\s*=\s*(?:__importDefault\()?require\("undici"\)/.exec(
    source,
  )?.[1];
  if (!binding) return [];
  return [...source.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, 'g'))].map((match) => match[1] ?? '');
}
