import type { EisCore } from './core.ts';
import { type CreditBalance, CreditBalanceSchema } from './schemas.ts';

export interface CreditsApi {
  /** The key owner's credit balance. Free. */
  balance(): Promise<CreditBalance>;
}

export function createCreditsApi(core: EisCore): CreditsApi {
  return {
    balance: async () =>
      core.request({
        operation: 'credits.balance',
        method: 'GET',
        path: '/external/credits/balance',
        charging: false,
        schema: CreditBalanceSchema,
      }),
  };
}
