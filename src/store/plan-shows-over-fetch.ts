import * as z from 'zod';
import type { AwsFetch } from '../platform/aws-fetch.ts';
import { type PlanShow, PlanShowSchema } from '../domain/ports/plan-records.ts';
import { keys } from './keys.ts';

/** The shows on a channel's plan, in the order they were added; none when it has no plan. */
export type PlanShowsReader = (teamId: string, channelId: string) => Promise<readonly PlanShow[]>;

const PlanShowsSchema = z.object({ shows: z.array(PlanShowSchema) });

/**
 * A channel's plan's shows over signed `fetch` (DynamoDB's JSON protocol), for the Slack function's
 * ack: one consistent GetItem of the plan item's `shows`, without loading the SDK (as
 * `deliveries-over-fetch.ts`), parsed as the store parses the plan.
 */
export function createFetchedPlanShows(dynamodb: AwsFetch, tableName: string): PlanShowsReader {
  return async (teamId, channelId) => {
    const { pk, sk } = keys.plan(teamId, channelId);
    const { text } = await dynamodb('/', {
      operation: 'GetItem',
      resource: { table_name: tableName },
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
      },
      body: JSON.stringify({
        TableName: tableName,
        Key: { pk: { S: pk }, sk: { S: sk } },
        ProjectionExpression: '#shows',
        ExpressionAttributeNames: { '#shows': 'shows' },
        ConsistentRead: true,
      }),
    });
    const answer: unknown = JSON.parse(text);
    if (typeof answer !== 'object' || answer === null || !('Item' in answer)) return [];
    // A plan the schema refuses is thrown: the ack leaves the command to the worker, which reports it.
    return PlanShowsSchema.parse(valueOf({ M: answer.Item })).shows;
  };
}

/** One value in DynamoDB's attribute-value JSON as a plain one (the types a plan's shows hold). */
function valueOf(attribute: unknown): unknown {
  if (typeof attribute !== 'object' || attribute === null) return undefined;
  const value = attribute as {
    S?: string;
    N?: string;
    BOOL?: boolean;
    NULL?: boolean;
    L?: unknown[];
    M?: object;
  };
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL) return null;
  if (value.L) return value.L.map(valueOf);
  if (value.M)
    return Object.fromEntries(Object.entries(value.M).map(([name, inner]) => [name, valueOf(inner)]));
  return undefined;
}
