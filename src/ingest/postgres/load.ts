/**
 * Loading a built store into the sharded cluster as a new lineage and generation, and
 * publishing it.
 *
 * build-db validates and derives exactly as for DuckDB (into a scratch DuckDB file); this
 * module copies that file's tables into a fresh data schema `d_<lineage>` on the coordinator
 * and the shards (each bucket's rows straight into its shard), indexes the shards and derives
 * the spending rollup there, analyzes both sides, creates the generation's views
 * (`g_<generation>`, schema.ts), then names them in `public.store_meta` in one transaction: a
 * reader sees the old generation or the new, never a mix. A failed load drops its schemas and
 * leaves the current generation serving; one that was killed is cleared by the next load. The
 * generation before the current one is kept, so requests already running on it finish; older
 * ones are dropped, and a lineage's data with the last of its generations.
 * Change sets add generations to a lineage (changes.ts).
 */

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { foldedColumn } from '../../contract/derived.ts';
import { STORE_FORMAT_VERSION, storeFormatProblem } from '../../contract/store-format.ts';
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
  dataSchemaName,
  generationViewsDdl,
  SHARDED_TABLES,
  type ShardedTable,
  schemaName,
  shardDdl,
  shardIndexDdl,
  shardOfBucket,
  type TextCollation,
  tableColumns,
  VERSIONED_TABLES,
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
export const KEPT_GENERATIONS = 2;

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

export async function connect(url: string | URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

export async function runAll(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
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

/** The published generation's place in its lineage (store_meta); null before the first load. */
export interface ClusterState {
  generation: string;
  schema: string;
  lineage: string | null;
  dataSchema: string | null;
  seq: number;
  logFloor: number;
  /** Why this code may not add to the current generation (another store format), or null. */
  formatProblem: string | null;
}

export async function clusterState(coordinator: pg.ClientBase): Promise<ClusterState | null> {
  const { rows } = await coordinator.query<{
    generation: string;
    schema_name: string;
    lineage: string | null;
    data_schema: string | null;
    seq: number | null;
    log_floor: number | null;
    format_version: number | null;
    platform_rules: string | null;
  }>(
    `SELECT generation, schema_name, lineage, data_schema, seq, log_floor, format_version,
       platform_rules FROM public.store_meta`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    generation: row.generation,
    schema: row.schema_name,
    lineage: row.lineage,
    dataSchema: row.data_schema,
    seq: row.seq ?? 0,
    logFloor: row.log_floor ?? 0,
    formatProblem: storeFormatProblem(row, PLATFORM_RULES_FINGERPRINT),
  };
}

/**
 * Runs one load: holding the cluster's load lock, with the coordinator's tables up to date, the
 * sync key in place, the shards known, and what a killed load left behind cleared first.
 */
export async function withClusterLoad<T>(
  databaseUrl: string,
  work: (
    coordinator: pg.Client,
    shards: ShardServer[],
    progress: (line: string) => void,
  ) => Promise<T>,
  onProgress?: (line: string) => void,
): Promise<T> {
  const progress = onProgress ?? (() => {});
  const coordinator = await connect(databaseUrl);
  try {
    await coordinator.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK_KEY]);
    await runAll(coordinator, COORDINATOR_META_DDL);
    await coordinator.query(
      'INSERT INTO public.sync_key (key) VALUES ($1) ON CONFLICT (singleton) DO NOTHING',
      [randomBytes(32).toString('base64url')],
    );
    const shards = await shardServers(coordinator);
    if (shards.length === 0) {
      throw new Error(
        'the coordinator knows no shard servers (postgres_fdw servers shard_1..shard_N): see README, "Scale-out"',
      );
    }
    await clearAbandonedLoads(coordinator, shards, progress);
    return await work(coordinator, shards, progress);
  } finally {
    await coordinator.end();
  }
}

/**
 * What a killed load left: schemas no generation names (a full load's), and the rows of a change
 * set written to the shards but never published (public.loading names it).
 */
