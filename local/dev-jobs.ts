import type { Logger } from '../src/platform/log.ts';
import { createScheduledLoader } from '../src/roots/runtime.ts';
import { createWatchRun } from '../src/roots/watch-runtime.ts';
import { KNOWN_COMPANY_NAME, type Simulator } from '../simulator/server.ts';
import type { LocalPanel } from './fake-slack/fake-slack.ts';
import {
  type ChannelName,
  digestRunWords,
  type ObservedCheck,
  pollWords,
  type WatchRunReport,
  watchRunWords,
} from './run-now.ts';

/**
 * The dev stack's scheduled jobs: on timers as on AWS (only faster for the poller), and on demand from
 * the page's "Run now", which says in words what each run did.
 */

/** How to undo what was started, in the order it was started. */
export type Stops = (() => Promise<void>)[];

export interface JobTimings {
  pollEveryMs?: number;
  digestEveryMs?: number;
  watchEveryMs?: number;
}

/** What the jobs' words need to know of the local workspaces. */
export interface LocalWorkspaces {
  teams: readonly string[];
  channelName: ChannelName;
  /** The simulator's key for the side panel's account. */
  apiKey: string;
}

type ScheduledLoader = ReturnType<typeof createScheduledLoader>;

/** The loader, its jobs' channel checks reported to `seen` as they finish (for Run now's words). */
function observingChecks(load: ScheduledLoader, seen: (check: ObservedCheck) => void): ScheduledLoader {
  const observed = async () => {
    const jobs = await load();
    const checkWatchedChannel: typeof jobs.checkWatchedChannel = async (request) => {
      const summary = await jobs.checkWatchedChannel(request);
      seen({ request, summary });
      return summary;
    };
    return { ...jobs, checkWatchedChannel };
  };
  const { store, servable, pollRun, runMinute } = load;
  return Object.assign(observed, { store, servable, pollRun, runMinute });
}

/** The scheduled jobs, on timers as on AWS (the poller more often) and on demand. */
export function scheduleJobs(env: NodeJS.ProcessEnv, options: JobTimings, logger: Logger, stops: Stops) {
  // Real time for every job, the poller too: a task's age (which its card says) counts from its real start.
  const loadRealTime = createScheduledLoader(env, { logger });
  const runPoll = exclusive(async () => {
    await (await loadRealTime()).reconcileConfirmations();
    return (await loadRealTime()).pollUnlockTasks();
  });
  const runDigests = exclusive(async () => (await loadRealTime()).runDigests());
  // No WATCH_QUEUE_URL in `env`: the due channels are checked inline, as a deployment without a queue.
  let checks: ObservedCheck[] = [];
  const watchRun = createWatchRun(
    observingChecks(loadRealTime, (check) => checks.push(check)),
    env,
  );
  const runWatch = exclusive(async (): Promise<WatchRunReport> => {
    checks = [];
    return { summary: await watchRun(), checks };
  });
  const every = (ms: number, job: Job, name: string) => {
    const timer = setInterval(() => {
      job().catch((error: unknown) => logger.error('local scheduled job failed', { job: name, error }));
    }, ms);
    stops.push(async () => {
      clearInterval(timer);
      await job.running?.catch(() => {});
    });
  };
  every(options.pollEveryMs ?? 3_000, runPoll, 'poll-tasks');
  every(options.digestEveryMs ?? 5 * 60_000, runDigests, 'digest');
  every(options.watchEveryMs ?? 60 * 60_000, runWatch, 'watch');
  return { runPoll, runDigests, runWatch, store: loadRealTime.store };
}

export type ScheduledJobs = ReturnType<typeof scheduleJobs>;
type Job = ReturnType<typeof exclusive>;

/** Farther than any open task's next poll (the longest back-off is 10 minutes). */
const WAITING_HORIZON_MS = 24 * 60 * 60_000;

