import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../../src/store/table.ts';

/**
 * What a function does with the table, as IAM actions. Transactions need no action of their own:
 * IAM checks each Put/Update inside them.
 */
export interface TableAccess {
  /** Item actions on the table itself. */
  readonly items: readonly string[];
  /** Query on the base table (e.g. the ledger by team). */
  readonly queryTable: boolean;
  /** Query on the `due` index (work that falls due). */
  readonly queryDueIndex: boolean;
}

export const TABLE_ACCESS = {
  /** The Slack function only claims, reads and closes confirmations and records deliveries before handing work on. */
  confirmations: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    queryTable: false,
    queryDueIndex: false,
  },
  readWrite: {
    items: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    queryTable: true,
    queryDueIndex: true,
  },
} as const satisfies Record<string, TableAccess>;

/** The single table, shaped by `TABLE_KEYS` (the same names the store and `db:init` use). */
export class BotTable extends Construct {
  readonly table: Table;
  /** The `due` index's ARN: Query on it is granted on this, not on `index/*`. */
  readonly dueIndexArn: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE_KEYS.ttl,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Ledger and confirmations are the record of money spent: keep them if the stack goes.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_KEYS.dueIndex,
      partitionKey: { name: TABLE_KEYS.dueKind, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.dueAt, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.dueIndexArn = `${this.table.tableArn}/index/${TABLE_KEYS.dueIndex}`;
  }
}
