/** The unfurls room's face: unfurling a link the bot knows. */
export { createUnfurlOut } from './jobs.ts';
