import { type CsvCell, toCsv } from '../../domain/csv.ts';
import type { EisClient } from '../../eis/index.ts';
import { iteratePages } from '../../eis/pagination.ts';
import { type ListKind, LIST_QUERIES } from '../button-values.ts';
import type { Job } from '../jobs.ts';
import {
  CONTACT_COLUMNS,
  type CsvColumns,
  EVENT_COLUMNS,
  EXHIBITOR_COLUMNS,
  exportComment,
  exportedPrivately,
  exportProgress,
  PERSON_COLUMNS,
  RECOMMENDED_COLUMNS,
} from '../views/export.ts';
import { errorMessage } from '../views/messages.ts';
import { withShareButton } from '../views/share.ts';
import type { ListPage, SlackMessage } from '../views/types.ts';
import type { WorkerDeps } from './deps.ts';
import { LIST_PAGES, renderList } from './lists.ts';

type ExportJob = Extract<Job, { kind: 'export' }>;

/** No export holds more rows than this; the file's comment says so when a list has more. */
export const EXPORT_LIMIT = 5000;

/** How often the card's progress line may change (chat.update is rate limited; response URLs allow 5 uses). */
const PROGRESS_EVERY_MS = 1000;
const PRIVATE_PROGRESS_UPDATES = 2;

/** One page of an export: its rows as CSV cells, and the page's envelope (paging, preview counts). */
type ExportPage = Omit<ListPage<unknown>, 'items'> & { rows: CsvCell[][]; items: readonly unknown[] };

/** A list as an export reads it: only free operations, page by page, `pageSize` rows at a time. */
export interface ExportSource {
  noun: string;
  title: string;
  filename: string;
  header: readonly string[];
  fetch: (page: number) => Promise<ExportPage>;
}

const asRows =
  <T>(columns: CsvColumns<T>) =>
  (page: ListPage<T>): ExportPage => ({ ...page, rows: page.items.map(columns.row) });

type SourceOf = (query: Record<string, unknown>, eis: EisClient) => ExportSource;

/**
 * Every exportable list and the free read behind it. Paid searches have no entry (and no button):
 * their pages charge again.
 */
const SOURCES: Partial<Record<ListKind, SourceOf>> = {
  events(raw, eis) {
    const q = LIST_QUERIES.events.parse(raw);
    return {
      noun: 'events',
      title: q.keywords ? `Events: ${q.keywords}` : 'Events',
      filename: 'events.csv',
      header: EVENT_COLUMNS.header,
      fetch: async (page) => asRows(EVENT_COLUMNS)(await LIST_PAGES.events(q, page, 100, eis)),
    };
  },
  exhibitors(raw, eis) {
    const q = LIST_QUERIES.exhibitors.parse(raw);
    return {
      noun: 'exhibitors',
      title: `Exhibitors of event ${q.eventId}${q.keyword ? ` matching “${q.keyword}”` : ''}`,
      filename: `exhibitors-${q.eventId}.csv`,
      header: EXHIBITOR_COLUMNS.header,
      fetch: async (page) => asRows(EXHIBITOR_COLUMNS)(await LIST_PAGES.exhibitors(q, page, 100, eis)),
    };
  },
  people(raw, eis) {
    const q = LIST_QUERIES.people.parse(raw);
    return {
      noun: 'people',
      title: `People of event ${q.eventId}${q.query ? ` matching “${q.query}”` : ''}`,
      filename: `people-${q.eventId}.csv`,
      header: PERSON_COLUMNS.header,
      fetch: async (page) => asRows(PERSON_COLUMNS)(await LIST_PAGES.people(q, page, 50, eis)),
    };
  },
  recommend(raw, eis) {
    const q = LIST_QUERIES.recommend.parse(raw);
    return {
      noun: 'exhibitors',
      title: `Recommended exhibitors of event ${q.eventId}`,
      filename: `recommended-${q.eventId}.csv`,
      header: RECOMMENDED_COLUMNS.header,
      fetch: async (page) => asRows(RECOMMENDED_COLUMNS)(await LIST_PAGES.recommend(q, page, 100, eis)),
    };
  },
  similar(raw, eis) {
    const q = LIST_QUERIES.similar.parse(raw);
    return {
      noun: 'exhibitors',
      title: `Exhibitors like ${q.companyUrl ?? q.targetAudience ?? 'your company'}`,
      filename: 'similar-exhibitors.csv',
      header: EXHIBITOR_COLUMNS.header,
      fetch: async (page) => asRows(EXHIBITOR_COLUMNS)(await LIST_PAGES.similar(q, page, 100, eis)),
    };
  },
  'person-events'(raw, eis) {
    const { personnelId } = LIST_QUERIES['person-events'].parse(raw);
    return {
      noun: 'events',
      title: `Events of person ${personnelId}`,
      filename: `person-events-${personnelId}.csv`,
      header: EVENT_COLUMNS.header,
      fetch: async (page) => asRows(EVENT_COLUMNS)(await eis.personnel.events(personnelId, page)),
    };
  },
  'contact-search'(raw, eis) {
    const query = LIST_QUERIES['contact-search'].parse(raw);
    return {
      noun: 'contacts',
      title: `Contacts at ${query.companyName}`,
      filename: 'contacts-search.csv',
      header: CONTACT_COLUMNS.header,
      // The free search, as the card shows it: an email or phone only where it is already unlocked.
      fetch: async (page) => {
        const result = await LIST_PAGES['contact-search'](query, page, 100, eis);
        // A contact may have no name on file: its row has an empty one.
        const items = result.items.map((person) => ({ ...person, fullName: person.fullName ?? '' }));
        return asRows(CONTACT_COLUMNS)({ ...result, items });
      },
    };
  },
  contacts(raw, eis) {
    const { personnelIds } = LIST_QUERIES.contacts.parse(raw);
    const pageSize = 25;
    const totalPages = Math.ceil(personnelIds.length / pageSize);
    return {
      noun: 'contacts',
      title: 'Contacts',
      filename: 'contacts.csv',
      header: CONTACT_COLUMNS.header,
      // One free profile read per person: what is unlocked for the account, nothing more.
      fetch: async (page) => {
        const ids = personnelIds.slice((page - 1) * pageSize, page * pageSize);
        const items = await Promise.all(
          ids.map((id) =>
            eis.personnel
              .profile(id)
              .catch(() => ({ id, fullName: 'Name unavailable', contactUnlockStatus: 'unknown' })),
          ),
        );
        return asRows(CONTACT_COLUMNS)({
          items,
          page,
          total: personnelIds.length,
          totalPages,
          hasMore: page < totalPages,
        });
      },
    };
  },
};

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
    if (job.card) return { text: job.card.text, blocks: job.card.blocks };
    const message = await renderList(job.list, job.query, job.page, eis);
    if (!job.private) return message;
    return withShareButton(message, { list: job.list, query: job.query, page: job.page });
  }

  async function exportJob(job: ExportJob): Promise<void> {
    const { upload, directMessage } = slack;
    const sourceOf = SOURCES[job.list];
    if (!sourceOf || !upload || !directMessage) {
      return slack.ephemeral(job.context, errorMessage('This list cannot be exported.'));
    }
    const source = sourceOf(job.query, eis);
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
    const intro = `Your CSV export from <#${job.context.channelId}>, only for you:`;
    await upload({ ...file, channelId: await directMessage(job.context.userId, intro) });
    await slack.ephemeral(job.context, exportedPrivately(comment));
  }

  return { exportJob };
}
