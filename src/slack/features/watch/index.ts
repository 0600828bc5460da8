/** The watch room's face: the watch's checks, its Home section, and where watched accounts will be (the plan's canvas). */
export { HOME_WATCH_CHANNELS, type HomeWatches, homeWatchOf, watchHomeBlocks } from './home-views.ts';
export { watchCheckDeps } from './jobs.ts';
export { watchedShowsCanvasLines } from './shows-views.ts';
