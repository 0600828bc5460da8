/** The outcomes room's face: its words; the registries address its parts by name. */
export { OUTCOME_COMMANDS, type OutcomeCommand } from './commands.ts';
