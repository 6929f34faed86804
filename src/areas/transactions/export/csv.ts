/**
 * CSV as RFC 4180 writes it, in UTF-8 (docs/api.md, "Formats"): a header row of the column
 * names, CRLF after every row, a cell quoted when it holds a comma, a double quote, CR or LF
 * (a double quote inside written twice). Null is an empty cell and the empty string a quoted
 * one (`""`), as PostgreSQL's CSV tells them apart; booleans are `true`/`false`.
 *
 * The formula guard (OWASP, "CSV Injection"; the exact rule is docs/api.md's): a text cell
 * that, after whatever a spreadsheet skips, begins like a formula is written with a leading
 * `'`, so a spreadsheet shows it as text instead of running it. Descriptions come from banks:
 * any of them may begin so. A value that begins with `'` itself is written with one more, so
 * that removing one leading `'` always gives the stored text back.
 */
import type { CellValue, Column, TableRow } from './columns.ts';

export const CSV_LINE_END = '\r\n';

/**
 * What a spreadsheet may skip before it reads a formula: white space (U+0020, U+00A0, U+2028,
 * U+3000, ...), control characters (tab, CR, LF, U+0085, ...) and invisible ones (U+FEFF,
 * U+200B, bidirectional marks, ...). Broader than any one spreadsheet: a guard too many costs
 * nothing, since the decoding is exact.
 */
const SKIPPED = '[\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}]';
/**
 * What starts a formula: `=`, `+`, `-`, `@`; every character whose compatibility form (NFKC)
 * is one of them (full-width, small, super- and subscript forms, the Hebrew plus): input
 * methods and some spreadsheets fold them; and tab and CR, as OWASP lists them.
 */
const TRIGGERS = '=+-@\t\r＝＋－＠﹦﹢﹣﹫⁼⁺₌₊\u{fb29}';
const TRIGGER = `[${[...TRIGGERS].map((c) => `\\u{${c.codePointAt(0)?.toString(16)}}`).join('')}]`;
/** A text cell written with a leading `'`: a formula start, or a `'` of its own. */
const GUARDED = new RegExp(`^(?:'|${SKIPPED}*${TRIGGER})`, 'u');
/** What makes a cell need quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell of a column of `kind`, escaped. */
export function csvCell(value: CellValue, column: Column): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = column.kind === 'text' && GUARDED.test(value) ? `'${value}` : value;
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
