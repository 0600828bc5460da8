import type { Route } from '../routing.ts';
import { accountRoutes } from './account.ts';
import { contactRoutes } from './contacts.ts';
import { eventRoutes } from './events.ts';
import { exhibitorRoutes } from './exhibitors.ts';
import { followUpRoutes } from './follow-up.ts';
import { personnelRoutes } from './personnel.ts';
import { precheckRoute } from './precheck.ts';

/** Static paths come before `{param}` paths of the same shape (e.g. events/list before events/{id}). */
export const routes: Route[] = [
  ...accountRoutes,
  precheckRoute,
  ...eventRoutes,
  ...exhibitorRoutes,
  ...personnelRoutes,
  ...followUpRoutes,
  ...contactRoutes,
];
