/**
 * How long the worker Lambda may run (the stack sets it from here). The reconciler treats a charge
 * started longer ago than this, plus a margin, as one whose worker died.
 */
export const WORKER_TIMEOUT_SECONDS = 180;
