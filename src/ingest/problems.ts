/**
 * Problems with the input, in this tool's words: each one names where it is, `<file>:<line>:
 * <reason>` for a CSV file (the line a record starts on, found by scanning the file only when
 * there is something to report) or `<file>:row <n>: <reason>` for a Parquet file.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { scanCsv } from './csv-scan.ts';
import type { InputFile } from './inputs.ts';

/** Bad input: each problem reads `<file>:<line>: <reason>` (or `<file>: <reason>`). */
export class BuildInputError extends Error {
  override readonly name = 'BuildInputError';
  constructor(readonly problems: string[]) {
    super(`the input has problems; nothing was replaced:\n${problems.join('\n')}`);
  }
}

/** Reported problems per build; the first few are what a person can act on. */
export const MAX_REPORTED_PROBLEMS = 20;

/** How a row is named in messages: by the file line it starts on (CSV) or its number (Parquet). */
export interface RowLocator {
  /**
   * `line 12` or `row 11`, from a 0-based row index in file order; `lines` maps CSV records
   * to their first file line (scanCsv), the header and one line per record assumed without it.
   */
  label(rowIndex: number, lines: ReadonlyMap<number, number>): string;
}

export const csvLines: RowLocator = {
  label: (rowIndex, lines) => `line ${lines.get(rowIndex) ?? rowIndex + 2}`,
};
export const parquetRows: RowLocator = { label: (rowIndex) => `row ${rowIndex + 1}` };

/**
 * Why DuckDB could not read an input, in this tool's words: for a CSV file, the structural
 * problems a scan of it finds (`file:line: reason`: not UTF-8, a field too many or too few,
 * an unclosed quote); otherwise, or when the scan finds none, the first line of DuckDB's
 * message without its error class.
 */
export async function unreadableInput(input: InputFile, error: unknown): Promise<BuildInputError> {
  if (input.locator === csvLines) {
    const { problems } = await scanCsv(input.path, { maxProblems: MAX_REPORTED_PROBLEMS });
    if (problems.length > 0) {
      return new BuildInputError(
        problems.map((problem) => `${input.file}:${problem.line}: ${problem.reason}`),
      );
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  const first = (message.split('\n').find(Boolean) ?? message).replace(/^[A-Za-z ]*Error: /, '');
  const what = input.locator === csvLines ? 'as CSV' : 'as Parquet';
  return new BuildInputError([`${input.file}: cannot read ${what}: ${first}`]);
}

/**
 * Runs a validation query (validationSql) over the rows of one input file and words what it
 * finds as `<file>:<line>: <reason>`.
 */
export async function reportedProblems(
  conn: DuckDBConnection,
  input: InputFile,
  sql: string,
): Promise<string[]> {
  const rows = (await conn.runAndReadAll(sql)).getRowObjectsJson();
  if (rows.length === 0) return [];
  const related = (row: (typeof rows)[number]) =>
    row.related_row === null || row.related_row === undefined ? null : Number(row.related_row);
  const wanted = new Set<number>();
  for (const row of rows) {
    wanted.add(Number(row.row_index));
    const first = related(row);
    if (first !== null) wanted.add(first);
  }
  const { where, lines } = await rowLocations(input, wanted);
  return rows.map((row) => {
    const first = related(row);
    const refersTo = first === null ? '' : ` (first at ${input.locator.label(first, lines)})`;
    return `${where(Number(row.row_index))}: ${String(row.reason)}${refersTo}`;
  });
}

/**
 * How to name rows of an input: `<file>:<line>` (CSV) or `<file>:row <n>` (Parquet), from
 * 0-based row indexes in file order. A quoted value may span lines, so a CSV file's lines
 * come from the file itself (only for the rows wanted).
 */
export async function rowLocations(input: InputFile, wanted: ReadonlySet<number>) {
  const lines =
    input.locator === csvLines
      ? (await scanCsv(input.path, { wanted })).recordLines
      : new Map<number, number>();
  const where = (index: number) =>
    input.locator === csvLines
      ? `${input.file}:${lines.get(index) ?? index + 2}`
      : `${input.file}:row ${index + 1}`;
  return { where, lines };
}
