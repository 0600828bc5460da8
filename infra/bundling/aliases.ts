import { fileURLToPath } from 'node:url';

const stub = (file: string) => fileURLToPath(new URL(`./stubs/${file}`, import.meta.url));

/**
 * esbuild aliases (`--alias:package=path`) for the Slack function, which runs Bolt behind
 * `AwsLambdaReceiver`. Bolt's entry point loads all its receivers, so the bundle carries the
 * Express/HTTP path and what that path requires at load, though the Lambda receiver never runs it.
 * Each alias swaps one such package for a stub in `stubs/` (which `test/infra` checks):
 *
 * - `iconv-lite` (about 480 KiB): required at load by `raw-body` and by `body-parser` (which Express
 *   loads for `express.json()` and the like). They call it only to decode a body into a string in a
 *   given charset; Bolt's own `raw-body` reads (Express and HTTP receivers) ask for a Buffer, so not
 *   even those receivers reach it, and `AwsLambdaReceiver` takes the body from the event. The stub
 *   throws if called, naming itself.
 * - `mime-db` (about 145 KiB): the full media type database, which `mime-types` indexes at load for
 *   Express (`res.type`, `send`, `accepts`, `type-is`). Nothing on the Lambda path looks a type up; the
 *   stub keeps four entries (JSON, form posts, HTML, text), so a lookup of those still answers.
 * - `undici` (about 525 KiB, and the slowest package of the bundle to load): required at load by
 *   `@slack/socket-mode` (Bolt's `SocketModeReceiver`) for its WebSocket, used only once a Socket
 *   Mode client connects. Nothing else in this bundle imports it (the Web API client and the
 *   service client use Node's built-in `fetch`; `test/infra` checks who imports it). The stub's
 *   exports throw if used, naming themselves.
 *
 * Not for the other functions: they do not bundle Bolt, so these packages are not in them to swap
 * (and undici is not in them at all).
 */
export const BOLT_ON_LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  'iconv-lite': stub('iconv-lite.ts'),
  'mime-db': stub('mime-db.json'),
  undici: stub('undici.ts'),
};
