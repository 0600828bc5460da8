/** The Home room's face: what a Home tab is read from. */
export { homeSourcesOf } from './jobs.ts';
