/** The compare room's face: its words; the registries address its parts by name. */
export { COMPARE_COMMANDS, type CompareCommand } from './commands.ts';
