import { notFound } from '../errors.ts';
import {
  bodyRecord,
  includesText,
  optionalQuery,
  pageRequest,
  paginate,
  requiredQuery,
  resolveEvent,
} from '../params.ts';
import { created, ok, type Route, type RouteContext } from '../routing.ts';
import type { SeededEvent } from '../seed.ts';
import type { Account, SimulatorState, TaskKind } from '../state.ts';
import { contactItem } from '../views.ts';
import { personnelIds } from './personnel.ts';

export const EMAIL_UNLOCK_CREDITS = 15;
export const PHONE_UNLOCK_CREDITS = 150;
const NUMERIC = /^\d{1,20}$/;

export interface UnlockPlan {
  chargeable: string[];
  skipped: {
    invalid_personnel_ids: string[];
    missing_personnel_ids: string[];
    unlinked_personnel_ids: string[];
    already_unlocked_personnel_ids: string[];
    unlocking_personnel_ids: string[];
  };
}

/** Sorts submitted ids into chargeable work and skip reasons, for one key. */
export function planUnlock(
  state: SimulatorState,
  account: Account,
  kind: TaskKind,
  ids: string[],
  event?: SeededEvent,
): UnlockPlan {
  const plan: UnlockPlan = {
    chargeable: [],
    skipped: {
      invalid_personnel_ids: [],
      missing_personnel_ids: [],
      unlinked_personnel_ids: [],
      already_unlocked_personnel_ids: [],
      unlocking_personnel_ids: [],
    },
  };
  const results = kind === 'email' ? account.emails : account.phones;
  const pending = kind === 'email' ? account.emailPending : account.phonePending;
  for (const raw of new Set(ids)) {
    const id = raw.trim();
    const person = state.personnelById.get(id);
    if (!NUMERIC.test(id)) plan.skipped.invalid_personnel_ids.push(raw);
    else if (!person || (event && person.eventId !== event.id)) plan.skipped.missing_personnel_ids.push(id);
    else if (!person.linked) plan.skipped.unlinked_personnel_ids.push(id);
    else if (results.get(id) === 'unlocked') plan.skipped.already_unlocked_personnel_ids.push(id);
    else if (pending.has(id)) plan.skipped.unlocking_personnel_ids.push(id);
    else plan.chargeable.push(id);
  }
  return plan;
}

function submitUnlock(ctx: RouteContext, kind: TaskKind) {
  const input = bodyRecord(ctx.body);
  const ids = personnelIds(input);
  const event = input.event_id === undefined ? undefined : resolveEvent(ctx.state, input.event_id);
  const plan = planUnlock(ctx.state, ctx.account, kind, ids, event);
  const skippedIds = Object.values(plan.skipped).flat();
  const skipped = { skipped_personnel_ids: skippedIds, skipped_detail: plan.skipped };
  if (plan.chargeable.length === 0) return created({ status: 'success', ...skipped });
  const price = kind === 'email' ? EMAIL_UNLOCK_CREDITS : PHONE_UNLOCK_CREDITS;
  ctx.charge(
    kind === 'email' ? 'unlock_contact_emails' : 'unlock_contact_phones',
    price * plan.chargeable.length,
    {
      ...(event ? { eventId: event.id } : {}),
      personnelIds: plan.chargeable,
    },
  );
  const task = ctx.state.createTask(ctx.account, kind, plan.chargeable);
  return created({ status: 'accepted', task_id: task.id, job_id: task.id, ...skipped });
}

function readTask(ctx: RouteContext, kind: TaskKind) {
  const task = ctx.state.tasks.get(ctx.params.taskId ?? '');
  if (!task || task.kind !== kind || task.key !== ctx.account.key) throw notFound('Task not found');
  const items = ctx.state.taskItems(task).map(({ personnelId, status, value, errorCode }) => ({
    personnelId,
    status,
    ...(kind === 'email' ? { email: value } : { phone: value }),
    ...(errorCode ? { errorCode } : {}),
  }));
  return ok({ taskId: task.id, taskStatus: ctx.state.taskStatus(task), items });
}

const unlockTarget = (kind: TaskKind) => (ctx: RouteContext) => {
  const ids = bodyRecord(ctx.body).personnel_ids;
  return Array.isArray(ids) ? `${kind}-unlock:${ids.map(String).sort().join(',')}` : undefined;
};

const searchContacts: Route = {
  method: 'GET',
  pattern: '/external/contacts/search',
  handle({ state, account, query }) {
    const company = requiredQuery(query, 'company_name', 200);
    const role = optionalQuery(query, 'role', 200);
    const name = optionalQuery(query, 'person_name', 200);
    const matches = state.seed.personnel.filter(
      (p) =>
        includesText(p.companyName, company) &&
        (!role || includesText(p.title, role)) &&
        (!name || includesText(p.fullName, name)),
    );
    const page = paginate(matches, pageRequest(query));
    return ok({ ...page, items: page.items.map((p) => contactItem(p, account, { linkedin: false })) });
  },
};

export const contactRoutes: Route[] = [
  searchContacts,
  {
    method: 'POST',
    pattern: '/external/contacts/unlock',
    lockTarget: unlockTarget('email'),
    handle: (ctx) => submitUnlock(ctx, 'email'),
  },
  {
    method: 'GET',
    pattern: '/external/contacts/unlock-tasks/{taskId}',
    handle: (ctx) => readTask(ctx, 'email'),
  },
  {
    method: 'POST',
    pattern: '/external/contacts/unlock-phone',
    lockTarget: unlockTarget('phone'),
    handle: (ctx) => submitUnlock(ctx, 'phone'),
  },
  {
    method: 'GET',
    pattern: '/external/contacts/unlock-phone-tasks/{taskId}',
    handle: (ctx) => readTask(ctx, 'phone'),
  },
];
