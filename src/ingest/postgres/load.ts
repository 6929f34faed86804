/**
 * Loading a built store into the sharded cluster as a new generation, and publishing it.
 *
 * build-db validates and derives exactly as for DuckDB (into a scratch DuckDB file); this
 * module copies that file's tables into a fresh schema on the coordinator and the shards (each
 * bucket's rows straight into its shard), indexes the shards and derives the spending rollup
 * there, analyzes both sides, then names the new schema in `public.store_meta` in one
 * transaction: a reader sees the old generation or the new, never a mix. A failed load drops
 * its schema and leaves the current generation serving. The generation before the current one
 * is kept, so requests already running on it finish; older ones are dropped.
 */

import { createReadStream } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  foldedColumn,
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { STORE_FORMAT_VERSION } from '../../contract/store-format.ts';
import { TABLES } from '../../contract/tables.ts';
import { COORDINATOR_META_DDL } from '../../engines/postgres/meta.ts';
import {
  coordinatorProbeDdl,
  SHARD_PROBE_DDL,
  type ShardServer,
  shardServers,
} from '../../engines/postgres/topology.ts';
import { PLATFORM_RULES_FINGERPRINT, toPlatformSql } from '../../engines/sql/platform.ts';
import type { StoredToken } from '../../tokens/store.ts';
import {
  BUCKETS,
  bucketTable,
  coordinatorDdl,
  SHARDED_TABLES,
  type ShardedTable,
  schemaName,
  shardDdl,
  shardIndexDdl,
  shardOfBucket,
  type TextCollation,
  tableColumns,
} from './schema.ts';

export interface LoadOptions {
  /** A store built by build-db (validated, with derived columns). */
  duckdbPath: string;
  databaseUrl: string;
  generation: string;
  /** Where the store came from (store_meta.source). */
  source: string;
  /** A scratch folder for the per-table files. */
  scratchDir: string;
  /** Tokens to add to the coordinator's token table (existing tokens are kept). */
  tokens?: readonly StoredToken[];
  onProgress?: (line: string) => void;
}

/** Generations kept: the current one and the one before (requests still running on it). */
const KEPT_GENERATIONS = 2;

/** One loader at a time per cluster. */
const LOAD_LOCK_KEY = 727_001;

/** What each sharded table's rows are read as from the built DuckDB store, column by column. */
function exportSql(table: ShardedTable): string {
  // The contract's columns, then the extras in tableColumns' order.
  const contract = (alias: string) =>
    TABLES[table].columns.map((column) => `${alias}.${column.name}`).join(', ');
  switch (table) {
    case 'balances':
    case 'liabilities':
      return `SELECT ${contract('x')}, a.user_id
              FROM ${table} x JOIN accounts a ON a.id = x.account_id`;
    case 'transactions':
      // The account's facts only when the account is the transaction's user's (as build-db).
      return `SELECT ${contract('t')},
                CASE WHEN a.user_id = t.user_id THEN a.type END AS account_type,
                CASE WHEN a.user_id = t.user_id THEN a.link_id END AS account_link_id,
                ${toPlatformSql('t')} AS to_platform,
                lower(t.description) AS ${foldedColumn('description')},
                lower(t.merchant_name) AS ${foldedColumn('merchant_name')}
              FROM transactions t LEFT JOIN accounts a ON a.id = t.account_id`;
    default:
      return `SELECT ${contract('x')} FROM ${table} x`;
  }
}

async function connect(url: string | URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

async function runAll(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await client.query(statement);
}

async function dropSchemaEverywhere(
  coordinator: pg.ClientBase,
  shards: readonly ShardServer[],
  schema: string,
): Promise<void> {
  await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await Promise.all(
    shards.map(async (shard) => {
      const client = await connect(shard.url);
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    }),
  );
}

/** Loads the built store as a new generation and publishes it; returns the row counts. */
export async function loadGeneration(options: LoadOptions): Promise<Record<ShardedTable, number>> {
  const progress = options.onProgress ?? (() => {});
  const coordinator = await connect(options.databaseUrl);
  const schema = schemaName(options.generation);
  let shards: ShardServer[] = [];
  try {
    await coordinator.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK_KEY]);
    await runAll(coordinator, COORDINATOR_META_DDL);
    shards = await shardServers(coordinator);
    if (shards.length === 0) {
      throw new Error(
        'the coordinator knows no shard servers (postgres_fdw servers shard_1..shard_N): see README, "Scale-out"',
      );
    }
    await dropStaleSchemas(coordinator, shards, progress);
    try {
      const counts = await loadSchema(coordinator, shards, schema, options, progress);
      await publish(coordinator, options, schema, shards.length);
      progress(`published generation ${options.generation} (schema ${schema})`);
      await dropOldGenerations(coordinator, shards, progress);
      return counts;
    } catch (error) {
      await dropSchemaEverywhere(coordinator, shards, schema).catch(() => {});
      throw error;
    }
  } finally {
    await coordinator.end();
  }
}

