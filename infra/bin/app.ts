import { App } from 'aws-cdk-lib';
import { readDeployConfig } from '../config.ts';
import { EventbotStack } from '../eventbot-stack.ts';

const STACK_NAME = 'Eventbot';

const app = new App();
// Environment-agnostic unless the CLI knows the account (it does on deploy); synth needs no credentials.
new EventbotStack(app, STACK_NAME, {
  config: readDeployConfig(app.node),
  description: 'eventbot: Slack bot for the Event Intelligence Service',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
