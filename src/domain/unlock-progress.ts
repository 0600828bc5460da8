import type { EisClient } from '../eis/index.ts';
import type { UnlockKind } from './ports/index.ts';
import type { UnlockTaskProgress } from './unlock-result.ts';

interface TaskItem {
  personnelId: string;
  status: UnlockTaskProgress['items'][number]['status'];
  errorCode?: string | undefined;
}

/** The service's email and phone task answers, as the one shape the poller reads. */
export async function unlockTaskProgress(
  eis: Pick<EisClient, 'contacts'>,
  kind: UnlockKind,
  taskId: string,
): Promise<UnlockTaskProgress> {
  return kind === 'email'
    ? withValues(await eis.contacts.emailTask(taskId), (item) => item.email)
    : withValues(await eis.contacts.phoneTask(taskId), (item) => item.phone);
}

function withValues<Item extends TaskItem>(
  task: { taskStatus: UnlockTaskProgress['taskStatus']; items: Item[] },
  valueOf: (item: Item) => string | null | undefined,
): UnlockTaskProgress {
  return {
    taskStatus: task.taskStatus,
    items: task.items.map((item) => ({
      personnelId: item.personnelId,
      status: item.status,
      value: valueOf(item) ?? null,
      ...(item.errorCode ? { errorCode: item.errorCode } : {}),
    })),
  };
}
