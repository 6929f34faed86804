/**
 * Builds the analytical store from a folder of CSV / Parquet files (one per table) and
 * publishes it atomically. Input is staged as VARCHAR in a scratch database, validated in
 * SQL (see validate.ts), then cast and inserted in the physical order the queries
 * rely on. Nothing is replaced unless every check passes.
 */
import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { newGeneration, STORE_FORMAT_VERSION } from '../contract/store-format.ts';
import {
  type Column,
  STORE_META_TABLE,
  TABLE_NAMES,
  TABLE_ORDER,
  TABLES,
  type TableName,
} from '../contract/tables.ts';
import { sqlIdentifier, sqlString } from '../engines/sql/literals.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../engines/sql/platform.ts';
import {
  publishDatabaseFile,
  removeDatabaseFiles,
  removeStaleTemps,
  tempPathNextTo,
  withWriteLock,
} from '../files/publish.ts';
import { tokensPathFor } from '../tokens/path.ts';
import { adoptLegacyTokenStore, importTokens } from '../tokens/token-file.ts';
import { DERIVED_TRANSACTION_COLUMNS, SPENDING_ROLLUP_SQL } from './derive.ts';
import { schemaDdl } from './duckdb-ddl.ts';
import {
  csvLines,
  MAX_CSV_RECORD_BYTES,
  parquetRows,
  type RowLocator,
  scanCsv,
  stagedTable,
  validationSql,
} from './validate.ts';

export interface BuildOptions {
  sourceDir: string;
  databasePath: string;
  /** One human-readable line per step (the CLI prints them on stderr). */
  onProgress?: (line: string) => void;
  /**
   * The token store the source's access_tokens are merged into (tokens live apart from the
   * analytics store and survive its rebuilds). Default: beside the store.
   */
  tokensPath?: string;
  /**
   * Build even when a required table (users, links, accounts, transactions) has no rows.
   * Default false: a header-only file is far more often a failed export than an intent, and
   * would silently replace the store with one that serves nothing.
   */
  allowEmpty?: boolean;
}

export interface BuildResult {
  generation: string;
  counts: Record<TableName, number>;
}

/** Bad input: each problem reads `<file>:<line>: <reason>` (or `<file>: <reason>`). */
export class BuildInputError extends Error {
  override readonly name = 'BuildInputError';
  constructor(readonly problems: string[]) {
    super(`the input has problems; nothing was replaced:\n${problems.join('\n')}`);
  }
}

/** Reported problems per build; the first few are what a person can act on. */
export const MAX_REPORTED_PROBLEMS = 20;

export interface InputFile {
  table: TableName;
  path: string;
  file: string;
  locator: RowLocator;
  reader: string;
}

export const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
export const formatCount = (count: number) => count.toLocaleString('en-US');

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

/**
 * Why DuckDB could not read an input, in this tool's words: for a CSV file, the structural
 * problems a scan of it finds (`file:line: reason`: not UTF-8, a field too many or too few,
 * an unclosed quote); otherwise, or when the scan finds none, the first line of DuckDB's
 * message without its error class.
 */
