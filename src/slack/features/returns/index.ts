/** The returns room's face: its word; the registries address its parts by name. */
export { RETURN_COMMANDS, type ReturnCommand } from './commands.ts';
