/**
 * CSV as RFC 4180 writes it, in UTF-8 (docs/api.md, "Formats"): a header row of the column
 * names, CRLF after every row, a cell quoted when it holds a comma, a double quote, CR or LF
 * (a double quote inside written twice). Null is an empty cell and the empty string a quoted
 * one (`""`), as PostgreSQL's CSV tells them apart; booleans are `true`/`false`.
 *
 * The formula guard (OWASP, "CSV Injection"): a text cell that begins with `=`, `+`, `-`, `@`,
 * a tab or a carriage return is written with a leading `'`, so a spreadsheet shows it as text
 * instead of running it. Descriptions come from banks: any of them may begin so.
 */
import type { CellValue, Column, TableRow } from './columns.ts';

export const CSV_LINE_END = '\r\n';

/** What a spreadsheet may take for the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What makes a cell need quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell of a column of `kind`, escaped. */
export function csvCell(value: CellValue, column: Column): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = column.kind === 'text' && FORMULA_START.test(value) ? `'${value}` : value;
  return text === '' || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header row: the column names (plain names: no guard, no quotes needed). */
export function csvHeader(columns: readonly Column[]): string {
  return columns.map((column) => column.name).join(',') + CSV_LINE_END;
}

/** Rows, each ended by CRLF. */
export function csvRows(columns: readonly Column[], rows: readonly TableRow[]): string {
  let text = '';
  for (const row of rows) {
    let separator = '';
    for (const column of columns) {
      text += separator + csvCell(row[column.name] ?? null, column);
      separator = ',';
    }
    text += CSV_LINE_END;
  }
  return text;
}
