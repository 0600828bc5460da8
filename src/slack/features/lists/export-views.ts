import type { CsvCell } from '../../../domain/csv.ts';
import { context } from '../../views/blocks.ts';
import { formatNumber } from '../../views/format.ts';
import { fitToLimits, LIMITS } from '../../views/limits.ts';
import type {
  EventSummary,
  ExhibitorSummary,
  PersonnelItem,
  RecommendedExhibitor,
  SlackMessage,
} from '../../views/types.ts';
import { escapeMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/** The card as it was, with one line saying how far the export got ("Exporting… page 3 of 34"). */
export function exportProgress(card: SlackMessage, page: number, pages: number | undefined): SlackMessage {
  const of = pages ? mk` of ${formatNumber(pages)}` : '';
  const line = context(mk`:hourglass_flowing_sand: Exporting… page ${formatNumber(page)}${of}`);
  const blocks = card.blocks.length >= LIMITS.blocksPerMessage ? card.blocks.slice(0, -1) : card.blocks;
  return fitToLimits({ text: card.text, blocks: [...blocks, line] });
}

export interface ExportSummary {
  /** What the rows are, plural ("exhibitors"). */
  noun: string;
  /** The list's title ("Exhibitors: Consumer Technology Show 2026"). */
  title: string;
  rows: number;
  /** Every match the service counts, when it says (locked ones included). */
  total?: number | undefined;
  /** Rows beyond the free preview, not in the file. */
  locked: number;
  /** The export stopped at `limit` rows. */
  capped: boolean;
  limit: number;
}

/**
 * The comment above the file: how many rows it holds, and why not more (the cap, locked rows).
 * "CSV of 340 exhibitors (all of them) · Exhibitors: … · at most 5,000 rows per export. No credits spent."
 */
export function exportComment(summary: ExportSummary): Mrkdwn {
  const { noun, rows, total, locked, capped, limit } = summary;
  const count = mk`${formatNumber(rows)} ${escapeMrkdwn(noun)}`;
  const scope = capped
    ? mk`the first ${formatNumber(limit)}${typeof total === 'number' ? mk` of ${formatNumber(total)}` : ''}: the export stops at ${formatNumber(limit)} rows`
    : locked > 0
      ? mk`${formatNumber(locked)} locked ${escapeMrkdwn(noun)} beyond the free preview are not included; unlock the event to export them`
      : mk`all of them; at most ${formatNumber(limit)} rows per export`;
  return mk`:page_facing_up: CSV of ${count} (${scope}) · ${escapeMrkdwn(summary.title)}. No credits spent.`;
}

/** The private answer when the card was private: where its file went. */
export function exportedPrivately(comment: Mrkdwn): SlackMessage {
  const text = mk`${comment} The file is in your direct messages with the app.`;
  return fitToLimits({ text, blocks: [context(text)] });
}

// ---------- columns ----------

export interface CsvColumns<T> {
  header: readonly string[];
  row: (item: T) => CsvCell[];
}

const sources = (value: PersonnelItem['sourceType']) =>
  typeof value === 'string' ? value : (value ?? []).join(', ');

export const EVENT_COLUMNS: CsvColumns<EventSummary> = {
  header: ['event_id', 'name', 'start', 'end', 'venue', 'city', 'region', 'country', 'exhibitors', 'url'],
  row: (event) => [
    event.eventId,
    event.name,
    event.dateStart,
    event.dateEnd,
    event.venue,
    event.city,
    event.region,
    event.country,
    event.exhibitorCount,
    event.url,
  ],
};

export const EXHIBITOR_COLUMNS: CsvColumns<ExhibitorSummary> = {
  header: ['exhibitor_id', 'company', 'industry', 'country', 'employees', 'website', 'recommended'],
  row: (exhibitor) => [
    exhibitor.id,
    exhibitor.companyName,
    exhibitor.industry,
    exhibitor.country,
    exhibitor.employeeCount,
    exhibitor.website ?? exhibitor.domain,
    exhibitor.isRecommended ?? false,
  ],
};

export const RECOMMENDED_COLUMNS: CsvColumns<RecommendedExhibitor> = {
  header: ['exhibitor_id', 'company', 'industry', 'country', 'employees', 'website', 'tags', 'why'],
  row: (exhibitor) => [
    exhibitor.id,
    exhibitor.companyName,
    exhibitor.industry,
    exhibitor.country,
    exhibitor.employeeCount ?? exhibitor.companySize,
    exhibitor.website,
    (exhibitor.categories ?? []).join(', '),
    exhibitor.reason,
  ],
};

type Person = PersonnelItem & { phone?: string | null; phoneUnlockStatus?: string | null };

/** People and contacts as the account sees them: an email or phone only where it is unlocked, else empty with its status. */
export const PERSON_COLUMNS: CsvColumns<Person> = {
  header: [
    'personnel_id',
    'name',
    'title',
    'company',
    'source',
    'email',
    'email_status',
    'phone',
    'phone_status',
  ],
  row: (person) => [
    person.id,
    person.fullName,
    person.title,
    person.companyName,
    sources(person.sourceType),
    person.email,
    person.contactUnlockStatus ?? 'locked',
    person.phone,
    person.phoneUnlockStatus ?? 'locked',
  ],
};

/** Contacts by profile or search: the same columns as an event's people. */
export const CONTACT_COLUMNS = PERSON_COLUMNS;
