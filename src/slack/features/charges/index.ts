/** The charges room's face: a confirmation card shown and brought up to date, for the scheduled jobs. */
export { cardUpdater, confirmationCardShower } from './card-updates.ts';
