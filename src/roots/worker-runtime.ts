import { createShowNames } from '../eis/show-names.ts';
import { WebClient } from '@slack/web-api';
import { serviceAccountId } from '../platform/config/secrets.ts';
import { EARLY_POLLS } from '../domain/poll-cadence.ts';
import { pollSubmittedTask } from '../domain/unlock-polling.ts';
import type { Sleep } from '../domain/slack-delivery.ts';
import { createRuntimeLoader, type Runtime, type RuntimeOptions, unlockPollingDeps } from './runtime.ts';
import { webClientOptions } from '../slack/web-client.ts';
import { type DigestAccess, memberChannelsOf } from '../slack/kit/digest-access.ts';
import { slackUserTimeZone } from '../slack/features/digests/index.ts';
import type { WorkerDeps } from '../slack/kit/worker-deps.ts';
import { createWorker, type Worker } from '../slack/worker/index.ts';
import { homeSourcesOf } from '../slack/features/home/index.ts';
import { createSlackOut } from '../slack/kit/slack-out.ts';
import { createUnfurlOut } from '../slack/features/unfurls/index.ts';
import { createWorkflowStepOut } from '../slack/features/workflow-step/index.ts';
import { createPlanCanvasOut } from '../slack/features/plan/index.ts';
import { notConnectedWorker } from '../slack/features/workspace-admin/index.ts';
import { WorkspaceNotConnectedError } from '../platform/errors.ts';
import { workspaceRolesOf } from '../slack/kit/workspace-roles.ts';
import { eisSharingShowReads, showIdsOf, storeWithPublicShowIds } from './show-ids.ts';

export interface WorkerOptions extends RuntimeOptions {
  /** How often the worker polls a task it just submitted (tests make it quick or skip it). */
  earlyPolls?: { count: number; everyMs: number };
  /** How the worker waits between those polls (tests move a clock instead). */
  sleep?: Sleep;
}

/**
 * The worker of a workspace (the job's team) over its runtime, built again whenever the runtime is (a
 * rotated secret, a refreshed token, a replaced key).
 */
export function createWorkerLoader(source: NodeJS.ProcessEnv = process.env, options: WorkerOptions = {}) {
  const loadRuntime = createRuntimeLoader(source, options);
  const built = new WeakMap<Runtime, Worker>();
  const load = async (teamId?: string): Promise<{ worker: Worker; runtime: Runtime }> => {
    const runtime = await loadRuntime(teamId);
    const worker = built.get(runtime) ?? workerOver(runtime, options);
    built.set(runtime, worker);
    return { worker, runtime };
  };
  /** The worker of a distributed workspace with no service key: it answers each job, running none. */
  const notConnected = async (teamId: string): Promise<Worker> => {
    const { env, store, logger } = loadRuntime;
    // Not retried by the client: an answer Slack stored but answered late would come twice.
    const botToken = await loadRuntime.botTokenOf(teamId);
    const web = new WebClient(botToken, webClientOptions(env.SLACK_API_URL, { retries: false }));
    return notConnectedWorker({
      deliveries: store.deliveries,
      slack: createSlackOut(web, logger),
      workflowSteps: createWorkflowStepOut(web),
      publishHome: async (userId, view) => {
        await web.views.publish({ user_id: userId, view });
      },
      logger,
    });
  };
  return Object.assign(load, { logger: loadRuntime.logger, notConnected });
}

/**
 * Each job's worker: its workspace's, or, for a workspace with no service key (removed after the
 * request was let through), one that tells the job's user so instead of dropping the job, which would
 * leave a workflow step "in progress" and a person with no answer.
 */
export function jobWorkers(load: ReturnType<typeof createWorkerLoader>) {
  return async (teamId?: string): Promise<Worker> => {
    try {
      return (await load(teamId)).worker;
    } catch (error) {
      if (!(error instanceof WorkspaceNotConnectedError) || !teamId) throw error;
      return load.notConnected(teamId);
    }
  };
}

/** The worker for a Slack handler that runs jobs in its own process (`WORKER_MODE=inline`). */
export function inlineWorker(source: NodeJS.ProcessEnv, options: WorkerOptions = {}) {
  return jobWorkers(createWorkerLoader(source, options));
}

function workerOver(runtime: Runtime, options: WorkerOptions): Worker {
  return createWorker(workerDepsOf(runtime, options));
}

/** What the worker of a workspace is built over (the resilience harnesses wrap parts of it). */
export function workerDepsOf(runtime: Runtime, options: WorkerOptions): WorkerDeps {
  const { env, access, logger } = runtime;
  const web = (retries: boolean) =>
    new WebClient(access.botToken, webClientOptions(env.SLACK_API_URL, { retries }));
  const accountId = serviceAccountId(access.eisApiKey);
  // One per runtime, that is per service key; the plans and the ledger read under public ids. The
  // conversion's detail reads are the worker's (`eisSharingShowReads`): a card naming the show, or the
  // show `plan add` reads, is the conversion's read too.
  const showIds = showIdsOf(runtime, accountId, (id) => eis.events.detail(id));
  const eis = eisSharingShowReads(runtime.eis, showIds);
  const store = storeWithPublicShowIds(runtime.store, showIds);
  return {
    eis,
    showIds,
    // One per runtime, that is per service key: a workspace's names are its account's alone.
    showNames: createShowNames(eis.events, { now: runtime.now }),
    store,
    storedPlans: runtime.store.plans,
    // Posts are never retried by the client: a post Slack stored but answered late would come twice.
    slack: createSlackOut(web(false), logger),
    userTimeZone: slackUserTimeZone(web(true)),
    policyIn: access.policyIn,
    digestDefaults: access.digestDefaults,
    accountId,
    logger,
    now: runtime.now,
    metrics: runtime.metrics,
    // Both are safe to retry: a repeated unfurl replaces itself, a repeated completion is refused.
    unfurl: createUnfurlOut(web(true)),
    workflowSteps: createWorkflowStepOut(web(true)),
    digestAccess: digestAccessOf(runtime, web(true)),
    workspaceRoles: workspaceRolesOf(runtime.store, web(true), logger),
    // Not retried by the client: a canvas Slack created but answered late would be created twice.
    planCanvas: createPlanCanvasOut(web(false)),
    // Both modes' Slack functions have the settings modal (`workspace-admin/`).
    home: homeSourcesOf(store, web(true), { settings: true }),
    pollSubmittedTask: (taskId) =>
      pollSubmittedTask(
        taskId,
        { ...unlockPollingDeps(runtime), ...(options.sleep ? { sleep: options.sleep } : {}) },
        options.earlyPolls ?? EARLY_POLLS,
      ),
  };
}

/** Channel membership and admins as the workspace's Slack says, for who sees and changes its digests. */
function digestAccessOf({ store, logger }: Runtime, web: WebClient): DigestAccess {
  const roles = workspaceRolesOf(store, web, logger);
  return {
    memberChannels: memberChannelsOf(web),
    isWorkspaceAdmin: (teamId, userId) => roles.isWorkspaceAdmin(teamId, userId),
  };
}
