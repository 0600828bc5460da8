import { createDocumentClient, ensureTable } from '../src/store/table.ts';

// `npm run db:init`: creates the table at AWS_ENDPOINT_URL_DYNAMODB (idempotent).
const tableName = process.env.TABLE_NAME ?? 'eventbot';
const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
const result = await ensureTable(createDocumentClient(endpoint ? { endpoint } : {}), tableName);
console.log(
  `table ${tableName} ${result === 'created' ? 'created' : 'already exists'}${endpoint ? ` at ${endpoint}` : ''}`,
);
