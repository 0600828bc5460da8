/** The account room's face: its words (account, linkedin, research); the registries address its parts by name. */
export { ACCOUNT_COMMANDS } from './commands.ts';
