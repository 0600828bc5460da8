import { badRequest } from '../errors.ts';
import { bodyRecord } from '../params.ts';
import { EVENT_UNLOCK_CREDITS, PREVIEW_LIMIT } from '../preview.ts';
import { ok, type Route, type RouteContext } from '../routing.ts';
import type { SeededEvent } from '../seed.ts';
import { EMAIL_UNLOCK_CREDITS, PHONE_UNLOCK_CREDITS, planUnlock } from './contacts.ts';
import { fullAccessCost, VISITOR_UNLOCK_CREDITS } from './events.ts';
import { SEARCH_CREDITS } from './exhibitors.ts';

type ReasonCode =
  | 'ok'
  | 'already_unlocked'
  | 'unlock_in_progress'
  | 'state_conflict'
  | 'insufficient_balance'
  | 'no_contacts_available'
  | 'exceed_max_unlock_limit'
  | 'invalid_subject'
  | 'unsupported_action'
  | 'not_found'
  | 'forbidden'
  | 'system_error';

interface Decision {
  allowed: boolean;
  should_charge: boolean;
  credits: number;
  reason_code: ReasonCode;
  detail?: Record<string, unknown>;
}

const REQUEST_MEMBERS = new Set([
  'action_type',
  'call_source',
  'params',
  'locale',
  'trace_id',
  'conversation_id',
  'channel_message_id',
]);

const deny = (reason_code: ReasonCode, detail: Record<string, unknown> = {}): Decision => ({
  allowed: false,
  should_charge: false,
  credits: 0,
  reason_code,
  detail,
});

/** A paid step: allowed when the balance covers it. */
function charge(ctx: RouteContext, credits: number, detail: Record<string, unknown>): Decision {
  if (ctx.account.balance < credits) {
    return { allowed: false, should_charge: true, credits, reason_code: 'insufficient_balance', detail };
  }
  return { allowed: true, should_charge: credits > 0, credits, reason_code: 'ok', detail };
}

function eventOf(ctx: RouteContext, params: Record<string, unknown>): SeededEvent | Decision {
  const id = params.event_id;
  if (typeof id !== 'string' || id.trim() === '') return deny('invalid_subject', { missing: 'event_id' });
  return ctx.state.eventsById.get(id.trim()) ?? deny('not_found', { event_id: id });
}

const isDecision = (value: SeededEvent | Decision): value is Decision => 'reason_code' in value;
const locked = (ctx: RouteContext, event: SeededEvent): boolean =>
  ctx.state.locks.has(`${ctx.account.key}|event:${event.id}`);

function unlockEvent(ctx: RouteContext, params: Record<string, unknown>): Decision {
  const event = eventOf(ctx, params);
  if (isDecision(event)) return event;
  const detail = {
    event_id: event.eventId,
    access_mode: ctx.account.unlockedEvents.has(event.id) ? 'full' : 'preview',
  };
  if (ctx.account.unlockedEvents.has(event.id)) {
    return { allowed: true, should_charge: false, credits: 0, reason_code: 'already_unlocked', detail };
  }
  if (locked(ctx, event)) return deny('unlock_in_progress', detail);
  if (event.personnelCount === 0 && event.exhibitorCount === 0) return deny('no_contacts_available', detail);
  return charge(ctx, EVENT_UNLOCK_CREDITS, detail);
}

function unlockVisitors(ctx: RouteContext, params: Record<string, unknown>): Decision {
  const event = eventOf(ctx, params);
  if (isDecision(event)) return event;
  const detail = { event_id: event.eventId, has_visitors: event.hasVisitors };
  if (!ctx.account.subscribed) return deny('forbidden', detail);
  if (ctx.account.visitorEvents.has(event.id)) {
    return { allowed: true, should_charge: false, credits: 0, reason_code: 'already_unlocked', detail };
  }
  if (locked(ctx, event)) return deny('unlock_in_progress', detail);
  if (!event.hasVisitors) return deny('no_contacts_available', detail);
  if (!ctx.account.unlockedEvents.has(event.id))
    return deny('state_conflict', { ...detail, requires: 'unlock_event' });
  return charge(ctx, VISITOR_UNLOCK_CREDITS, detail);
}

