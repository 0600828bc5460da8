import { describe, expect, it } from 'vitest';
import { syncPlanCanvas, warnIfPastBudget } from '../../../src/domain/plan/index.ts';
import type { Plan, PlanRepository } from '../../../src/domain/ports/index.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';

/** One plan held in memory, with the store's conditional claims (Prepare). */
function memoryPlans(initial: Plan) {
  let plan: Plan = initial;
  const warned = new Set<string>();
  const repo: Pick<
    PlanRepository,
    | 'get'
    | 'claimCanvas'
    | 'releaseCanvasClaim'
    | 'saveCanvas'
    | 'forgetCanvas'
    | 'claimBudgetWarning'
    | 'releaseBudgetWarning'
  > = {
    get: () => Promise.resolve(structuredClone(plan)),
    claimCanvas: (_t, _c, until) => {
      if (plan.canvasId || (plan.canvasClaimUntil && plan.canvasClaimUntil > new Date().toISOString()))
        return Promise.resolve(false);
      plan = { ...plan, canvasClaimUntil: until.toISOString() };
      return Promise.resolve(true);
    },
    releaseCanvasClaim: () => {
      const { canvasClaimUntil: _released, ...rest } = plan;
      plan = rest;
      return Promise.resolve();
    },
    saveCanvas: (_t, _c, canvasId) => {
      const replacesDeleted = plan.canvasDeletedAt !== undefined;
      const { canvasClaimUntil: _claim, canvasDeletedAt: _deleted, ...rest } = plan;
      plan = { ...rest, canvasId };
      return Promise.resolve({ replacesDeleted });
    },
    forgetCanvas: (_t, _c, canvasId) => {
      if (plan.canvasId === canvasId) {
        const { canvasId: _forgotten, ...rest } = plan;
        plan = { ...rest, canvasDeletedAt: new Date().toISOString() };
      }
      return Promise.resolve();
    },
    claimBudgetWarning: (_t, channelId, quarter, setAt) => {
      const key = `${channelId}|${quarter}|${setAt}`;
      if (warned.has(key)) return Promise.resolve(false);
      warned.add(key);
      return Promise.resolve(true);
    },
    releaseBudgetWarning: (_t, channelId, quarter, setAt) => {
      warned.delete(`${channelId}|${quarter}|${setAt}`);
      return Promise.resolve();
    },
  };
  return { repo, change: (next: Partial<Plan>) => (plan = { ...plan, ...next }) };
}

const PLAN: Plan = {
  type: 'plan',
  teamId: 'T1',
  channelId: 'C1',
  shows: [],
  budgets: {},
  revision: 1,
  createdAt: '2027-01-01T00:00:00.000Z',
  updatedAt: '2027-01-01T00:00:00.000Z',
};

