import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
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
 * vary configuration.
 */
export function synthesize(
  options: { context?: Record<string, unknown>; bundle?: boolean } = {},
): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'eventbot-cdk-'));
  const app = new App({
    outdir,
    context: {
      ...cdkJsonContext(),
      ...options.context,
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
    },
  });
  const stack = new EventbotStack(app, 'Eventbot', { config: readDeployConfig(app.node) });
  return { stack, template: Template.fromStack(stack), outdir };
}

function cdkJsonContext(): Record<string, unknown> {
  return (cdkJson as { context: Record<string, unknown> }).context;
}

export type CfnResource = { Type: string; Properties?: Record<string, unknown> };

/** The logical id of the one resource of `type` under the construct path prefix `idPrefix`. */
export function logicalIdOf(template: Template, type: string, idPrefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(idPrefix));
  if (ids.length !== 1)
    throw new Error(`Expected one ${type} starting ${idPrefix}, found ${ids.join(', ') || 'none'}`);
  return ids[0] as string;
}

export function sizeKb(path: string): number {
  return Math.round(statSync(path).size / 1024);
}
