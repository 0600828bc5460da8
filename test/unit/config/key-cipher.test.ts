import { createCipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { KMSClient } from '@aws-sdk/client-kms';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { readEnv } from '../../../src/platform/config/env.ts';
import {
  createLocalKeyCipher,
  KeyCipherError,
  SLACK_TOKENS_PURPOSE,
} from '../../../src/platform/config/key-cipher.ts';
import { createKeyCipher, createKmsKeyCipher } from '../../../src/platform/config/kms-key-cipher.ts';

const SERVICE_KEY = 'sk_test_4f9a2c7e1b8d3a6f5e0c9b2a';
const BOT_TOKEN = 'xoxb-test-1234-5678-abcdef';

/** Everything an error could put in a log line: message, stack, cause chain, inspected form. */
const everythingSaidBy = (error: unknown) => `${inspect(error, { depth: 5 })} ${JSON.stringify(error)}`;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a failure'),
    (error: unknown) => error,
  );
}

describe('local key cipher', () => {
  it('decrypts what it encrypted for the same team, and never stores the plaintext', async () => {
    const cipher = createLocalKeyCipher(randomBytes(32));

    const ciphertext = await cipher.encrypt('T1', SERVICE_KEY);

    expect(ciphertext).not.toContain(SERVICE_KEY);
    expect(Buffer.from(ciphertext, 'base64').toString('latin1')).not.toContain(SERVICE_KEY);
    expect(await cipher.decrypt('T1', ciphertext)).toBe(SERVICE_KEY);
    // A fresh IV each time: the same key encrypts differently.
    expect(await cipher.encrypt('T1', SERVICE_KEY)).not.toBe(ciphertext);
  });

  it("refuses another team's ciphertext, without the key in the error", async () => {
    const cipher = createLocalKeyCipher(randomBytes(32));
    const ciphertext = await cipher.encrypt('T1', SERVICE_KEY);

    const error = await failure(cipher.decrypt('T2', ciphertext));

    expect(error).toBeInstanceOf(KeyCipherError);
    expect(everythingSaidBy(error)).not.toContain(SERVICE_KEY);
  });

  it('refuses a tampered or truncated ciphertext, and one made with another key', async () => {
    const cipher = createLocalKeyCipher(randomBytes(32));
    const bytes = Buffer.from(await cipher.encrypt('T1', SERVICE_KEY), 'base64');
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;

    for (const bad of [tampered.toString('base64'), bytes.subarray(0, 20).toString('base64'), '']) {
      const error = await failure(cipher.decrypt('T1', bad));
      expect(error).toBeInstanceOf(KeyCipherError);
      expect(everythingSaidBy(error)).not.toContain(SERVICE_KEY);
    }
    const otherKey = createLocalKeyCipher(randomBytes(32));
    expect(await failure(otherKey.decrypt('T1', bytes.toString('base64')))).toBeInstanceOf(KeyCipherError);
  });

  it('keeps purposes apart: a Slack token does not decrypt as a service key, nor the other way round', async () => {
    const cipher = createLocalKeyCipher(randomBytes(32));
    const token = await cipher.encrypt('T1', BOT_TOKEN, SLACK_TOKENS_PURPOSE);
    const serviceKey = await cipher.encrypt('T1', SERVICE_KEY);

    const tokenAsKey = await failure(cipher.decrypt('T1', token));
    const keyAsToken = await failure(cipher.decrypt('T1', serviceKey, SLACK_TOKENS_PURPOSE));
    const otherTeam = await failure(cipher.decrypt('T2', token, SLACK_TOKENS_PURPOSE));

    expect(await cipher.decrypt('T1', token, SLACK_TOKENS_PURPOSE)).toBe(BOT_TOKEN);
    expect(await cipher.decrypt('T1', serviceKey, 'service-key')).toBe(SERVICE_KEY);
    for (const error of [tokenAsKey, keyAsToken, otherTeam]) expect(error).toBeInstanceOf(KeyCipherError);
    expect(everythingSaidBy(tokenAsKey)).not.toContain(BOT_TOKEN);
    expect(everythingSaidBy(keyAsToken)).not.toContain(SERVICE_KEY);
    expect(String(otherTeam)).toContain('Slack tokens');
  });

  it('still decrypts a service key stored before purposes existed (the team id alone as additional data)', async () => {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const legacy = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from('T1', 'utf8'));
    const encrypted = Buffer.concat([legacy.update(SERVICE_KEY, 'utf8'), legacy.final()]);
    const stored = Buffer.concat([iv, legacy.getAuthTag(), encrypted]).toString('base64');

    expect(await createLocalKeyCipher(key).decrypt('T1', stored)).toBe(SERVICE_KEY);
  });

  it('uses LOCAL_ENCRYPTION_KEY from the environment, and refuses one that is not 32 bytes', async () => {
    const key = randomBytes(32);
    const env = readEnv({
      TABLE_NAME: 't',
      EIS_BASE_URL: 'http://127.0.0.1:1',
      LOCAL_ENCRYPTION_KEY: key.toString('base64'),
    });
    const ciphertext = await createKeyCipher(env).encrypt('T1', SERVICE_KEY);

    expect(await createLocalKeyCipher(key).decrypt('T1', ciphertext)).toBe(SERVICE_KEY);
    const shortKey = randomBytes(16).toString('base64');
    expect(() =>
      readEnv({ TABLE_NAME: 't', EIS_BASE_URL: 'http://127.0.0.1:1', LOCAL_ENCRYPTION_KEY: shortKey }),
    ).toThrow(/LOCAL_ENCRYPTION_KEY: must be base64 of 32 bytes/);
  });

  it('on Lambda without KMS_KEY_ID, stores and reads nothing rather than fall back to the dev key', async () => {
    const env = readEnv({ TABLE_NAME: 't', EIS_BASE_URL: 'http://127.0.0.1:1' });
    const cipher = createKeyCipher(env, { onLambda: true });

    const refused = await failure(cipher.encrypt('T1', SERVICE_KEY));
    expect(refused).toBeInstanceOf(KeyCipherError);
    expect(String(refused)).toContain('KMS_KEY_ID');
    expect(String(refused)).not.toContain(SERVICE_KEY);
  });
});

