import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../src/local/dynamodb-local.ts';

// One DynamoDB Local for the whole run; each test file creates its own uniquely named table.
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
