import type { TestProject } from 'vitest/node';
import { JavaMissingError, startDynamoDbLocal } from '../../local/dynamodb-local.ts';

// One DynamoDB Local for the whole run; each test file creates its own uniquely named table.
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal().catch((error: unknown) => {
    // One clear line (what to install), not a stack trace.
    if (error instanceof JavaMissingError) error.stack = error.message;
    throw error;
  });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
