/** The workspace-admin room's face: the worker's gate until a workspace connects its key. */
export { notConnectedWorker } from './not-connected-worker.ts';
