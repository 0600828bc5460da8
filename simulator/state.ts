import { insufficientCredits } from './errors.ts';
import { advanceJob, type LinkedinJob, linkedinFails, type OutreachJob, outreachFails } from './jobs.ts';
import type { Seed, SeededEvent, SeededExhibitor, SeededPersonnel } from './seed.ts';

export interface LedgerEntry {
  action: string;
  credits: number;
  eventId?: string;
  personnelIds?: string[];
  traceId: string;
  at: string;
}

export type TaskKind = 'email' | 'phone';
export type TaskOutcome = 'completed' | 'failed';
export type ItemStatus = 'pending' | 'processing' | 'unlocked' | 'failed';

export interface UnlockTask {
  id: string;
  kind: TaskKind;
  key: string;
  personnelIds: string[];
  createdAt: number;
  /** How long it takes on its own (the simulator's task duration when it was created). */
  durationMs: number;
  forced?: TaskOutcome;
  settled: boolean;
}

export interface Account {
  key: string;
  subscribed: boolean;
  initialBalance: number;
  balance: number;
  ledger: LedgerEntry[];
  unlockedEvents: Set<string>;
  visitorEvents: Set<string>;
  /** personnel id -> final email/phone unlock result for this key */
  emails: Map<string, 'unlocked' | 'failed'>;
  phones: Map<string, 'unlocked' | 'failed'>;
  emailPending: Set<string>;
  phonePending: Set<string>;
  /** personnel id -> this key's LinkedIn activity analysis */
  linkedinActivity: Map<string, LinkedinJob>;
  /** `${personnelId}|${internal event id or ''}` -> this key's latest outreach drafts */
  outreach: Map<string, OutreachJob>;
}

export interface ChargeDetails {
  eventId?: string;
  personnelIds?: string[];
}

export interface TaskItemView {
  personnelId: string;
  status: ItemStatus;
  value: string | null;
  errorCode?: string;
}

/** Accounts, ledger, unlock state and tasks. All mutation is synchronous, so a charge is atomic. */
export class SimulatorState {
  readonly accounts = new Map<string, Account>();
  readonly tasks = new Map<string, UnlockTask>();
  readonly eventsById = new Map<string, SeededEvent>();
  readonly exhibitorsById = new Map<string, SeededExhibitor>();
  readonly personnelById = new Map<string, SeededPersonnel>();
  /** credit operations in progress, by `${key}|${target}` */
  readonly locks = new Set<string>();
  readonly inFlight = new Map<string, number>();
  readonly peakInFlight = new Map<string, number>();
  readonly routeInFlight = new Map<string, number>();
  private nextTaskId = 5001;
  /** How long the unlock tasks created from now on take (`setTaskDuration`). */
  newTaskDurationMs: number;
  private nextJobId = 70_001;

  constructor(
    readonly seed: Seed,
    readonly now: () => number,
    readonly taskDurationMs: number,
    readonly resetAt: number,
  ) {
    for (const event of seed.events) {
      this.eventsById.set(event.id, event);
      this.eventsById.set(event.eventId, event);
    }
    for (const exhibitor of seed.exhibitors) this.exhibitorsById.set(exhibitor.id, exhibitor);
    for (const person of seed.personnel) this.personnelById.set(person.id, person);
    this.newTaskDurationMs = taskDurationMs;
  }

  addAccount(key: string, balance: number, subscribed: boolean): Account {
    const account: Account = {
      key,
      subscribed,
      initialBalance: balance,
      balance,
      ledger: [],
      unlockedEvents: new Set(),
      visitorEvents: new Set(),
      emails: new Map(),
      phones: new Map(),
      emailPending: new Set(),
      phonePending: new Set(),
      linkedinActivity: new Map(),
      outreach: new Map(),
    };
    this.accounts.set(key, account);
    return account;
  }

