/**
 * Stands in for `iconv-lite` (about 480 KiB of code pages) in the Slack function's bundle; see
 * `BOLT_ON_LAMBDA_ALIASES` in `../aliases.ts`. It is reached only through `raw-body` (`getDecoder`)
 * and `body-parser` (`encodingExists`, `decode`) when they decode a request body into a string, which
 * neither `AwsLambdaReceiver` (the body comes in the Lambda event) nor Bolt's own Express and HTTP
 * receivers (they read a Buffer) ask for. So each function throws, loudly, rather than decoding
 * anything: a call means that assumption broke.
 */

/** The start of every message this stub throws (the tests and the bundle check look for it). */
export const ICONV_STUB_MESSAGE = 'iconv-lite is stubbed out of this bundle';

function unavailable(call: string, encoding: unknown): never {
  throw new Error(
    `${ICONV_STUB_MESSAGE} (infra/bundling/stubs/iconv-lite.ts): ${call}(${JSON.stringify(encoding)}) ` +
      'was called, so something in this function decodes a request body in a charset. ' +
      'Remove the alias from infra/bundling/aliases.ts for this function.',
  );
}

/** raw-body: a streaming decoder for `encoding`. */
export function getDecoder(encoding: unknown): never {
  return unavailable('getDecoder', encoding);
}

/** body-parser: whether it can decode `encoding` (checked before a `verify` callback). */
export function encodingExists(encoding: unknown): never {
  return unavailable('encodingExists', encoding);
}

/** body-parser: `body` decoded from `encoding`. */
export function decode(_body: unknown, encoding: unknown): never {
  return unavailable('decode', encoding);
}