describe('the plan’s canvas', () => {
  it('is created once for two changes at the same time, and shows a change made while it was created', async () => {
    const plans = memoryPlans(PLAN);
    const created: string[] = [];
    const replaced: string[] = [];
    let release: () => void = () => undefined;
    const slowCreate = new Promise<void>((resolve) => (release = resolve));
    const canvas = {
      create: async (_channel: string, markdown: string) => {
        created.push(markdown);
        await slowCreate;
        return 'F1';
      },
      replace: (_id: string, markdown: string) => {
        replaced.push(markdown);
        return Promise.resolve('replaced' as const);
      },
    };
    const deps = {
      plans: plans.repo,
      canvas,
      render: (plan: Plan) => Promise.resolve(`revision ${plan.revision}`),
      now: () => new Date(),
    };

    const first = syncPlanCanvas(deps, 'T1', 'C1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    plans.change({ revision: 2 });
    const second = await syncPlanCanvas(deps, 'T1', 'C1');
    release();

    expect(second).toBe('left');
    expect(await first).toBe('created');
    expect(created).toEqual(['revision 1']);
    expect(replaced).toEqual(['revision 2']);
  });

  it('frees its claim when Slack refuses to create it, so the next change tries again', async () => {
    const plans = memoryPlans(PLAN);
    const refused = new Error('missing_scope');
    const failing = {
      create: () => Promise.reject(refused),
      replace: () => Promise.resolve('replaced' as const),
    };
    const deps = { plans: plans.repo, render: () => Promise.resolve('x'), now: () => new Date() };

    await expect(syncPlanCanvas({ ...deps, canvas: failing }, 'T1', 'C1')).rejects.toBe(refused);
    const ok = { create: () => Promise.resolve('F2'), replace: () => Promise.resolve('replaced' as const) };

    expect(await syncPlanCanvas({ ...deps, canvas: ok }, 'T1', 'C1')).toBe('created');
  });

  it('is made again once when it was deleted, even by two changes at the same time', async () => {
    const plans = memoryPlans({ ...PLAN, canvasId: 'F1' });
    const live = new Set<string>();
    let made = 0;
    const canvas = {
      create: () => {
        const id = `F${++made + 1}`;
        live.add(id);
        return Promise.resolve(id);
      },
      replace: (id: string) => Promise.resolve(live.has(id) ? ('replaced' as const) : ('gone' as const)),
    };
    const deps = { plans: plans.repo, canvas, render: () => Promise.resolve('x'), now: () => new Date() };

    const synced = await Promise.all([syncPlanCanvas(deps, 'T1', 'C1'), syncPlanCanvas(deps, 'T1', 'C1')]);

    expect(made).toBe(1);
    expect(synced.filter((s) => s === 'recreated')).toHaveLength(1);
    expect(await syncPlanCanvas(deps, 'T1', 'C1')).toBe('edited');
  });
});

/** A show of the plan, starting on `dateStart`. */
const showOn = (dateStart: string) => ({
  eventId: '26855',
  name: 'Expo',
  dateStart,
  dateEnd: dateStart,
  city: null,
  addedBy: 'U1',
  addedAt: '2026-10-01T00:00:00.000Z',
});

/** A channel over 80% of its Q2 budget (900 of 1,000 spent on a Q2 show in November), and how its warning is posted (Prepare). */
function pastTheLine(post: (warning: { spent: number }) => Promise<void>) {
  const setAt = '2027-04-01T00:00:00.000Z';
  const plans = memoryPlans({
    ...PLAN,
    shows: [showOn('2027-05-10')],
    budgets: {
      'Q2-2027': { credits: 1000, setBy: 'U1', setAt },
      'Q3-2027': { credits: 5000, setBy: 'U1', setAt },
    },
  });
  const entry = {
    type: 'ledger-entry' as const,
    id: 'e',
    teamId: 'T1',
    channelId: 'C1',
    requestedBy: 'U1',
    confirmedBy: 'U1',
    action: 'event-unlock',
    credits: 900,
    eventId: '26855',
    status: 'charged' as const,
    at: '2026-11-01T00:00:00.000Z',
    expiresAt: 1,
  };
  const deps = {
    plans: plans.repo,
    ledger: { listKept: () => Promise.resolve({ entries: [entry], capped: false }) },
    post,
    logger: createMemoryLogger(),
  };
  const charge = { teamId: 'T1', channelId: 'C1' };
  return { deps, charge };
}

describe('the budget warning', () => {
  it('is posted once for two charges past the line at the same time', async () => {
    const posted: number[] = [];
    const { deps, charge } = pastTheLine((warning) => {
      posted.push(warning.spent);
      return Promise.resolve();
    });

    await Promise.all([warnIfPastBudget(deps, charge), warnIfPastBudget(deps, charge)]);

    // Q3's budget has no spend on its shows: nothing to warn about.
    expect(posted).toEqual([900]);
    expect(await warnIfPastBudget(deps, charge)).toEqual([]);
  });

  it('is posted by the next charge when Slack refused the first post', async () => {
    const posted: number[] = [];
    let slackDown = true;
    const { deps, charge } = pastTheLine((warning) => {
      if (slackDown) return Promise.reject(new Error('channel_not_found'));
      posted.push(warning.spent);
      return Promise.resolve();
    });

    await expect(warnIfPastBudget(deps, charge)).rejects.toThrow('channel_not_found');
    slackDown = false;
    await warnIfPastBudget(deps, charge);
    await warnIfPastBudget(deps, charge);

    expect(posted).toEqual([900]);
  });
});
