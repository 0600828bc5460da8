import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { ExhibitorValueSchema } from '../../kit/row-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

/** An exhibitor row's Open: the account's card, as `/events account <exhibitor id>` shows it. */
export const ACCOUNT_BUTTONS = {
  [ACTION_IDS.accountOpen]: (value) => {
    const { exhibitorId } = ExhibitorValueSchema.parse(value);
    return runs({ name: 'account', exhibitorId }, `account ${exhibitorId}`);
  },
} satisfies ButtonCommands;
