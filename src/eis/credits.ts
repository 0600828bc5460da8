import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { CreditBalance } from './schemas.ts';

export interface CreditsApi {
  /** The key owner's credit balance. Free. */
  balance(): Promise<CreditBalance>;
}

export function createCreditsApi(core: EisCore): CreditsApi {
  return { balance: () => call(core, rowOf('credits.balance'), undefined, () => ({})) };
}
