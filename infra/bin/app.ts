import { App } from 'aws-cdk-lib';
import { readDeployConfig } from '../config.ts';
import { EventbotStack } from '../eventbot-stack.ts';

const STACK_NAME = 'Eventbot';

const app = new App();
// Environment-agnostic unless the CLI knows the account (it does on deploy); synth needs no credentials.
const { CDK_DEFAULT_ACCOUNT: account, CDK_DEFAULT_REGION: region } = process.env;
new EventbotStack(app, STACK_NAME, {
  config: readDeployConfig(app.node),
  description: 'eventbot: Slack bot for the Event Intelligence Service',
  env: { ...(account === undefined ? {} : { account }), ...(region === undefined ? {} : { region }) },
});
