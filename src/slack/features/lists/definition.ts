import * as z from 'zod';
import type { Audience } from '../../../domain/audience.ts';
import type { CsvCell } from '../../../domain/csv.ts';
import type { EisClient } from '../../../eis/index.ts';
import { pageOf } from '../../../domain/paging.ts';
import type { CsvColumns } from './export-views.ts';
import type { ListPage, SlackMessage } from '../../views/types.ts';
import type { FilterWords, WordsResult } from '../../kit/filter-reading.ts';

/**
 * One list of the bot (`people`, `exhibitors`, …) in one place: its query as its buttons carry it, its
 * `key:value` filters, the service request a page is read with, its card, its export, its Filter…
 * modal and its command words. The parser, the modal, the list job, the buttons and the export all
 * derive from it (`defineList`), so a filter is added in one definition.
 */

/** A query field as a button carries it back (a button may come from an older release). */
export const text = z.string().max(500).optional();
type FilterShape<F extends FilterWords> = { [K in keyof F & string]: typeof text };

/**
 * A page of rows; `pageSize` places them (`rows 11–20`) when the service does not say. `capped`: only
 * the first rows of what matched were read, so the total is a floor.
 */
export type RowsPage<T> = ListPage<T> & { pageSize?: number; capped?: boolean };
export type Names = Readonly<Record<string, string | undefined>>;

export interface ListDefinition<Shape extends z.ZodRawShape, F extends FilterWords, T, C = never> {
  /** Whom the list is for, its command, pages, Filter…, Export CSV and shares alike (src/domain/audience.ts). */
  audience: Audience;
  /** The query's fields besides its filters (the event, the search words). */
  shape: Shape;
  /** The `key:value` filters, each one also a text field of the query. */
  filters: F;
  /** Reads one page from the service: the card and its export both read through this. */
  read: (
    query: QueryOf<Shape, F>,
    page: number,
    pageSize: number,
    eis: EisClient,
    /** `YYYY-MM-DD` (UTC): a list may put shows still ahead first. */
    today: string,
  ) => Promise<RowsPage<T>>;
  /**
   * A filter the service cannot apply (shows-for's `region:`), kept here: the rows the query keeps, or
   * undefined when it uses none. The service's first `readSize` rows are then read at once, kept and
   * paged here, and the counts say "at least" when the service had more than were read.
   */
  keptHere?: {
    readSize: number;
    keeps: (query: QueryOf<Shape, F>) => ((row: T) => boolean) | undefined;
  };
  /** Names for ids in the title (`{ eventId: 'Fintech Expo' }`), read beside the page. */
  names?: (query: QueryOf<Shape, F>, eis: EisClient) => Promise<Names>;
  /** The card of one page (its rows, its buttons); `today` (`YYYY-MM-DD`, UTC) marks past shows. */
  card: (input: { page: RowsPage<T>; query: QueryOf<Shape, F>; names: Names; today: string }) => SlackMessage;
  /** Export CSV: only lists whose every page is free to read again. */
  export?: {
    noun: string;
    title: (query: QueryOf<Shape, F>) => string;
    filename: (query: QueryOf<Shape, F>) => string;
    columns: CsvColumns<T>;
    pageSize: number;
  };
  /** The Filter… modal: its title and the search words' field; each filter with a `label` is a field. */
  filterModal?: {
    title: string;
    search: { field: keyof Shape & string; label: string; placeholder: string };
  };
  /**
   * The `/events` command that opens the list: its help, its words read by these filters, and the
   * query of its first page (the one its Previous / Next / Filter… / Export buttons carry on).
   */
  command?: CommandHelp & {
    parse: (words: readonly string[], filters: F) => WordsResult<C>;
    query: (command: C) => z.input<QuerySchema<Shape, F>>;
  };
}

interface CommandHelp {
  usage: string;
  example: string;
  summary: string;
  details?: string;
}
export interface ListCommand<C> extends CommandHelp {
  /** The list's audience. */
  audience: Audience;
  parse: (words: readonly string[]) => WordsResult<C>;
  /** The query of the command's first page, as its buttons carry it. */
  query: (command: C) => Record<string, unknown>;
}
/** A list with a command is known to have it. */
type CommandOf<C> = [C] extends [never] ? unknown : { command: ListCommand<C> };

export type QuerySchema<Shape extends z.ZodRawShape, F extends FilterWords> = z.ZodObject<
  Shape & FilterShape<F>