const KmsRequestSchema = z.object({
  KeyId: z.string().optional(),
  EncryptionContext: z.record(z.string(), z.string()).optional(),
  Plaintext: z.string().optional(),
  CiphertextBlob: z.string().optional(),
});
const SealedSchema = z.object({ context: z.unknown(), plaintext: z.string() });

interface KmsCall {
  target: string;
  body: z.infer<typeof KmsRequestSchema>;
}

/**
 * A stand-in for KMS at the HTTP boundary: a real `KMSClient` sends its JSON requests here. The
 * "ciphertext" records the context it was made with; decrypting under another context fails as KMS does.
 */
function fakeKms() {
  const calls: KmsCall[] = [];
  const respond = (statusCode: number, body: unknown) => ({
    response: {
      statusCode,
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: Buffer.from(JSON.stringify(body)),
    },
  });
  const requestHandler = {
    handle: (request: { headers: Record<string, string>; body?: string | Uint8Array }) => {
      const text =
        typeof request.body === 'string' ? request.body : Buffer.from(request.body ?? []).toString();
      const call: KmsCall = {
        target: request.headers['x-amz-target'] ?? '',
        body: KmsRequestSchema.parse(JSON.parse(text)),
      };
      calls.push(call);
      if (call.target.endsWith('.Encrypt')) {
        const sealed = JSON.stringify({
          context: call.body.EncryptionContext,
          plaintext: call.body.Plaintext,
        });
        return Promise.resolve(
          respond(200, { KeyId: call.body.KeyId, CiphertextBlob: Buffer.from(sealed).toString('base64') }),
        );
      }
      const sealed = SealedSchema.parse(
        JSON.parse(Buffer.from(call.body.CiphertextBlob ?? '', 'base64').toString()),
      );
      if (JSON.stringify(sealed.context) !== JSON.stringify(call.body.EncryptionContext)) {
        return Promise.resolve(respond(400, { __type: 'InvalidCiphertextException', message: '' }));
      }
      return Promise.resolve(respond(200, { KeyId: call.body.KeyId, Plaintext: sealed.plaintext }));
    },
  };
  const kms = new KMSClient({
    region: 'eu-central-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    requestHandler,
    maxAttempts: 1,
  });
  return { kms, calls };
}

describe('KMS key cipher', () => {
  it('sends the team id as encryption context on encrypt and on decrypt', async () => {
    const { kms, calls } = fakeKms();
    const cipher = createKmsKeyCipher(kms, 'alias/eventbot-workspace-keys');

    const ciphertext = await cipher.encrypt('T1', SERVICE_KEY);
    const plaintext = await cipher.decrypt('T1', ciphertext);

    expect(plaintext).toBe(SERVICE_KEY);
    expect(calls.map((call) => [call.target, call.body.KeyId, call.body.EncryptionContext])).toEqual([
      ['TrentService.Encrypt', 'alias/eventbot-workspace-keys', { teamId: 'T1' }],
      ['TrentService.Decrypt', 'alias/eventbot-workspace-keys', { teamId: 'T1' }],
    ]);
  });

  it('sends the purpose with the team id for Slack tokens, and keeps purposes apart', async () => {
    const { kms, calls } = fakeKms();
    const cipher = createKmsKeyCipher(kms, 'alias/eventbot-workspace-keys');

    const token = await cipher.encrypt('E1', BOT_TOKEN, SLACK_TOKENS_PURPOSE);
    const plaintext = await cipher.decrypt('E1', token, SLACK_TOKENS_PURPOSE);
    const serviceKey = await cipher.encrypt('E1', SERVICE_KEY);

    expect(plaintext).toBe(BOT_TOKEN);
    expect(calls.slice(0, 2).map((call) => call.body.EncryptionContext)).toEqual([
      { teamId: 'E1', purpose: 'slack-tokens' },
      { teamId: 'E1', purpose: 'slack-tokens' },
    ]);
    expect(await failure(cipher.decrypt('E1', token))).toBeInstanceOf(KeyCipherError);
    expect(await failure(cipher.decrypt('E1', serviceKey, SLACK_TOKENS_PURPOSE))).toBeInstanceOf(
      KeyCipherError,
    );
  });

  it("fails for another team's ciphertext, without the key in the error", async () => {
    const { kms } = fakeKms();
    const cipher = createKmsKeyCipher(kms, 'alias/eventbot-workspace-keys');
    const ciphertext = await cipher.encrypt('T1', SERVICE_KEY);

    const error = await failure(cipher.decrypt('T2', ciphertext));

    expect(error).toBeInstanceOf(KeyCipherError);
    expect(everythingSaidBy(error)).not.toContain(SERVICE_KEY);
  });

  it('is chosen when KMS_KEY_ID is set', async () => {
    const { kms, calls } = fakeKms();
    const env = readEnv({ TABLE_NAME: 't', EIS_BASE_URL: 'http://127.0.0.1:1', KMS_KEY_ID: 'alias/k' });

    await createKeyCipher(env, { kms: () => kms }).encrypt('T1', SERVICE_KEY);

    expect(calls).toHaveLength(1);
  });
});
