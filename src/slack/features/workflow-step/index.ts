/** The workflow-step room's face: completing the custom step. */
export { createWorkflowStepOut } from './jobs.ts';