>;
export type QueryOf<Shape extends z.ZodRawShape, F extends FilterWords> = z.output<QuerySchema<Shape, F>>;

/** A list as an export reads it: only free operations, page by page. */
export interface ExportSource {
  noun: string;
  title: string;
  filename: string;
  header: readonly string[];
  fetch: (page: number) => Promise<ExportPage>;
}
/** One page of an export: its rows as CSV cells, and the page's envelope (paging, preview counts). */
export type ExportPage = Omit<ListPage<unknown>, 'items'> & { rows: CsvCell[][]; items: readonly unknown[] };

/** What every list offers the rest of the bot, whatever its row type. */
export interface ListOperations {
  /** Whom the list is for: checked for its pages, exports and shares by the worker. */
  audience: Audience;
  /** The query its Previous / Next / Filter… / Export CSV buttons carry, read back. */
  schema: z.ZodType<Record<string, unknown>>;
  filters: FilterWords;
  filterModal?: { title: string; search: { field: string; label: string; placeholder: string } };
  /** One page from the service, rendered as the list's card; `today` (`YYYY-MM-DD`, UTC) marks past shows. */
  render: (
    rawQuery: Record<string, unknown>,
    page: number,
    eis: EisClient,
    today: string,
  ) => Promise<SlackMessage>;
  /** The list as its export reads it; undefined for lists that cannot be exported. */
  exportSource?: (rawQuery: Record<string, unknown>, eis: EisClient, today: string) => ExportSource;
}

/** Rows per Slack message: enough to scan, small enough to stay readable. */
export const PAGE_SIZE = 10;

const noNames = (): Promise<Names> => Promise.resolve({});

/** A list's operations, derived from its definition (kept, to define a list from another). */
export type DefinedList<Shape extends z.ZodRawShape, F extends FilterWords, T, C> = ListOperations & {
  definition: ListDefinition<Shape, F, T, C>;
  schema: QuerySchema<Shape, F>;
} & CommandOf<C>;

/** The definition's read, with its `keptHere` filter applied when the query uses it. */
function readKeeping<Shape extends z.ZodRawShape, F extends FilterWords, T, C>({
  read,
  keptHere,
}: ListDefinition<Shape, F, T, C>): ListDefinition<Shape, F, T, C>['read'] {
  if (!keptHere) return read;
  return async (query, page, pageSize, eis, today) => {
    const keeps = keptHere.keeps(query);
    if (!keeps) return read(query, page, pageSize, eis, today);
    const first = await read(query, 1, keptHere.readSize, eis, today);
    const kept = pageOf(first.items.filter(keeps), page, pageSize);
    return first.hasMore ? { ...kept, capped: true } : kept;
  };
}

/** A list's definition, with the operations the bot derives from it. */
export function defineList<Shape extends z.ZodRawShape, F extends FilterWords, T, C = never>(
  definition: ListDefinition<Shape, F, T, C>,
): DefinedList<Shape, F, T, C> {
  const filterShape = Object.fromEntries(Object.keys(definition.filters).map((key) => [key, text]));
  // Spelled out by `FilterShape`: one optional text per filter key.
  const schema = z.object({ ...definition.shape, ...filterShape }) as unknown as QuerySchema<Shape, F>;
  const { card, names = noNames } = definition;
  const read = readKeeping(definition);
  const exported = definition.export;
  const { filters, filterModal, command, audience } = definition;
  const list: ListOperations & { definition: typeof definition; schema: typeof schema } = {
    definition,
    audience,
    schema,
    filters,
    ...(filterModal && { filterModal }),
    ...(command && {
      command: { ...command, audience, parse: (words: readonly string[]) => command.parse(words, filters) },
    }),
    async render(rawQuery, page, eis, today) {
      const query = schema.parse(rawQuery);
      const [rows, named] = await Promise.all([read(query, page, PAGE_SIZE, eis, today), names(query, eis)]);
      return card({ page: rows, query, names: named, today });
    },
    ...(exported && {
      exportSource(rawQuery, eis, today): ExportSource {
        const query = schema.parse(rawQuery);
        return {
          noun: exported.noun,
          title: exported.title(query),
          filename: exported.filename(query),
          header: exported.columns.header,
          fetch: async (page) => {
            const rows = await read(query, page, exported.pageSize, eis, today);
            return { ...rows, rows: rows.items.map(exported.columns.row) };
          },
        };
      },
    }),
  };
  // A list given a command keeps it (`C` is inferred from that command's parse).
  return list as unknown as DefinedList<Shape, F, T, C>;
}