async function loadSchema(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  schema: string,
  options: LoadOptions,
  progress: (line: string) => void,
): Promise<Record<ShardedTable, number>> {
  const shardClients = await Promise.all(shards.map((shard) => connect(shard.url)));
  try {
    const collation = await textCollation([coordinator, ...shardClients]);
    await Promise.all(
      shardClients.map((client, index) =>
        runAll(client, [SHARD_PROBE_DDL, ...shardDdl(schema, index + 1, shards.length, collation)]),
      ),
    );
    await runAll(coordinator, [
      ...shards.map((_, index) => coordinatorProbeDdl(index + 1)),
      ...coordinatorDdl(schema, shards.length, collation),
    ]);
    const counts = await copyRows(coordinator, shardClients, schema, options, progress);
    progress('indexing, summing per day and analyzing on the shards');
    await Promise.all(
      shardClients.map((client, index) =>
        runAll(client, shardIndexDdl(schema, index + 1, shards.length)),
      ),
    );
    // Statistics on the coordinator too (a sample of each bucket, read from its shard): with
    // the default guesses the planner may sum a user's rows on the coordinator instead.
    progress('analyzing on the coordinator');
    await runAll(
      coordinator,
      [
        ...SHARDED_TABLES,
        SPENDING_DAILY_TABLE,
        SPENDING_MONTHLY_TABLE,
        SPENDING_MONTHLY_USERS_TABLE,
      ].map((table) => `ANALYZE ${schema}.${table}`),
    );
    return counts;
  } finally {
    await Promise.all(shardClients.map((client) => client.end()));
  }
}

/** pg_c_utf8 when every server has it (PostgreSQL 17+), else "C" (see schema.ts). */
async function textCollation(clients: readonly pg.ClientBase[]): Promise<TextCollation> {
  const found = await Promise.all(
    clients.map((client) =>
      client
        .query(`SELECT 1 FROM pg_collation WHERE collname = 'pg_c_utf8'`)
        .then(({ rowCount }) => rowCount === 1),
    ),
  );
  return found.every(Boolean) ? 'pg_c_utf8' : 'C';
}

const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;

/**
 * Copies every table's rows to the buckets they belong in. The users go through the
 * coordinator, which routes each by the hash of its id; where it put each user then tells
 * which bucket every other row of that user belongs in, so those rows (nearly all of them) are
 * split per bucket by DuckDB and copied straight into each shard's bucket tables, in parallel
 * across shards, never through the coordinator.
 */
async function copyRows(
  coordinator: pg.Client,
  shardClients: readonly pg.Client[],
  schema: string,
  options: LoadOptions,
  progress: (line: string) => void,
): Promise<Record<ShardedTable, number>> {
  const counts = {} as Record<ShardedTable, number>;
  const copyFile = async (client: pg.Client, target: string, columns: string[], file: string) => {
    const copy = client.query(
      copyFrom(`COPY ${target} (${columns.join(', ')}) FROM STDIN (FORMAT csv)`),
    );
    await pipeline(createReadStream(file), copy);
    return Number(copy.rowCount ?? 0);
  };
  const instance = await DuckDBInstance.create(':memory:');
  const duckdb = await instance.connect();
  try {
    await duckdb.run(`ATTACH ${quote(options.duckdbPath)} AS store (READ_ONLY)`);
    await duckdb.run('USE store');
    let started = performance.now();
    const usersFile = join(options.scratchDir, 'users.csv');
    await duckdb.run(
      `COPY (${exportSql('users')}) TO ${quote(usersFile)} (FORMAT csv, HEADER false)`,
    );
    const userColumns = tableColumns('users').map((column) => column.name);
    counts.users = await copyFile(coordinator, `${schema}.users`, userColumns, usersFile);
    progress(`users: ${counts.users.toLocaleString('en-US')} rows loaded in ${seconds(started)}`);

    const placement = await coordinator.query<{ id: string; part: string }>(
      `SELECT id, tableoid::regclass::text AS part FROM ${schema}.users`,
    );
    const bucketsFile = join(options.scratchDir, 'user-buckets.csv');
    await writeFile(
      bucketsFile,
      placement.rows
        .map((row) => `"${row.id.replaceAll('"', '""')}",${/_p(\d+)$/.exec(row.part)?.[1]}`)
        .join('\n'),
    );
    await duckdb.run(
      `CREATE TABLE memory.main.user_bucket AS SELECT * FROM read_csv(${quote(bucketsFile)},
         header = false, columns = {'user_id': 'VARCHAR', 'bucket': 'INTEGER'})`,
    );

    for (const table of SHARDED_TABLES) {
      if (table === 'users') continue;
      started = performance.now();
      const dir = join(options.scratchDir, table);
      await duckdb.run(
        `COPY (SELECT x.*, b.bucket FROM (${exportSql(table)}) x
               JOIN memory.main.user_bucket b ON b.user_id = x.user_id)
         TO ${quote(dir)} (FORMAT csv, HEADER false, PARTITION_BY (bucket), OVERWRITE_OR_IGNORE)`,
      );
      const columns = tableColumns(table).map((column) => column.name);
      const perShard = await Promise.all(
        shardClients.map(async (client, index) => {
          let rows = 0;
          for (let bucket = 0; bucket < BUCKETS; bucket++) {
            if (shardOfBucket(bucket, shardClients.length) !== index + 1) continue;
            const folder = join(dir, `bucket=${bucket}`);
            const files = await readdir(folder).catch(() => []);
            for (const file of files) {
              rows += await copyFile(
                client,
                `${schema}.${bucketTable(table, bucket)}`,
                columns,
                join(folder, file),
              );
            }
          }
          return rows;
        }),
      );
      counts[table] = perShard.reduce((sum, rows) => sum + rows, 0);
      await rm(dir, { recursive: true, force: true });
      progress(
        `${table}: ${counts[table].toLocaleString('en-US')} rows loaded in ${seconds(started)}`,
      );
    }
  } finally {
    duckdb.closeSync();
    instance.closeSync();
  }
  return counts;
}

