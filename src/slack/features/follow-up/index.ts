/** The follow-up room's face: posting in a card's thread, and the buttons an unlock's results offer. */
export { followUpThread } from './jobs.ts';
export { FOLLOW_UP_BLOCKS, followUpButtons } from './views.ts';
