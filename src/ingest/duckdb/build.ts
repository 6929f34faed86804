/**
 * Builds the analytical store from a folder of CSV / Parquet files (one per table) and
 * publishes it atomically. Input is staged as VARCHAR in a scratch database, validated in
 * SQL (see ingest/validate.ts), then cast and inserted in the physical order the queries
 * rely on. Nothing is replaced unless every check passes. The cluster is loaded from a store
 * built here in a scratch folder (ingest/postgres/build.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { newGeneration, STORE_FORMAT_VERSION } from '../../contract/store-format.ts';
import {
  STORE_META_TABLE,
  TABLE_NAMES,
  TABLE_ORDER,
  TABLES,
  type TableName,
} from '../../contract/tables.ts';
import { type DatabaseFile, openDatabaseFile } from '../../files/database-file.ts';
import {
  publishDatabaseFile,
  removeDatabaseFiles,
  tempPathNextTo,
  withWriteLock,
} from '../../files/publish.ts';
import { sqlString } from '../../sql/literals.ts';
import { PLATFORM_RULES_FINGERPRINT } from '../../sql/platform.ts';
import { tokensPathFor } from '../../tokens/path.ts';
import { adoptLegacyTokenStore, publishWithTokens } from '../../tokens/token-file.ts';
import { castExpression } from '../cast.ts';
import { DERIVED_TRANSACTION_COLUMNS, SPENDING_ROLLUP_SQL } from '../derive.ts';
import { schemaDdl } from '../duckdb-ddl.ts';
import { findInputs, type InputFile, stage, stagedTable } from '../inputs.ts';
import { BuildInputError, csvLines, MAX_REPORTED_PROBLEMS, reportedProblems } from '../problems.ts';
import { formatCount, seconds } from '../progress.ts';
import { validationSql } from '../validate.ts';
import { removeInterruptedBuilds } from './interrupted-builds.ts';
import { writeLedgers } from './ledgers.ts';

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

/**
 * The key sync cursors are signed with: the published store's, so that cursors handed out
 * before a rebuild are still recognised (and answered 410, not 422); a new one otherwise.
 */
async function cursorKeyOf(target: string): Promise<string> {
  let store: DatabaseFile | undefined;
  try {
    store = await openDatabaseFile(target, 'store', { readOnly: true });
    const [row] = (
      await store.conn.runAndReadAll(`SELECT cursor_key FROM ${STORE_META_TABLE} LIMIT 1`)
    ).getRowObjectsJson();
    if (typeof row?.cursor_key === 'string' && row.cursor_key) return row.cursor_key;
  } catch {
    // No store yet, or one built before cursors: a new key.
  } finally {
    store?.close();
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
  let build: DatabaseFile | undefined;
  const closeDatabase = () => {
    build?.close();
    build = undefined;
  };
  try {
    build = await openDatabaseFile(buildPath, 'build');
    const conn = build.conn;
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
    await writeLedgers(conn, 'build', null, progress);
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
      await conn.run('CHECKPOINT build');
      closeDatabase();
      const publish = () => publishDatabaseFile(buildPath, target);
      if (inputs.has('access_tokens')) {
        // The input's tokens join the token store, published with the store (token-file.ts).
        const { added } = await publishWithTokens(tokensPath, { importFrom: buildPath }, publish);
        progress(`access_tokens: ${formatCount(added)} new in ${tokensPath}`);
      } else await publish();
      progress(`checkpointed and published ${basename(target)} (${seconds(checkpointStarted)})`);
    });
    progress(`built ${target}, generation ${generation}, in ${seconds(started)}`);
    return { generation, counts };
  } finally {
    closeDatabase();
    await removeDatabaseFiles(stagingPath);
    await removeDatabaseFiles(buildPath);
  }
}
