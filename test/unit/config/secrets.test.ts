import { describe, expect, it } from 'vitest';
import { readEnv } from '../../../src/platform/config/env.ts';
import { createSecretsProvider, createSlackSecretsProvider } from '../../../src/platform/config/secrets.ts';

const env = readEnv({ TABLE_NAME: 't', EIS_BASE_URL: 'http://127.0.0.1:1', APP_SECRET_ID: 'arn:secret' });

/** A Secrets Manager stand-in that answers with whatever `current` holds, counting calls. */
function fakeSecretsManager() {
  const state = { current: '', calls: 0 };
  const readSecret = () => {
    state.calls += 1;
    return Promise.resolve(state.current);
  };
  return { state, readSecret };
}

const secret = (key: string) =>
  JSON.stringify({ slackSigningSecret: 'signing-1', slackBotToken: 'xoxb-1', eisApiKey: key });

describe('secrets', () => {
  it('are read once per five minutes, and stay the same object until a value rotates', async () => {
    const { state, readSecret } = fakeSecretsManager();
    let now = 0;
    const secrets = createSecretsProvider(env, { readSecret, now: () => now });
    state.current = secret('sk_one');

    const first = await secrets();
    const cached = await secrets();
    now += 5 * 60_000;
    const reread = await secrets();
    state.current = secret('sk_two');
    now += 5 * 60_000;
    const rotated = await secrets();

    expect(state.calls).toBe(3);
    expect(cached).toBe(first);
    expect(reread).toBe(first);
    expect(rotated).not.toBe(first);
    expect(rotated.eisApiKey).toBe('sk_two');
  });

  it('never calls Secrets Manager when the three local overrides are set', async () => {
    const { state, readSecret } = fakeSecretsManager();
    const local = readEnv({
      TABLE_NAME: 't',
      EIS_BASE_URL: 'http://127.0.0.1:1',
      SLACK_SIGNING_SECRET: 's',
      SLACK_BOT_TOKEN: 'xoxb-local',
      EIS_API_KEY: 'sk_local',
    });

    const secrets = await createSecretsProvider(local, { readSecret })();

    expect(secrets.eisApiKey).toBe('sk_local');
    expect(state.calls).toBe(0);
  });

  it('names the expected fields, never the value, when the secret is not valid JSON', async () => {
    const { state, readSecret } = fakeSecretsManager();
    state.current = 'xoxb-pasted-by-mistake';

    const failure = createSecretsProvider(env, { readSecret })();

    await expect(failure).rejects.toThrow(/slackSigningSecret, slackBotToken and eisApiKey/);
    await expect(failure).rejects.not.toThrow(/xoxb-pasted/);
  });

  it('keep the service key out of the Slack function: two secrets, each read by who needs it', async () => {
    const read: string[] = [];
    const values: Record<string, string> = {
      'arn:slack': JSON.stringify({ slackSigningSecret: 'signing-1', slackBotToken: 'xoxb-1' }),
      'arn:service': JSON.stringify({ eisApiKey: 'sk_test_split' }),
    };
    const readSecret = (id: string) => {
      read.push(id);
      return Promise.resolve(values[id]);
    };
    const split = readEnv({
      TABLE_NAME: 't',
      EIS_BASE_URL: 'http://127.0.0.1:1',
      APP_SECRET_ID: 'arn:slack',
      EIS_SECRET_ID: 'arn:service',
    });

    const slackOnly = await createSlackSecretsProvider(split, { readSecret })();
    const slackReads = [...read];
    const all = await createSecretsProvider(split, { readSecret })();

    expect(slackOnly).toEqual({ slackSigningSecret: 'signing-1', slackBotToken: 'xoxb-1' });
    expect(slackReads).toEqual(['arn:slack']);
    expect(all).toEqual({
      slackSigningSecret: 'signing-1',
      slackBotToken: 'xoxb-1',
      eisApiKey: 'sk_test_split',
    });
  });
});
