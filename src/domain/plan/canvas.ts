import type { Plan, PlanRepository } from '../ports/index.ts';

/** Slack's canvas calls, as the plan uses them (the Slack room words the document). */
export interface PlanCanvasOut {
  /** Creates the channel's canvas with `markdown`; its id. */
  create(channelId: string, markdown: string): Promise<string>;
  /**
   * Replaces the whole document of `canvasId` with `markdown`; `gone` when Slack no longer has that
   * canvas for the app (someone deleted it).
   */
  replace(canvasId: string, markdown: string): Promise<'replaced' | 'gone'>;
}

export interface CanvasSyncDeps {
  plans: Pick<PlanRepository, 'get' | 'claimCanvas' | 'releaseCanvasClaim' | 'saveCanvas' | 'forgetCanvas'>;
  canvas: PlanCanvasOut;
  /** The plan as the canvas shows it. */
  render: (plan: Plan) => Promise<string>;
  now: () => Date;
}

/** Long enough to create a canvas; a creator that died frees the claim after it. */
export const CANVAS_CLAIM_SECONDS = 60;

/**
 * What a sync did: `created` or `edited` the canvas, `recreated` it in place of one that was deleted
 * (the channel is told, once), or `left` it to the change that is creating it (that one reads the plan
 * again once its canvas exists, so this change is shown too).
 */
export type CanvasSync = 'created' | 'recreated' | 'edited' | 'left';

/** Edits the plan's canvas; false when it was deleted, which is then forgotten so it is made again. */
async function editOrForget(deps: CanvasSyncDeps, plan: Plan, canvasId: string): Promise<boolean> {
  if ((await deps.canvas.replace(canvasId, await deps.render(plan))) === 'replaced') return true;
  // Conditional on the deleted one: a canvas another change already made in its place is kept.
  await deps.plans.forgetCanvas(plan.teamId, plan.channelId, canvasId);
  return false;
}

/** Creates the canvas under the claim, or leaves it to the change that holds the claim. */
async function createCanvas(deps: CanvasSyncDeps, plan: Plan): Promise<CanvasSync> {
  const { teamId, channelId } = plan;
  const until = new Date(deps.now().getTime() + CANVAS_CLAIM_SECONDS * 1000);
  if (!(await deps.plans.claimCanvas(teamId, channelId, until))) {
    // Another change holds the claim or just stored the canvas: edit it if it is there already.
    const again = await deps.plans.get(teamId, channelId);
    if (!again?.canvasId) return 'left';
    return (await editOrForget(deps, again, again.canvasId)) ? 'edited' : 'left';
  }
  const canvasId = await deps
    .render(plan)
    .then(
      (markdown) => deps.canvas.create(channelId, markdown),
      // The next change tries again (a missing scope granted, say), not only after the claim runs out.
    )
    .catch(async (error: unknown) => {
      await deps.plans.releaseCanvasClaim(teamId, channelId);
      throw error;
    });
  const { replacesDeleted } = await deps.plans.saveCanvas(teamId, channelId, canvasId);
  // A change stored while the canvas was being created is shown now.
  const latest = await deps.plans.get(teamId, channelId);
  if (latest && latest.revision !== plan.revision)
    await deps.canvas.replace(canvasId, await deps.render(latest));
  return replacesDeleted ? 'recreated' : 'created';
}

/**
 * Brings the channel's canvas up to date after a change: created once per channel (a claim on the
 * plan keeps two concurrent changes from creating two), replaced whole after that, and made again
 * when someone deleted it. Slack's errors are thrown for the caller to word; the plan change itself
 * is already stored.
 */
export async function syncPlanCanvas(
  deps: CanvasSyncDeps,
  teamId: string,
  channelId: string,
): Promise<CanvasSync> {
  // A second pass only after a deleted canvas was forgotten: it makes the new one (or edits the one
  // another change made meanwhile).
  for (let pass = 1; pass <= 2; pass++) {
    const plan = await deps.plans.get(teamId, channelId);
    if (!plan) return 'left';
    if (!plan.canvasId) return createCanvas(deps, plan);
    if (await editOrForget(deps, plan, plan.canvasId)) return 'edited';
  }
  return 'left';
}
