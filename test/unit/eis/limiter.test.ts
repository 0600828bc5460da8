import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { createSemaphore, MAX_IN_FLIGHT_PER_KEY, semaphoreForKey } from '../../../src/eis/limiter.ts';
import { clientFor, creditBalance, fakeService } from '../../support/fake-service.ts';

describe('eis limiter', () => {
  it('lets at most `limit` holders in and hands slots on in arrival order', async () => {
    // Prepare
    const semaphore = createSemaphore(2);
    const order: string[] = [];
    const first = await semaphore.acquire();
    const second = await semaphore.acquire();

    // Act
    const third = semaphore.acquire().then((release) => {
      order.push('third');
      return release;
    });
    const fourth = semaphore.acquire().then((release) => {
      order.push('fourth');
      return release;
    });
    await Promise.resolve();
    const waitingBefore = semaphore.waiting;
    first();
    first(); // a second release of the same slot is ignored
    (await third)();
    second();
    (await fourth)();

    // Assess
    expect(waitingBefore).toBe(2);
    expect(order).toEqual(['third', 'fourth']);
    expect(semaphore.inFlight).toBe(0);
  });

  it('shares one semaphore between clients of the same key, and not across keys', () => {
    // Prepare
    const a = semaphoreForKey('sk_test_shared');

    // Act
    const hold = a.acquire();
    const b = semaphoreForKey('sk_test_shared');
    const other = semaphoreForKey('sk_test_other');

    // Assess
    expect(b).toBe(a);
    expect(other).not.toBe(a);
    return hold.then((release) => release());
  });

  it('keeps at most 10 requests of one key in flight across two clients', async () => {
    // Prepare: a dispatcher that counts the requests it holds at once
    let inFlight = 0;
    let peak = 0;
    const dispatcher = {
      async request() {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return {
          statusCode: 200,
          headers: {},
          body: { text: () => Promise.resolve(JSON.stringify(creditBalance())) },
        };
      },
      async close() {},
    } as unknown as Dispatcher;
    const service = fakeService();
    const one = clientFor(service, { dispatcher }).client;
    const two = clientFor(service, { dispatcher }).client;

    // Act
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).credits.balance()),
    );

    // Assess
    expect(results).toHaveLength(30);
    expect(peak).toBe(MAX_IN_FLIGHT_PER_KEY);
  });
});
