import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DAY_SECONDS, epochSeconds, systemClock } from './basics.ts';
import type { DeliverySchema } from './schemas.ts';

/** Slack redelivers within minutes and Lambda's async retries within hours: a day covers both. */
export const DELIVERY_RETENTION_SECONDS = DAY_SECONDS;

export type Delivery = z.infer<typeof DeliverySchema>;

/** The two table operations the delivery log needs (over the AWS SDK, or signed `fetch` on the ack path). */
export interface DeliveryTable {
  /** Writes the record unless one is stored under its key: false when one was. */
  putNew(delivery: Delivery): Promise<boolean>;
  /** The owner of the record stored under `key` (a consistent read), undefined when there is none. */
  ownerOf(key: string): Promise<string | undefined>;
}

export type DeliveryLog = ReturnType<typeof deliveryLogOver>;

/**
 * Idempotency for deliveries: the first caller of a key gets `true`, every later one `false`.
 * Why not Powertools Idempotency: docs/performance.md, "Kept libraries and hand-written code".
 */
export function deliveryLogOver(table: DeliveryTable, now: () => Date = systemClock) {
  return {
    async first(key: string): Promise<boolean> {
      const at = now();
      // Our own put, applied but answered with an error and retried, is still ours.
      const owner = randomUUID();
      const delivery: Delivery = {
        type: 'delivery',
        key,
        owner,
        at: at.toISOString(),
        expiresAt: epochSeconds(at) + DELIVERY_RETENTION_SECONDS,
      };
      if (await table.putNew(delivery)) return true;
      return (await table.ownerOf(key)) === owner;
    },
  };
}
