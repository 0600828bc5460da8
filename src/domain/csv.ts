/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, a field quoted when it holds a comma, a
 * quote or a line break, quotes doubled), with one addition for files opened in a spreadsheet: a text
 * cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula, so it
 * is prefixed with `'` (OWASP's advice for CSV injection). Numbers are written as numbers.
 */

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: empty for nothing, a formula-looking text defused, quoted when RFC 4180 requires it. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : value;
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header row, then one line per row, each ended by CRLF (so `wc -l` counts rows + 1). */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
