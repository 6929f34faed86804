/**
 * The input files of a build or a change set: found in a folder (one per table, CSV or
 * Parquet), then staged in the scratch database as the contract's columns, all VARCHAR, for
 * validation (validate.ts) to check and the writer to cast.
 */
import { access, constants, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { type Column, TABLE_NAMES, TABLES, type TableName } from '../contract/tables.ts';
import { sqlIdentifier, sqlString } from '../engines/sql/literals.ts';
import { MAX_CSV_RECORD_BYTES } from './csv-scan.ts';
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
 * The input files of a folder, one per table: `<table><suffix>.csv` or `.parquet` (the suffix
 * is `.deleted` for a change set's removals). `required`: the tables whose file must be there.
 */
export async function findInputs(
  sourceDir: string,
  options: { suffix?: string; required?: (table: TableName) => boolean; parquet?: boolean } = {},
): Promise<Map<TableName, InputFile>> {
  const info = await stat(sourceDir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`source folder not found: ${sourceDir}`);
  const suffix = options.suffix ?? '';
  const required = options.required ?? ((table: TableName) => TABLES[table].requiredInput);
  const names = new Set(await readdir(sourceDir));
  const problems: string[] = [];
  const inputs = new Map<TableName, InputFile>();
  for (const table of TABLE_NAMES) {
    const csv = `${table}${suffix}.csv`;
    const parquet = `${table}${suffix}.parquet`;
    const hasParquet = options.parquet !== false && names.has(parquet);
    if (names.has(csv) && hasParquet) {
      problems.push(`${table}${suffix}: both ${csv} and ${parquet} exist; keep one`);
      continue;
    }
    const file = names.has(csv) ? csv : hasParquet ? parquet : undefined;
    if (file === undefined) {
      if (required(table)) problems.push(`${csv}: missing (required table ${table})`);
      continue;
    }
    const path = join(sourceDir, file);
    try {
      await access(path, constants.R_OK);
    } catch (error) {
      problems.push(`${file}: cannot read: ${(error as Error).message}`);
      continue;
    }
    if ((await stat(path)).size === 0) {
      problems.push(`${file}: empty file; expected a header row`);
      continue;
    }
    const isCsv = file === csv;
    inputs.set(table, {
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
  if (problems.length > 0) throw new BuildInputError(problems);
  return inputs;
}

async function inputColumns(conn: DuckDBConnection, input: InputFile): Promise<string[]> {
  try {
    const result = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${input.reader}`);
    return result.getRowObjectsJson().map((row) => String(row.column_name));
  } catch (error) {
    throw await unreadableInput(input, error);
  }
}

function headerProblems(
  input: InputFile,
  present: string[],
  expected: readonly Column[] = TABLES[input.table].columns,
): string[] {
  const known = new Set(expected.map((column) => column.name));
  const where = input.locator === csvLines ? `${input.file}:1` : input.file;
  const problems = present
    .filter((name) => !known.has(name))
    .map((name) =>
      expected === TABLES[input.table].columns
        ? `${where}: unknown column '${name}' (${input.table} has: ${[...known].join(', ')})`
        : `${where}: unknown column '${name}' (a removal names the key: ${[...known].join(', ')})`,
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
    problems.push(...headerProblems(input, present, columnsOf(input.table)));
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
