import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_INDEXES, TABLE_KEYS } from '../../src/store/table.ts';
import type { BotFunctionName } from '../config.ts';

/**
 * What a function does with the table, as IAM actions. Transactions need no action of their own:
 * IAM checks each Put/Update inside them.
 */
export interface TableAccess {
  /** Item actions on the table itself. */
  readonly items: readonly string[];
  /** Query on the base table (e.g. the ledger by team). */
  readonly queryTable: boolean;
  /** Query on the `due` and `teamDue` indexes (work that falls due, all of it or one workspace's). */
  readonly queryDueIndex: boolean;
}

/**
 * Each function's table actions, from the store calls its handler makes (`src/store`). None but the
 * worker deletes: DeleteItem is `/events digest off`; every other removal is a TTL expiry.
 */
export const TABLE_ACCESS = {
  /** Claims, reads and closes confirmations and records deliveries before handing work on. */
  slack: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: false,
    queryDueIndex: false,
  },
  /** Every command: charges, ledger by team (Query), subscriptions (put, get, delete), fit cache. */
  worker: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    queryTable: true,
    queryDueIndex: true,
  },
  /**
   * The reconciler (due confirmations on the index; get, expire, abandon, card shown: Get/Update;
   * settling a charge: a transaction of Updates and the unlock task's Put) and the unlock poller (due
   * tasks on the index; lease, reschedule, Slack failures: Update; result posted: a transaction of an
   * Update and the finished-task Put). The registry of workspaces with scheduled work (Query on the
   * table).
   */
  pollTasks: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: true,
    queryDueIndex: true,
  },
  /**
   * Due subscriptions (index); the team's ledger and finished tasks (Query on the table); the fit
   * cache (Get, Put); the day claim (Put); advancing or disabling a subscription (Update); the registry
   * of workspaces with scheduled work (Query).
   */
  digest: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: true,
    queryDueIndex: true,
  },
  /**
   * The hourly watch run: the registry of workspaces with scheduled work (Query on the table; Put once
   * to fill it, Update to pause), due watches on the team due index; inline (no queue) also the checks'.
   */
  watch: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: true,
    queryDueIndex: true,
  },
  /**
   * One channel's check: the claim (Put), settings and accounts (Get, Query on the table), what was
   * told and the reschedule (Update), the workspace's key and rules (Get).
   */
  watchCheck: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: true,
    queryDueIndex: false,
  },
} as const satisfies Record<BotFunctionName, TableAccess>;

/** The single table, shaped by `TABLE_KEYS` (the same names the store and `db:init` use). */
export class BotTable extends Construct {
  readonly table: Table;
  /** The indexes' ARNs: Query on them is granted on these, not on `index/*`. */
  readonly indexArns: string[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE_KEYS.ttl,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Ledger and confirmations are the record of money spent: keep them if the stack goes, and
      // refuse a DeleteTable from anyone (console, CLI, a replacement) until this is turned off.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    // One index added per deployment: CloudFormation adds (and DynamoDB backfills) one at a time.
    for (const index of TABLE_INDEXES)
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    this.indexArns = TABLE_INDEXES.map((index) => `${this.table.tableArn}/index/${index.name}`);
  }
}