async function unreadableInput(input: InputFile, error: unknown): Promise<BuildInputError> {
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

/** A required table without rows, unless allowed: `<file>: no rows ...`. */
function emptyTableProblems(
  inputs: Map<TableName, InputFile>,
  counts: Record<TableName, number>,
): string[] {
  return TABLE_NAMES.filter((table) => TABLES[table].requiredInput && counts[table] === 0).map(
    (table) => {
      const input = inputs.get(table);
      const file = input?.file ?? `${table}.csv`;
      const what = input?.locator === csvLines ? 'no rows (only a header)' : 'no rows';
      return `${file}: ${what}; the store would have no ${table}. Pass --allow-empty to build it anyway`;
    },
  );
}

async function validate(
  conn: DuckDBConnection,
  inputs: Map<TableName, InputFile>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const table of TABLE_NAMES) {
    const input = inputs.get(table);
    if (!input || problems.length >= MAX_REPORTED_PROBLEMS) continue;
    const sql = validationSql(table, MAX_REPORTED_PROBLEMS - problems.length);
    problems.push(...(await reportedProblems(conn, input, sql)));
  }
  return problems;
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

export function castExpression(column: Column): string {
  const value = column.name;
  switch (column.type.kind) {
    case 'date':
      return `CAST(${value} AS DATE)`;
    case 'timestamp':
      // The session runs in UTC, so an offset in the input is converted to UTC here.
      return `CAST(CAST(${value} AS TIMESTAMPTZ) AS TIMESTAMP)`;
    case 'money':
      return `CAST(${value} AS DECIMAL(18,2))`;
    case 'percent':
      return `CAST(${value} AS DECIMAL(9,4))`;
    case 'bool':
      return `coalesce(lower(${value}) = 'true', ${column.default ?? 'false'})`;
    case 'enum':
      return `CAST(${value} AS ${column.type.type})`;
    default:
      return column.default === undefined ? value : `coalesce(${value}, ${column.default})`;
  }
}

async function writeTables(
  conn: DuckDBConnection,
  counts: Record<TableName, number>,
  progress: (line: string) => void,
): Promise<void> {
  for (const table of TABLE_NAMES) {
    if (counts[table] === 0) continue;
    const started = performance.now();
    const columns = TABLES[table].columns
      .map((column) => `${castExpression(column)} AS ${column.name}`)
      .join(', ');
    const cast = `SELECT ${columns} FROM ${stagedTable(table)}`;
    if (table === 'transactions') {
      // Accounts are written first (TABLE_NAMES order); their facts are copied per transaction.
      const derived = DERIVED_TRANSACTION_COLUMNS.map(
        (column) => `${column.expression} AS ${column.name}`,
      ).join(', ');
      await conn.run(
        `INSERT INTO main.transactions SELECT t.*, ${derived} FROM (${cast}) t LEFT JOIN main.accounts a ON a.id = t.account_id ORDER BY ${TABLE_ORDER.transactions
          .split(', ')
          .map((name) => `t.${name}`)
          .join(', ')}`,
      );
    } else {
      await conn.run(`INSERT INTO main.${table} ${cast} ORDER BY ${TABLE_ORDER[table]}`);
    }
    progress(`${table}: ${formatCount(counts[table])} rows written (${seconds(started)})`);
  }
}

/** Removes what a killed build or apply left beside `target`, saying so when there was any. */
export async function removeInterruptedBuilds(
  target: string,
  progress: (line: string) => void,
): Promise<void> {
  const stale = await removeStaleTemps(target);
  if (stale.paths.length > 0) {
    progress(
      `removed ${stale.paths.length} file(s) left by an interrupted build (${(stale.bytes / 1048576).toFixed(1)} MiB)`,
    );
  }
}

/**
 * The key sync cursors are signed with: the published store's, so that cursors handed out
 * before a rebuild are still recognised (and answered 410, not 422); a new one otherwise.
 */
async function cursorKeyOf(target: string): Promise<string> {
  let instance: DuckDBInstance | undefined;
  try {
    instance = await DuckDBInstance.create(target, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      const [row] = (
        await conn.runAndReadAll(`SELECT cursor_key FROM ${STORE_META_TABLE} LIMIT 1`)
      ).getRowObjectsJson();
      if (typeof row?.cursor_key === 'string' && row.cursor_key) return row.cursor_key;
    } finally {
      conn.closeSync();
    }
  } catch {
    // No store yet, or one built before cursors: a new key.
  } finally {
    instance?.closeSync();
  }
  return randomBytes(32).toString('base64url');
}

export async function buildStore(options: BuildOptions): Promise<BuildResult> {
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const sourceDir = resolve(options.sourceDir);
  const target = resolve(options.databasePath);
  const inputs = await findInputs(sourceDir);
  await mkdir(dirname(target), { recursive: true });
  await removeInterruptedBuilds(target, progress);

  const buildPath = tempPathNextTo(target, 'build');
  const stagingPath = tempPathNextTo(target, 'staging');
  const generation = newGeneration();
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  const closeDatabase = () => {
    connection?.closeSync();
    instance?.closeSync();
    connection = undefined;
    instance = undefined;
  };
  try {
    instance = await DuckDBInstance.create(buildPath);
    const conn = await instance.connect();
    connection = conn;
    await conn.run(`SET TimeZone = 'UTC'`);
    await conn.run(`ATTACH ${sqlString(stagingPath)} AS staging`);
    const counts = await stage(conn, inputs, progress);
    if (!options.allowEmpty) {
      const empty = emptyTableProblems(inputs, counts);
      if (empty.length > 0) throw new BuildInputError(empty);
    }

    const validationStarted = performance.now();
    const problems = await validate(conn, inputs);
    if (problems.length > 0) throw new BuildInputError(problems);
    progress(`validated ${inputs.size} input files (${seconds(validationStarted)})`);

    for (const statement of schemaDdl({ transactions: DERIVED_TRANSACTION_COLUMNS })) {
      await conn.run(statement);
    }
    await writeTables(conn, counts, progress);
    const rollupStarted = performance.now();
    for (const statement of SPENDING_ROLLUP_SQL) await conn.run(statement);
    progress(`spending rollups: derived (${seconds(rollupStarted)})`);
    // A new lineage of change sets starts here; sync cursors stay signed with the same key.
    await conn.run(
      `INSERT INTO ${STORE_META_TABLE} VALUES ($1, CAST(now() AS TIMESTAMP), $2, $3, $4, $1, 0, 0, $5)`,
      [
        generation,
        sourceDir,
        PLATFORM_RULES_FINGERPRINT,
        STORE_FORMAT_VERSION,
        await cursorKeyOf(target),
      ],
    );
    await conn.run('DETACH staging');
    await removeDatabaseFiles(stagingPath);

    const tokensPath = options.tokensPath ?? tokensPathFor(target);
    // A store built before tokens had their own store keeps them inside: save them first.
    const adopted = await adoptLegacyTokenStore(tokensPath, target);
    if (adopted > 0)
      progress(`access_tokens: ${formatCount(adopted)} moved from ${target} to ${tokensPath}`);
    await withWriteLock(target, async () => {
      const checkpointStarted = performance.now();
      await conn.run('CHECKPOINT');
      closeDatabase();
      await publishDatabaseFile(buildPath, target);
      progress(`checkpointed and published ${basename(target)} (${seconds(checkpointStarted)})`);
    });
    if (inputs.has('access_tokens')) {
      const added = await importTokens(tokensPath, target, 'access_tokens');
      progress(`access_tokens: ${formatCount(added)} new in ${tokensPath}`);
    }
    progress(`built ${target}, generation ${generation}, in ${seconds(started)}`);
    return { generation, counts };
  } finally {
    closeDatabase();
    await removeDatabaseFiles(stagingPath);
    await removeDatabaseFiles(buildPath);
  }
}