  account(key: string): Account {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`simulator: unknown key ${key.slice(0, 6)}…`);
    return account;
  }

  /** Checks the balance, deducts and records, in one synchronous step. */
  charge(
    account: Account,
    action: string,
    credits: number,
    traceId: string,
    details: ChargeDetails = {},
  ): void {
    if (credits <= 0) return;
    if (account.balance < credits) throw insufficientCredits(credits, account.balance);
    account.balance -= credits;
    account.ledger.push({ action, credits, ...details, traceId, at: new Date(this.now()).toISOString() });
  }

  creditBalance(account: Account) {
    const spent = account.initialBalance - account.balance;
    return {
      totalAmount: Math.max(account.initialBalance, account.balance + spent),
      totalBalance: account.balance,
      subscriptionAmount: account.initialBalance,
      subscriptionBalance: account.balance,
      addonAmount: 0,
      addonBalance: 0,
      addonExpireAt: null,
      giftAmount: 0,
      giftBalance: 0,
      resetAt: this.resetAt,
    };
  }

  shortBalance(account: Account) {
    return {
      subscriptionBalance: account.balance,
      permanentBalance: 0,
      totalBalance: account.balance,
      unlimited: false,
    };
  }

  createTask(account: Account, kind: TaskKind, personnelIds: string[]): UnlockTask {
    const task: UnlockTask = {
      id: String(this.nextTaskId++),
      kind,
      key: account.key,
      personnelIds,
      createdAt: this.now(),
      durationMs: this.newTaskDurationMs,
      settled: false,
    };
    const pending = kind === 'email' ? account.emailPending : account.phonePending;
    for (const id of personnelIds) pending.add(id);
    this.tasks.set(task.id, task);
    return task;
  }

  /** A fresh id for a background job or a task center (decimal strings, as the OpenAPI gives them). */
  jobId(): string {
    return String(this.nextJobId++);
  }

  /** Finishes every pending/processing task, outreach draft and LinkedIn analysis now. */
  completeTasks(outcome: TaskOutcome = 'completed', key?: string): void {
    for (const task of this.tasks.values()) {
      if (task.settled || (key !== undefined && task.key !== key)) continue;
      task.forced = outcome;
    }
    for (const account of this.accounts.values()) {
      if (key !== undefined && account.key !== key) continue;
      const jobs = [...account.outreach.values(), ...account.linkedinActivity.values()];
      for (const job of jobs) if (job.status === 'processing') job.forced = outcome;
    }
    this.settle();
  }

  /** Moves outreach drafts and LinkedIn analyses whose time has come to ready or failed. */
  private settleJobs(): void {
    const now = this.now();
    for (const account of this.accounts.values()) {
      for (const job of account.outreach.values()) {
        advanceJob(job, now, this.taskDurationMs, outreachFails(this.personnelById.get(job.personnelId)));
      }
      for (const job of account.linkedinActivity.values()) {
        advanceJob(job, now, this.taskDurationMs, linkedinFails(this.personnelById.get(job.personnelId)));
      }
    }
  }

  /** Applies the results of tasks whose time has come to their accounts' contact state. */
  settle(): void {
    this.settleJobs();
    for (const task of this.tasks.values()) {
      if (task.settled || !this.isDone(task)) continue;
      task.settled = true;
      const account = this.accounts.get(task.key);
      if (!account) continue;
      const results = task.kind === 'email' ? account.emails : account.phones;
      const pending = task.kind === 'email' ? account.emailPending : account.phonePending;
      for (const item of this.taskItems(task)) {
        pending.delete(item.personnelId);
        if (item.status === 'unlocked' || item.status === 'failed')
          results.set(item.personnelId, item.status);
      }
    }
  }

  private isDone(task: UnlockTask): boolean {
    return task.forced !== undefined || this.now() - task.createdAt >= task.durationMs;
  }

  taskStatus(task: UnlockTask): 'pending' | 'processing' | 'completed' | 'failed' {
    if (this.isDone(task)) {
      return this.taskItems(task).every((i) => i.status === 'failed') ? 'failed' : 'completed';
    }
    return this.now() - task.createdAt < task.durationMs / 3 ? 'pending' : 'processing';
  }

  taskItems(task: UnlockTask): TaskItemView[] {
    const done = this.isDone(task);
    const running = this.now() - task.createdAt < task.durationMs / 3 ? 'pending' : 'processing';
    return task.personnelIds.map((personnelId) => {
      if (!done) return { personnelId, status: running, value: null };
      const person = this.personnelById.get(personnelId);
      if (task.forced === 'failed' || !person) {
        return { personnelId, status: 'failed', value: null, errorCode: 'TASK_FAILED' };
      }
      const found = task.kind === 'email' ? person.emailFindable : person.phoneFindable;
      if (!found) {
        const errorCode = task.kind === 'email' ? 'EMAIL_NOT_FOUND' : 'PHONE_NOT_FOUND';
        return { personnelId, status: 'failed', value: null, errorCode };
      }
      return { personnelId, status: 'unlocked', value: task.kind === 'email' ? person.email : person.phone };
    });
  }
}
