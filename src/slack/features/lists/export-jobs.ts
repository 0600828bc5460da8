import { utcDate } from '../../../time/local-time.ts';
import { type CsvCell, toCsv } from '../../../domain/csv.ts';
import { iteratePages } from '../../../eis/pagination.ts';
import type { Job } from '../../kit/jobs.ts';
import { exportComment, exportedPrivately, exportProgress } from './export-views.ts';
import { errorMessage } from '../../views/messages.ts';
import { withShareButton } from '../../kit/share.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { ExportSource } from './definition.ts';
import { exportSourceOf, listAudience, renderList } from './index.ts';
import { refusalFor } from '../../kit/permissions.ts';
import { mk, ownJobText } from '../../views/mrkdwn.ts';
import { mentionChannel } from '../../views/format.ts';

type ExportJob = Extract<Job, { kind: 'export' }>;

/** No export holds more rows than this; the file's comment says so when a list has more. */
export const EXPORT_LIMIT = 5000;

/** How often the card's progress line may change (chat.update is rate limited; response URLs allow 5 uses). */
const PROGRESS_EVERY_MS = 1000;
const PRIVATE_PROGRESS_UPDATES = 2;

export interface CollectedRows {
  rows: CsvCell[][];
  /** Every match the service counts (locked ones included), when it says. */
  total: number | undefined;
  /** Rows beyond the free preview, which the export could not read. */
  locked: number;
  capped: boolean;
}

/**
 * Reads every page the account may read (stopping at a locked event's preview window) until `limit`
 * rows; `onPage` is told each page read and how many there are.
 */
export async function collectRows(
  source: Pick<ExportSource, 'fetch'>,
  limit: number,
  onPage: (page: number, pages: number | undefined) => Promise<void> = async () => {},
): Promise<CollectedRows> {
  const rows: CsvCell[][] = [];
  let total: number | undefined;
  let locked = 0;
  let more = false;
  for await (const page of iteratePages(source.fetch, { maxPages: limit })) {
    const counts = page.semantics?.counts;
    total = counts?.actualTotal ?? page.total;
    locked = counts?.remainingLockedCount ?? 0;
    rows.push(...page.rows);
    more = page.hasMore;
    await onPage(page.page, page.totalPages);
    if (rows.length >= limit) break;
  }
  const capped = rows.length > limit || (rows.length >= limit && more);
  return { rows: rows.slice(0, limit), total, locked, capped };
}

/** Shows the card with a progress line: the first page always, then at most every second (and few times when private). */
function progressShower(
  deps: WorkerDeps,
  job: ExportJob,
  card: SlackMessage,
  show: (m: SlackMessage) => Promise<void>,
) {
  let shown = 0;
  let last = Number.NEGATIVE_INFINITY;
  return async (page: number, pages: number | undefined) => {
    const at = deps.now().getTime();
    if (at - last < PROGRESS_EVERY_MS || (job.private && shown >= PRIVATE_PROGRESS_UPDATES)) return;
    shown += 1;
    last = at;
    await show(exportProgress(card, page, pages)).catch((error: unknown) =>
      deps.logger.warn('could not show the export progress', { error }),
    );
  };
}

/** "Export CSV": every page as one CSV, into the card's thread (or the clicker's DM); never a charge. */
export function exportJobs(deps: WorkerDeps) {
  const { eis, slack } = deps;

  /**
   * Replaces the clicked card: a public one with chat.update (a response URL allows only 5 uses), a
   * private one through its response URL.
   */
  const showCard = (job: ExportJob) => async (message: SlackMessage) => {
    const { channelId, messageTs, responseUrl } = job.context;
    if (!job.private && messageTs) return slack.update(channelId, messageTs, message);
    if (responseUrl) return slack.ephemeral(job.context, message, { replaceOriginal: true });
  };

  /** The card as clicked; when Slack did not send it (a private card), the same page again. */
  async function cardOf(job: ExportJob): Promise<SlackMessage> {
    if (job.card) return { text: ownJobText(job.card.text), blocks: job.card.blocks };
    const message = await renderList(job.list, job.query, job.page, eis, utcDate(deps.now()));
    if (!job.private) return message;
    return withShareButton(message, { list: job.list, query: job.query, page: job.page });
  }

  async function exportJob(job: ExportJob): Promise<void> {
    const refusal = await refusalFor(deps, listAudience(job.list), job.context, 'this list');
    if (refusal) return slack.ephemeral(job.context, errorMessage(refusal));
    const { upload, directMessage } = slack;
    const source = exportSourceOf(job.list, job.query, eis, utcDate(deps.now()));
    if (!source || !upload || !directMessage) {
      return slack.ephemeral(job.context, errorMessage('This list cannot be exported.'));
    }
    const card = await cardOf(job);
    const show = showCard(job);
    let collected: CollectedRows;
    try {
      collected = await collectRows(source, EXPORT_LIMIT, progressShower(deps, job, card, show));
    } finally {
      await show(card).catch((error: unknown) =>
        deps.logger.warn('could not restore the card after the export', { error }),
      );
    }
    const comment = exportComment({
      ...source,
      ...collected,
      rows: collected.rows.length,
      limit: EXPORT_LIMIT,
    });
    const file = {
      filename: source.filename,
      title: source.title,
      content: toCsv(source.header, collected.rows),
      comment,
    };
    if (!job.private) {
      return upload({ ...file, channelId: job.context.channelId, threadTs: job.context.threadTs });
    }
    const intro = mk`Your CSV export from ${mentionChannel(job.context.channelId)}, only for you:`;
    await upload({ ...file, channelId: await directMessage(job.context.userId, intro) });
    await slack.ephemeral(job.context, exportedPrivately(comment));
  }

  return { exportJob };
}
