/**
 * Stands in for `undici` (about 525 KiB) in the Slack function's bundle; see `BOLT_ON_LAMBDA_ALIASES`
 * in `../aliases.ts`. Bolt's entry point loads `SocketModeReceiver`, so the bundle carries
 * `@slack/socket-mode`, which requires undici at load for its WebSocket (`WebSocket`, the event
 * classes, `ping`, an `Agent` from `buildConnector`) and for a `fetch` through a proxy dispatcher.
 * All of that runs only once a Socket Mode client connects, which `AwsLambdaReceiver` never makes;
 * nothing else in the Slack bundle imports undici (the Web API client uses Node's own `fetch`). So
 * each export throws, loudly, if used: a call means that assumption broke.
 */

/** The start of every message this stub throws (the tests and the bundle check look for it). */
export const UNDICI_STUB_MESSAGE = 'undici is stubbed out of this bundle';

function unavailable(name: string): never {
  throw new Error(
    `${UNDICI_STUB_MESSAGE} (infra/bundling/stubs/undici.ts): ${name} was used, so something in this ` +
      'function opens a Socket Mode connection or otherwise needs undici. ' +
      'Remove the alias from infra/bundling/aliases.ts for this function.',
  );
}

/** A class whose construction throws; `instanceof` against it is simply false. */
function unavailableClass(name: string) {
  return class {
    constructor() {
      unavailable(`new ${name}()`);
    }
  };
}

export const WebSocket = unavailableClass('WebSocket');
export const ErrorEvent = unavailableClass('ErrorEvent');
export const MessageEvent = unavailableClass('MessageEvent');
export const CloseEvent = unavailableClass('CloseEvent');
export const Agent = unavailableClass('Agent');

export function buildConnector(): never {
  return unavailable('buildConnector()');
}

export function ping(): never {
  return unavailable('ping()');
}

export function fetch(): never {
  return unavailable('fetch()');
}
