/** The unlock-results room's face: an unlock's card and thread, for the poller. */
export { unlockThread } from './jobs.ts';