/** The page's side panel: the simulator's account, and the jobs a developer can run now, in words. */
export function panelOf(sim: Simulator, jobs: ScheduledJobs, local: LocalWorkspaces): LocalPanel {
  const { runPoll, runDigests, runWatch, store } = jobs;
  const { teams, channelName } = local;
  const account = async () => {
    const response = await fetch(`${sim.url}/__sim/account`, {
      headers: { authorization: `Bearer ${local.apiKey}` },
    });
    const body = (await response.json()) as { balance?: { totalBalance?: number }; ledger?: unknown[] };
    return { balance: body.balance?.totalBalance ?? null, ledger: body.ledger ?? [] };
  };
  const eachTeam = async <T>(read: (teamId: string) => Promise<T[]>) =>
    (await Promise.all(teams.map(read))).flat();
  const said = (words: string) => ({ said: words });
  /** The unlock tasks still waiting for the service after a run, due now or later (at most a page of them). */
  const waitingTasks = async () =>
    (await store.unlockTasks.due({ now: new Date(Date.now() + WAITING_HORIZON_MS), limit: 100 })).length;
  return {
    account,
    newExhibitor: () => newExhibitorAppears(sim, jobs, local),
    jobs: {
      'poll-unlock-tasks': async () => {
        const summary = await runPoll();
        return said(pollWords(summary, await waitingTasks()));
      },
      'send-digests': async () => {
        const before = await eachTeam((team) => store.digestSubscriptions.activeForTeam(team));
        const summary = await runDigests();
        return said(digestRunWords(summary, before, channelName, new Date()));
      },
      'check-watches': async () => {
        const report = await runWatch();
        const watching = await eachTeam((team) => store.watchLists.onForTeam(team));
        return said(watchRunWords(report, watching, channelName, new Date()));
      },
      // The service finishing every pending unlock task at once, for when a developer cannot wait.
      'finish-service-tasks': async () => {
        sim.completeTasks();
        const summary = await runPoll();
        return said(`The service finished its pending tasks. ${pollWords(summary, await waitingTasks())}`);
      },
    },
  };
}

/**
 * The simulator adds the known company to its next upcoming show, and the channels watching accounts
 * become due, as a real change is noticed at the next hourly check; says which in plain words.
 */
export async function newExhibitorAppears(
  sim: Simulator,
  { store }: Pick<ScheduledJobs, 'store'>,
  { teams, channelName }: LocalWorkspaces,
): Promise<string> {
  const appearance = sim.newExhibitorAppears();
  if (!appearance) return `${KNOWN_COMPANY_NAME} already exhibits at every upcoming event in the simulator.`;
  const { exhibitor, event } = appearance;
  const said = `${exhibitor.companyName} (${exhibitor.domain}) now exhibits at ${event.name}, ${event.city}, from ${event.dateStart} (event ${event.eventId}).`;
  const due: string[] = [];
  for (const teamId of teams)
    for (const watch of await store.watchLists.onForTeam(teamId)) {
      // Turning on a watch that is on makes it due now: the store's one way to ask for a check.
      await store.watchLists.setStatus(teamId, watch.channelId, 'on');
      due.push(channelName(watch.channelId));
    }
  if (due.length === 0)
    return `${said} No channel watches an account yet: \`/events watch add ${exhibitor.companyName}\` in a channel, then Run now: check-watches.`;
  return `${said} The watching channels (${[...new Set(due)].join(', ')}) are due for a check now, as when their next daily check comes: Run now: check-watches checks them.`;
}

/** One run at a time: a call while the last run is still going joins that run. */
export function exclusive<T>(run: () => Promise<T>): (() => Promise<T>) & { readonly running?: Promise<T> } {
  let current: Promise<T> | undefined;
  const start = () => {
    current ??= run().finally(() => {
      current = undefined;
    });
    return current;
  };
  return Object.defineProperty(start, 'running', { get: () => current });
}