async function publish(
  coordinator: pg.Client,
  options: LoadOptions,
  schema: string,
  shards: number,
): Promise<void> {
  await coordinator.query('BEGIN');
  try {
    await coordinator.query(
      `INSERT INTO public.store_meta (generation, schema_name, built_at, source, platform_rules,
         shards, format_version)
       VALUES ($1, $2, now() AT TIME ZONE 'UTC', $3, $4, $5, $6)
       ON CONFLICT (singleton) DO UPDATE SET generation = excluded.generation,
         schema_name = excluded.schema_name, built_at = excluded.built_at,
         source = excluded.source, platform_rules = excluded.platform_rules,
         shards = excluded.shards, format_version = excluded.format_version`,
      [
        options.generation,
        schema,
        options.source,
        PLATFORM_RULES_FINGERPRINT,
        shards,
        STORE_FORMAT_VERSION,
      ],
    );
    await coordinator.query('INSERT INTO public.generations (schema_name) VALUES ($1)', [schema]);
    // New hashes are added; a known one keeps its row, except that a revocation is applied.
    for (const token of options.tokens ?? []) {
      await coordinator.query(
        `INSERT INTO public.access_tokens (token_hash, user_id, name, created_at, expires_at, revoked_at)
         VALUES ($1, $2, $3, to_timestamp($4 / 1000.0) AT TIME ZONE 'UTC',
                 to_timestamp($5 / 1000.0) AT TIME ZONE 'UTC', to_timestamp($6 / 1000.0) AT TIME ZONE 'UTC')
         ON CONFLICT (token_hash) DO UPDATE SET revoked_at = excluded.revoked_at
           WHERE access_tokens.revoked_at IS NULL AND excluded.revoked_at IS NOT NULL`,
        [
          token.tokenHash,
          token.userId,
          token.name,
          token.createdAtMs,
          token.expiresAtMs,
          token.revokedAtMs,
        ],
      );
    }
    await coordinator.query('COMMIT');
  } catch (error) {
    await coordinator.query('ROLLBACK');
    throw error;
  }
}

/** A generation's schema, as schemaName spells it (`g_` and 16 hex characters). */
const GENERATION_SCHEMA = /^g_[0-9a-f]{16}$/;

/**
 * Drops what a killed load left behind: a generation schema on the coordinator or a shard
 * that was never published (not in public.generations) and is not the current one. Runs
 * under the load lock, so no other load is writing such a schema; published generations, the
 * current one and anything not named like a generation schema are never touched.
 */
async function dropStaleSchemas(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const { rows: kept } = await coordinator.query<{ schema_name: string }>(
    `SELECT schema_name FROM public.generations
     UNION SELECT schema_name FROM public.store_meta`,
  );
  const keep = new Set(kept.map((row) => row.schema_name));
  const stale = async (client: pg.ClientBase) => {
    const { rows } = await client.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'g\\_%'`,
    );
    return rows
      .map((row) => row.nspname)
      .filter((name) => GENERATION_SCHEMA.test(name) && !keep.has(name));
  };
  for (const schema of await stale(coordinator)) {
    progress(`dropping schema ${schema} left by an interrupted load (coordinator)`);
    await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await Promise.all(
    shards.map(async (shard) => {
      const client = await connect(shard.url);
      try {
        for (const schema of await stale(client)) {
          progress(`dropping schema ${schema} left by an interrupted load (${shard.name})`);
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        }
      } finally {
        await client.end();
      }
    }),
  );
}

async function dropOldGenerations(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const { rows } = await coordinator.query<{ schema_name: string }>(
    `SELECT schema_name FROM public.generations ORDER BY published_at DESC, schema_name OFFSET $1`,
    [KEPT_GENERATIONS],
  );
  for (const { schema_name: schema } of rows) {
    progress(`dropping generation schema ${schema}`);
    await dropSchemaEverywhere(coordinator, shards, schema);
    await coordinator.query('DELETE FROM public.generations WHERE schema_name = $1', [schema]);
  }
}