function unlockFullAccess(ctx: RouteContext, params: Record<string, unknown>): Decision {
  const event = eventOf(ctx, params);
  if (isDecision(event)) return event;
  if (!ctx.account.subscribed) return deny('forbidden', { event_id: event.eventId });
  const cost = fullAccessCost(
    event,
    ctx.account.unlockedEvents.has(event.id),
    ctx.account.visitorEvents.has(event.id),
  );
  const detail = { event_id: event.eventId, base_locked: cost.base, visitor_locked: cost.visitors };
  if (cost.credits === 0)
    return { allowed: true, should_charge: false, credits: 0, reason_code: 'already_unlocked', detail };
  if (locked(ctx, event)) return deny('unlock_in_progress', detail);
  return charge(ctx, cost.credits, detail);
}

function unlockContacts(
  ctx: RouteContext,
  params: Record<string, unknown>,
  kind: 'email' | 'phone',
): Decision {
  const ids = params.personnel_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i): i is string => typeof i === 'string')) {
    return deny('invalid_subject', { missing: 'personnel_ids' });
  }
  if (ids.length > 2000) return deny('exceed_max_unlock_limit', { limit: 2000, requested: ids.length });
  const plan = planUnlock(ctx.state, ctx.account, kind, ids);
  const detail = { chargeable_count: plan.chargeable.length, skipped_detail: plan.skipped };
  if (plan.chargeable.length === 0) {
    const allUnlocked = plan.skipped.already_unlocked_personnel_ids.length === new Set(ids).size;
    return {
      ...deny(allUnlocked ? 'already_unlocked' : 'no_contacts_available', detail),
      allowed: allUnlocked,
    };
  }
  return charge(
    ctx,
    plan.chargeable.length * (kind === 'email' ? EMAIL_UNLOCK_CREDITS : PHONE_UNLOCK_CREDITS),
    detail,
  );
}

function queryPersonnel(ctx: RouteContext, params: Record<string, unknown>): Decision {
  const event = eventOf(ctx, params);
  if (isDecision(event)) return event;
  const unlocked = ctx.account.unlockedEvents.has(event.id);
  return {
    allowed: true,
    should_charge: false,
    credits: 0,
    reason_code: 'ok',
    detail: {
      event_id: event.eventId,
      access_mode: unlocked ? 'full' : 'preview',
      preview_limit: unlocked ? null : PREVIEW_LIMIT,
      unlock_action_type: unlocked ? null : 'unlock_event_contacts',
      unlock_credits: unlocked ? null : EVENT_UNLOCK_CREDITS,
    },
  };
}

const free: Decision = { allowed: true, should_charge: false, credits: 0, reason_code: 'ok', detail: {} };

function decide(ctx: RouteContext, action: string, params: Record<string, unknown>): Decision {
  switch (action) {
    case 'unlock_event':
    case 'unlock_event_contacts':
    case 'unlock_event_exhibitors':
      return unlockEvent(ctx, params);
    case 'unlock_event_visitors':
      return unlockVisitors(ctx, params);
    case 'unlock_event_full_access':
      return unlockFullAccess(ctx, params);
    case 'unlock_contact_emails':
      return unlockContacts(ctx, params, 'email');
    case 'unlock_contact_phones':
      return unlockContacts(ctx, params, 'phone');
    case 'search_personnel_events_by_name':
      if (!ctx.account.subscribed) return deny('forbidden');
      return charge(ctx, SEARCH_CREDITS, { charged_when: 'non_empty_result' });
    case 'search_exhibitor_events':
    case 'search_exhibitors_by_company_name':
      return charge(ctx, SEARCH_CREDITS, { charged_when: 'non_empty_result' });
    case 'query_event_personnel':
      return queryPersonnel(ctx, params);
    case 'integration_status':
    case 'integration_export_contacts':
    case 'integration_export_exhibitors':
    case 'others':
      return free;
    default:
      return deny('unsupported_action');
  }
}

export const precheckRoute: Route = {
  method: 'POST',
  pattern: '/external/actions/precheck',
  handle(ctx) {
    const input = bodyRecord(ctx.body);
    const unknown = Object.keys(input).find((k) => !REQUEST_MEMBERS.has(k));
    if (unknown) throw badRequest(`Unknown request member ${unknown}`);
    const action = input.action_type;
    if (typeof action !== 'string' || action.length < 1 || action.length > 100) {
      throw badRequest('action_type must be a string of 1 to 100 characters');
    }
    const params = input.params;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw badRequest('params must be an object');
    }
    const decision = decide(ctx, action, bodyRecord(params));
    return ok({
      ok: true,
      action_type: action,
      allowed: decision.allowed,
      should_charge: decision.should_charge,
      credits: decision.credits,
      reason_code: decision.reason_code,
      biz_code: decision.reason_code === 'ok' ? '' : decision.reason_code.toUpperCase(),
      detail: decision.detail ?? {},
    });
  },
};
