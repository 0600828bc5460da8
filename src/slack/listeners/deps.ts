import type { ConfirmationDeps, SpendPolicy } from '../../domain/confirmations.ts';
import type { DeliveryLog, Store } from '../../store/index.ts';
import type { Logger } from '../../log.ts';
import type { Dispatch } from '../jobs.ts';

/** What the listeners need: they answer at once and hand slow work on. */
export interface ListenerDeps {
  dispatch: Dispatch;
  confirmations: ConfirmationDeps['confirmations'];
  /** Slash commands are deduplicated on their `trigger_id`. */
  deliveries: Pick<DeliveryLog, 'first'>;
  policy: SpendPolicy;
  /** Domains whose event links unfurl (`UNFURL_DOMAINS`); default `app.lensmor.com`. */
  unfurlDomains?: readonly string[];
  /** Read after the digest settings modal opened, to show the channel's current settings in it. */
  digestSubscriptions?: Pick<Store['digestSubscriptions'], 'get'>;
  logger: Logger;
}
