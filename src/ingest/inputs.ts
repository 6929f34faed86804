/**
 * The input files of a build or a change set: found in a folder (one per table, CSV or
 * Parquet; any other file refused), their headers checked, then staged in the scratch database
 * as the contract's columns, all VARCHAR, for validation (validate.ts) to check and the writer
 * to cast.
 */
import { access, constants, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { type Column, TABLE_NAMES, TABLES, type TableName } from '../contract/tables.ts';
import { sqlIdentifier, sqlString } from '../sql/literals.ts';
import { MAX_CSV_RECORD_BYTES, scanCsv } from './csv-scan.ts';
import {
  BuildInputError,
  csvLines,
  parquetRows,
  type RowLocator,
  unreadableInput,
} from './problems.ts';
import { formatCount, seconds } from './progress.ts';

/** One input file: its table, its path and name, how its rows are named, DuckDB's reader. */
export interface InputFile {
  table: TableName;
  path: string;
  file: string;
  locator: RowLocator;
  reader: string;
}

/** The staged copy of a table, in the attached staging database. */
export function stagedTable(table: TableName): string {
  return `staging.stg_${table}`;
}

/**
 * A kind of table file an input folder holds: `<table><suffix>.csv`, or `.parquet` when
 * `parquet`; `required` tables must have one.
 */
export interface InputKind {
  suffix: string;
  parquet: boolean;
  required: (table: TableName) => boolean;
}

/** What a folder of input may hold besides its table files, on purpose: nothing is read of it. */
function ignoredEntry(name: string): boolean {
  // Hidden files (.DS_Store, ._transactions.csv, an editor's swap file) and a README.
  return name.startsWith('.') || /^readme(\.[a-z0-9]+)?$/i.test(name);
}

/**
 * The input files of a folder, one map per kind of file: `<table><suffix>.csv` or `.parquet`.
 * Anything else in the folder (ignoredEntry aside) is refused, naming the nearest file name the
 * folder may hold, so a misspelled file is never silently left out; `misplaced` words the
 * refusal of files of another layout (a build's `.deleted.csv`). Throws BuildInputError.
 */
export async function findInputFiles(
  dir: string,
  kinds: readonly InputKind[],
  misplaced?: (name: string) => string | undefined,
): Promise<Map<TableName, InputFile>[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`source folder not found: ${dir}`);
  const names = new Set(await readdir(dir));
  const problems: string[] = [];
  const expected = new Set<string>();
  const found = kinds.map(() => new Map<TableName, InputFile>());
  for (const [index, kind] of kinds.entries()) {
    for (const table of TABLE_NAMES) {
      const csv = `${table}${kind.suffix}.csv`;
      const parquet = `${table}${kind.suffix}.parquet`;
      expected.add(csv);
      if (kind.parquet) expected.add(parquet);
      const hasParquet = kind.parquet && names.has(parquet);
      if (names.has(csv) && hasParquet) {
        problems.push(`${table}${kind.suffix}: both ${csv} and ${parquet} exist; keep one`);
        continue;
      }
      const file = names.has(csv) ? csv : hasParquet ? parquet : undefined;
      if (file === undefined) {
        if (kind.required(table)) problems.push(`${csv}: missing (required table ${table})`);
        continue;
      }
      const path = join(dir, file);
      const problem = await fileProblem(path);
      if (problem) {
        problems.push(`${file}: ${problem}`);
        continue;
      }
      const isCsv = file === csv;
      found[index]?.set(table, {
        table,
        path,
        file,
        locator: isCsv ? csvLines : parquetRows,
        reader: isCsv
          ? // skip = 0: the sniffer would otherwise skip leading rows it finds inconsistent.
            `read_csv(${sqlString(path)}, all_varchar = true, header = true, delim = ',', quote = '"', escape = '"', strict_mode = true, skip = 0, max_line_size = ${MAX_CSV_RECORD_BYTES + 4096})`
          : `read_parquet(${sqlString(path)})`,
      });
    }
  }
  const others = [...names].filter((name) => !expected.has(name) && !ignoredEntry(name)).sort();
  for (const name of others) {
    problems.push(`${name}: ${misplaced?.(name) ?? notATable(name, expected, kinds)}`);
  }
  if (problems.length > 0) throw new BuildInputError(problems);
  return found;
}

/** Why the file at `path` cannot be an input, or undefined when it can be read. */
async function fileProblem(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return 'is a folder, not a file';
    if (!info.isFile()) return 'is not a regular file';
    await access(path, constants.R_OK);
    if (info.size === 0) return 'empty file; expected a header row';
  } catch (error) {
    return `cannot read: ${(error as Error).message}`;
  }
  return undefined;
}

/** The refusal of a file the folder may not hold: the nearest name it may, when one is near. */
function notATable(name: string, expected: ReadonlySet<string>, kinds: readonly InputKind[]) {
  const reason = 'not a table of the data contract';
  let nearest: string | undefined;
  let best = Number.POSITIVE_INFINITY;
  for (const candidate of expected) {
    const distance = editDistance(name.toLowerCase(), candidate);
    if (distance < best) [nearest, best] = [candidate, distance];
  }
  if (nearest !== undefined && best <= Math.max(2, Math.floor(nearest.length / 3))) {
    return `${reason}; did you mean ${nearest}?`;
  }
  const layouts = kinds.flatMap((kind) =>
    kind.parquet
      ? [`<table>${kind.suffix}.csv`, `<table>${kind.suffix}.parquet`]
      : [`<table>${kind.suffix}.csv`],
  );
  return `${reason} (a folder holds ${layouts.join(', ')}; the tables are ${TABLE_NAMES.join(', ')})`;
}

