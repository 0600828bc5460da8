import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEmulator } from '../../../local/dynamodb-local.ts';

/** A stand-in for the emulator's npm tarball: the jar and its library folder, nothing else. */
function fakeTarball(dir: string): Buffer {
  const emulator = join(dir, 'package', 'emulator');
  mkdirSync(join(emulator, 'DynamoDBLocal_lib'), { recursive: true });
  writeFileSync(join(emulator, 'DynamoDBLocal.jar'), 'not really a jar');
  writeFileSync(join(emulator, 'DynamoDBLocal_lib', 'native.so'), Buffer.alloc(200_000, 7));
  execFileSync('tar', ['czf', 'emulator.tgz', 'package'], { cwd: dir });
  return readFileSync(join(dir, 'emulator.tgz'));
}

describe('ensureEmulator', () => {
  let root: string;
  let server: Server;
  let tarball: Buffer;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
    tarball = fakeTarball(join(root, 'source'));
    // Sent in slices with pauses, as a slow network would, so progress lines have time to appear.
    server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-length': tarball.length });
      const slices = [0, 1, 2, 3].map((i) =>
        tarball.subarray((i * tarball.length) / 4, ((i + 1) * tarball.length) / 4),
      );
      const next = () => {
        const slice = slices.shift();
        if (!slice) return response.end();
        response.write(slice);
        setTimeout(next, 60);
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emulator.tgz`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  const integrityOf = (bytes: Buffer) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

  it('says what it fetches, from where and how far it got, then stays quiet once cached', async () => {
    // Prepare
    const cacheDir = join(root, 'cache-ok');
    const lines: string[] = [];
    const options = {
      cacheDir,
      locate: () => Promise.resolve({ tarball: url, integrity: integrityOf(tarball) }),
      log: (line: string) => lines.push(line),
      progressEveryMs: 40,
    };

    // Act
    const first = await ensureEmulator(options);
    const linesAfterFirst = lines.length;
    const second = await ensureEmulator(options);

    // Assess
    expect(existsSync(join(first, 'DynamoDBLocal.jar'))).toBe(true);
    expect(existsSync(join(first, 'DynamoDBLocal_lib', 'native.so'))).toBe(true);
    expect(lines[0]).toMatch(
      /^Fetching DynamoDB Local, first run only: amplify-dynamodb-simulator@[\d.]+ \(about \d+ MB\)$/,
    );
    expect(lines).toContain(`  from ${url} (0 MB)`);
    expect(lines.some((line) => /^ {2}still downloading… \d+ of \d+ MB$/.test(line))).toBe(true);
    expect(lines[linesAfterFirst - 1]).toMatch(/^ {2}DynamoDB Local ready in \d+ s/);
    // The second run: nothing printed, nothing fetched, the download folder gone.
    expect(second).toBe(first);
    expect(lines).toHaveLength(linesAfterFirst);
    expect(requests).toBe(1);
    expect(readdirSync(cacheDir)).toEqual(['package']);
  });

  it('refuses a tarball that does not match the registry hash, and leaves nothing half-installed', async () => {
    // Prepare
    const cacheDir = join(root, 'cache-bad');
    const locate = () => Promise.resolve({ tarball: url, integrity: integrityOf(Buffer.from('other')) });

    // Act
    const install = ensureEmulator({ cacheDir, locate, log: () => {} });

    // Assess
    await expect(install).rejects.toThrow('does not match its registry hash');
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
