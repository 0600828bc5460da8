import type { Template } from 'aws-cdk-lib/assertions';
import { allResources, at, resourcesOf } from './template.ts';

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource?: unknown;
  Principal?: unknown;
  Condition?: unknown;
}

export const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every statement of every policy document in the template: role policies, queue and topic policies. */
export function allStatements(template: Template): { owner: string; statement: Statement }[] {
  const found: { owner: string; statement: Statement }[] = [];
  for (const [id, resource] of Object.entries(allResources(template))) {
    const document = resource.Properties?.PolicyDocument as { Statement: Statement[] } | undefined;
    for (const statement of document?.Statement ?? []) found.push({ owner: id, statement });
    const inline = resource.Properties?.Policies as
      { PolicyDocument: { Statement: Statement[] } }[] | undefined;
    for (const policy of inline ?? []) {
      for (const statement of policy.PolicyDocument.Statement) found.push({ owner: id, statement });
    }
  }
  return found;
}

/** The statements of the policies attached to the role with logical id `roleId`. */
export function roleStatements(template: Template, roleId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) =>
      (at(policy, 'Properties', 'Roles') as { Ref: string }[]).some((role) => role.Ref === roleId),
    )
    .flatMap(
      (policy) => (at(policy, 'Properties', 'PolicyDocument') as { Statement: Statement[] }).Statement,
    );
}

/**
 * A resource reference rendered as a short readable name (`table`, `table/index/due`, `secret`, …)
 * through `names`, a map from logical id to name, so grants can be compared as plain strings.
 */
export function describeResource(resource: unknown, names: Record<string, string>): string {
  const ref = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    if (typeof record.Ref === 'string') return names[record.Ref] ?? `?${record.Ref}`;
    const getAtt = record['Fn::GetAtt'] as [string, string] | undefined;
    if (getAtt) return names[getAtt[0]] ?? `?${getAtt[0]}`;
    return undefined;
  };
  if (typeof resource === 'string') return resource;
  const direct = ref(resource);
  if (direct) return direct;
  const join = (resource as Record<string, unknown>)['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) return join[1].map((part) => ref(part) ?? String(part)).join(join[0]);
  return JSON.stringify(resource);
}

/** `action on resource` strings for the role's Allow statements, sorted. */
export function grantsOf(template: Template, roleId: string, names: Record<string, string>): string[] {
  return roleStatements(template, roleId)
    .filter((statement) => statement.Effect === 'Allow')
    .flatMap((statement) =>
      asList(statement.Action).flatMap((action) =>
        asList(statement.Resource).map((resource) => `${action} on ${describeResource(resource, names)}`),
      ),
    )
    .sort();
}