/** Levenshtein distance: the fewest one-character insertions, removals and replacements. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let k = 1; k <= b.length; k++) {
      const replace = (previous[k - 1] as number) + (a[i - 1] === b[k - 1] ? 0 : 1);
      current.push(Math.min((previous[k] as number) + 1, (current[k - 1] as number) + 1, replace));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The input files of a build: `<table>.csv` or `<table>.parquet`, the required tables' present.
 * A change set's removals (`<table>.deleted.csv`) are refused: a build reads whole tables.
 */
export async function findInputs(sourceDir: string): Promise<Map<TableName, InputFile>> {
  const [inputs] = await findInputFiles(
    sourceDir,
    [{ suffix: '', parquet: true, required: (table) => TABLES[table].requiredInput }],
    (name) =>
      TABLE_NAMES.some((table) => name === `${table}.deleted.csv`)
        ? 'removals belong in a change set (build-db --changes); a build reads whole tables'
        : undefined,
  );
  return inputs as Map<TableName, InputFile>;
}

async function inputColumns(conn: DuckDBConnection, input: InputFile): Promise<string[]> {
  try {
    const result = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${input.reader}`);
    return result.getRowObjectsJson().map((row) => String(row.column_name));
  } catch (error) {
    throw await unreadableInput(input, error);
  }
}

/**
 * The positions in a header of names written before (DuckDB renames them, `amount` to
 * `amount_1`, comparing names trimmed and in any letter case).
 */
function repeatedNames(header: readonly string[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  for (const [index, name] of header.entries()) {
    const key = name.trim().toLowerCase();
    if (seen.has(key)) repeated.add(index);
    seen.add(key);
  }
  return repeated;
}

/**
 * What is wrong with an input's columns: `present` as DuckDB names them, `written` as the
 * file's header row holds them (CSV; one name per column of `present`).
 */
function headerProblems(
  input: InputFile,
  present: string[],
  written: readonly string[] | undefined,
  expected: readonly Column[] = TABLES[input.table].columns,
): string[] {
  const known = new Set(expected.map((column) => column.name));
  const where = input.locator === csvLines ? `${input.file}:1` : input.file;
  const repeated = written?.length === present.length ? repeatedNames(written) : new Set<number>();
  const problems = [
    ...new Set(
      [...repeated].map(
        (index) => `${where}: duplicate column '${written?.[index]?.trim()}' in the header`,
      ),
    ),
  ];
  problems.push(
    ...present
      .filter((name, index) => !repeated.has(index) && !known.has(name))
      .map((name) =>
        expected === TABLES[input.table].columns
          ? `${where}: unknown column '${name}' (${input.table} has: ${[...known].join(', ')})`
          : `${where}: unknown column '${name}' (a removal names the key: ${[...known].join(', ')})`,
      ),
  );
  for (const column of expected) {
    if (column.required && !present.includes(column.name)) {
      problems.push(`${where}: missing required column '${column.name}'`);
    }
  }
  return problems;
}

/**
 * Stages every input as the contract's columns (or only `columns` of each table), all VARCHAR,
 * NULL when absent or empty, as `table(name)`; a table without input is staged empty.
 */
export async function stage(
  conn: DuckDBConnection,
  inputs: Map<TableName, InputFile>,
  progress: (line: string) => void,
  options: {
    table?: (table: TableName) => string;
    columns?: (table: TableName) => readonly Column[];
  } = {},
): Promise<Record<TableName, number>> {
  const stagedName = options.table ?? stagedTable;
  const columnsOf = options.columns ?? ((table: TableName) => TABLES[table].columns);
  const columnsByTable = new Map<TableName, string[]>();
  const problems: string[] = [];
  for (const input of inputs.values()) {
    const present = await inputColumns(conn, input);
    const written = input.locator === csvLines ? (await scanCsv(input.path)).header : undefined;
    problems.push(...headerProblems(input, present, written, columnsOf(input.table)));
    columnsByTable.set(input.table, present);
  }
  if (problems.length > 0) throw new BuildInputError(problems);

  const counts = {} as Record<TableName, number>;
  for (const table of TABLE_NAMES) {
    const started = performance.now();
    const input = inputs.get(table);
    const present = new Set(columnsByTable.get(table) ?? []);
    const projection = columnsOf(table)
      .map((column) =>
        present.has(column.name)
          ? `nullif(CAST(${sqlIdentifier(column.name)} AS VARCHAR), '') AS ${column.name}`
          : `CAST(NULL AS VARCHAR) AS ${column.name}`,
      )
      .join(', ');
    const from = input ? input.reader : '(SELECT 1) WHERE false';
    try {
      await conn.run(`CREATE TABLE ${stagedName(table)} AS SELECT ${projection} FROM ${from}`);
    } catch (error) {
      if (input) throw await unreadableInput(input, error);
      throw error;
    }
    const count = await countRows(conn, stagedName(table));
    counts[table] = count;
    if (input) {
      progress(
        `${table}: ${formatCount(count)} rows read from ${input.file} (${seconds(started)})`,
      );
    } else if (options.table === undefined) progress(`${table}: no input file`);
  }
  return counts;
}

export async function countRows(conn: DuckDBConnection, table: string): Promise<number> {
  const result = await conn.runAndReadAll(`SELECT count(*) AS n FROM ${table}`);
  return Number(result.getRowObjectsJson()[0]?.n ?? 0);
}
