import type { Template } from 'aws-cdk-lib/assertions';
import { z } from 'zod';

// `aws-cdk-lib/assertions` hands the template back as `any`; these read it as typed values. What a
// resource's properties hold stays `unknown` and is read with `at` / `recordAt`.

const ResourceSchema = z.looseObject({
  Type: z.string(),
  Properties: z.record(z.string(), z.unknown()).optional(),
});
export type CfnResource = z.infer<typeof ResourceSchema>;
const ResourcesSchema = z.record(z.string(), ResourceSchema);

/** The resources of `type` matching `props` (as `Template.findResources`), by logical id. */
export function resourcesOf(template: Template, type: string, props?: unknown): Record<string, CfnResource> {
  return ResourcesSchema.parse(template.findResources(type, props));
}

/** Every resource of the template, by logical id. */
export function allResources(template: Template): Record<string, CfnResource> {
  return ResourcesSchema.parse(template.toJSON().Resources);
}

/** The resource with logical id `id`. */
export function resourceOf(template: Template, id: string): CfnResource {
  const resource = allResources(template)[id];
  if (!resource) throw new Error(`no resource ${id} in the template`);
  return resource;
}

/** `value.a.b.c` for `at(value, 'a', 'b', 'c')`; throws where a step is not an object, as `.` would. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const [index, key] of path.entries()) {
    if (typeof current !== 'object' || current === null) {
      throw new TypeError(
        `cannot read ${key}: ${path.slice(0, index).join('.') || 'the value'} is not an object`,
      );
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `at`, for a value that must be an object. */
export function recordAt(value: unknown, ...path: string[]): Record<string, unknown> {
  const found = at(value, ...path);
  if (typeof found !== 'object' || found === null) throw new TypeError(`${path.join('.')} is not an object`);
  return found as Record<string, unknown>;
}
