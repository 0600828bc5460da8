import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import cdkJson from '../../../cdk.json' with { type: 'json' };
import { readDeployConfig } from '../../../infra/config.ts';
import { EventbotStack } from '../../../infra/eventbot-stack.ts';

export interface Synthesized {
  stack: EventbotStack;
  template: Template;
  outdir: string;
}

/**
 * Synthesizes the stack as `bin/app.ts` does, with `context` on top of the `cdk.json` defaults. With
 * `bundle: false` the functions are not built (CDK's `aws:cdk:bundling-stacks`), for tests that only
 * vary configuration. With `nag: true`, cdk-nag's AWS Solutions checks run on the synth first.
 */
const outdirs: string[] = [];

/** Deletes what `synthesize` wrote (bundles included); for `afterAll`. */
export function removeSynthesized(): void {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function synthesize(
  options: { context?: Record<string, unknown>; bundle?: boolean; nag?: boolean } = {},
): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'eventbot-cdk-'));
  outdirs.push(outdir);
  const app = new App({
    outdir,
    context: {
      ...cdkJsonContext(),
      ...options.context,
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
    },
  });
  const stack = new EventbotStack(app, 'Eventbot', { config: readDeployConfig(app.node) });
  if (options.nag) {
    // cdk-nag's AWS Solutions rules: any unacknowledged finding fails `app.synth()` with its report.
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    app.synth();
  }
  return { stack, template: Template.fromStack(stack), outdir };
}

function cdkJsonContext(): Record<string, unknown> {
  return (cdkJson as { context: Record<string, unknown> }).context;
}

export function sizeKb(path: string): number {
  return Math.round(statSync(path).size / 1024);
}
