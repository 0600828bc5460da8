/** The events room's face: its words, and what a show's brief is made of (an unfurl shows one). */
export type { EventBriefInput } from './brief.ts';
export { EVENT_COMMANDS } from './commands.ts';