async function clearAbandonedLoads(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const kept = new Set<string>();
  const { rows } = await coordinator.query<{ schema_name: string; data_schema: string | null }>(
    'SELECT schema_name, data_schema FROM public.generations',
  );
  for (const row of rows) {
    kept.add(row.schema_name);
    if (row.data_schema) kept.add(row.data_schema);
  }
  const orphans = async (client: pg.ClientBase) =>
    (
      await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname ~ '^[gd]_[0-9a-f]{16}$'`,
      )
    ).rows
      .map((row) => row.nspname)
      .filter((name) => !kept.has(name));
  for (const schema of await orphans(coordinator)) {
    progress(`dropping ${schema}, left by a load that did not finish`);
    await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await Promise.all(
    shards.map(async (shard) => {
      const client = await connect(shard.url);
      try {
        for (const schema of await orphans(client)) {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        }
      } finally {
        await client.end();
      }
    }),
  );
  const { rows: loading } = await coordinator.query<{ data_schema: string; seq: number }>(
    'SELECT data_schema, seq FROM public.loading',
  );
  const abandoned = loading[0];
  if (!abandoned) return;
  if (kept.has(abandoned.data_schema)) {
    progress(`clearing change set ${abandoned.seq}, written by a load that did not finish`);
    await Promise.all(
      shards.map(async (shard, index) => {
        const client = await connect(shard.url);
        try {
          await runAll(client, [
            'BEGIN',
            ...unpublishedRowsSql(abandoned.data_schema, index + 1, shards.length, abandoned.seq),
            'COMMIT',
          ]);
        } finally {
          await client.end();
        }
      }),
    );
  }
  await coordinator.query('DELETE FROM public.loading');
}

/** Removes the rows change set `seq` wrote on one shard, and reopens those it closed. */
export function unpublishedRowsSql(
  dataSchema: string,
  shard: number,
  shards: number,
  seq: number,
): string[] {
  const statements: string[] = [];
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    if (shardOfBucket(bucket, shards) !== shard) continue;
    for (const table of VERSIONED_TABLES) {
      const name = `${dataSchema}.${table}_p${bucket}`;
      statements.push(
        `DELETE FROM ${name} WHERE gen_from >= ${seq}`,
        `UPDATE ${name} SET gen_to = NULL WHERE gen_to >= ${seq}`,
      );
    }
    statements.push(`DELETE FROM ${dataSchema}.change_log_p${bucket} WHERE seq >= ${seq}`);
  }
  return statements;
}

/** Loads the built store as a new lineage and publishes it; returns the row counts. */
export async function loadGeneration(options: LoadOptions): Promise<Record<ShardedTable, number>> {
  return withClusterLoad(
    options.databaseUrl,
    async (coordinator, shards, progress) => {
      const dataSchema = dataSchemaName(options.generation);
      const schema = schemaName(options.generation);
      try {
        const counts = await loadSchema(coordinator, shards, dataSchema, options, progress);
        await runAll(coordinator, generationViewsDdl(schema, dataSchema, 0));
        await publish(coordinator, {
          generation: options.generation,
          schema,
          lineage: options.generation,
          dataSchema,
          seq: 0,
          logFloor: 0,
          source: options.source,
          shards: shards.length,
          tokens: options.tokens ?? [],
          revokedTokens: [],
        });
        progress(`published generation ${options.generation} (schema ${schema})`);
        await dropOldGenerations(coordinator, shards, progress);
        return counts;
      } catch (error) {
        await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        await dropSchemaEverywhere(coordinator, shards, dataSchema).catch(() => {});
        throw error;
      }
    },
    options.onProgress,
  );
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
      VERSIONED_TABLES.map((table) => `ANALYZE ${schema}.${table}`),
    );
    return counts;
  } finally {
    await Promise.all(shardClients.map((client) => client.end()));
  }
}

/** pg_c_utf8 when every server has it (PostgreSQL 17+), else "C" (see schema.ts). */
export async function textCollation(clients: readonly pg.ClientBase[]): Promise<TextCollation> {
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

/** What a publish names: the generation, its place in the lineage, and the token changes. */
export interface Publication {
  generation: string;
  schema: string;
  lineage: string;
  dataSchema: string;
  seq: number;
  logFloor: number;
  source: string;
  shards: number;
  tokens: readonly StoredToken[];
  /** Token hashes a change set removes: revoked. */
  revokedTokens: readonly string[];
  /** For a change set: its row in public.change_sets, and the load marker cleared. */
  changeSet?: boolean;
}

/** Names the new generation current, in one coordinator transaction. */
export async function publish(coordinator: pg.Client, publication: Publication): Promise<void> {
  await coordinator.query('BEGIN');
  try {
    await coordinator.query(
      `INSERT INTO public.store_meta (generation, schema_name, built_at, source, platform_rules,
         shards, lineage, data_schema, seq, log_floor, format_version)
       VALUES ($1, $2, now() AT TIME ZONE 'UTC', $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (singleton) DO UPDATE SET generation = excluded.generation,
         schema_name = excluded.schema_name, built_at = excluded.built_at,
         source = excluded.source, platform_rules = excluded.platform_rules,
         shards = excluded.shards, lineage = excluded.lineage,
         data_schema = excluded.data_schema, seq = excluded.seq, log_floor = excluded.log_floor,
         format_version = excluded.format_version`,
      [
        publication.generation,
        publication.schema,
        publication.source,
        PLATFORM_RULES_FINGERPRINT,
        publication.shards,
        publication.lineage,
        publication.dataSchema,
        publication.seq,
        publication.logFloor,
        STORE_FORMAT_VERSION,
      ],
    );
    await coordinator.query(
      'INSERT INTO public.generations (schema_name, data_schema) VALUES ($1, $2)',
      [publication.schema, publication.dataSchema],
    );
    if (publication.changeSet) {
      await coordinator.query(
        `INSERT INTO public.change_sets (data_schema, seq, generation, applied_at, source)
         VALUES ($1, $2, $3, now() AT TIME ZONE 'UTC', $4)`,
        [publication.dataSchema, publication.seq, publication.generation, publication.source],
      );
      await coordinator.query('DELETE FROM public.loading');
    }
    // New hashes are added; a known one keeps its row, except that a revocation is applied.
    for (const token of publication.tokens) {
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
    if (publication.revokedTokens.length > 0) {
      await coordinator.query(
        `UPDATE public.access_tokens SET revoked_at = now() AT TIME ZONE 'UTC'
         WHERE revoked_at IS NULL AND token_hash = ANY($1::text[])`,
        [publication.revokedTokens],
      );
    }
    await coordinator.query('COMMIT');
  } catch (error) {
    await coordinator.query('ROLLBACK');
    throw error;
  }
}

/**
 * Drops the generations older than the kept ones (their views), then the data schemas no kept
 * generation reads (a former lineage's), everywhere.
 */
export async function dropOldGenerations(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const { rows } = await coordinator.query<{ schema_name: string; data_schema: string | null }>(
    `SELECT schema_name, data_schema FROM public.generations
     ORDER BY published_at DESC, schema_name OFFSET $1`,
    [KEPT_GENERATIONS],
  );
  for (const { schema_name: schema, data_schema: dataSchema } of rows) {
    progress(`dropping generation schema ${schema}`);
    // A generation loaded before lineages held its rows in its own schema, on every server.
    if (dataSchema === null) await dropSchemaEverywhere(coordinator, shards, schema);
    else await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await coordinator.query('DELETE FROM public.generations WHERE schema_name = $1', [schema]);
  }
  const { rows: unused } = await coordinator.query<{ data_schema: string }>(
    `SELECT DISTINCT data_schema FROM public.change_sets
     WHERE data_schema NOT IN (SELECT data_schema FROM public.generations WHERE data_schema IS NOT NULL)
     UNION
     SELECT nspname FROM pg_namespace WHERE nspname ~ '^d_[0-9a-f]{16}$'
       AND nspname NOT IN (SELECT data_schema FROM public.generations WHERE data_schema IS NOT NULL)`,
  );
  for (const { data_schema: dataSchema } of unused) {
    progress(`dropping lineage schema ${dataSchema}`);
    await dropSchemaEverywhere(coordinator, shards, dataSchema);
    await coordinator.query('DELETE FROM public.change_sets WHERE data_schema = $1', [dataSchema]);
  }
}
