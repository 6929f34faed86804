/**
 * Applying a change set (ingest/changes.ts) to the cluster as a new generation of the current
 * lineage (schema.ts). Under the load lock, the change set is checked and derived in a scratch
 * DuckDB database against the rows the published generation holds (read through the
 * coordinator, by key: a few statements per table whatever the store's size). Then, on each
 * shard in one transaction per shard, for each bucket: the replaced and removed rows are closed
 * (`gen_to`), the new ones written (`gen_from`), the rollup groups of the changed (user, day)
 * and (user, month) pairs derived again, the change log's entries added, and versions no kept
 * generation sees any more purged; then the touched users' ledgers are packed again (ledgers.ts). None of it is visible to the published generations, whose
 * views read the rows of their own change set number. Then the new generation's views are
 * created and named current in one coordinator transaction. A load killed before that leaves
 * the published generation serving; `public.loading` tells the next load which rows to clear.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import {
  foldedColumn,
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { newGeneration } from '../../contract/store-format.ts';
import {
  CHANGE_LOG_TABLE,
  CHANGED_TABLES_TABLE,
  TABLE_KEYS,
  TABLES,
  type TableName,
} from '../../contract/tables.ts';
import type { ShardServer } from '../../engines/postgres/topology.ts';
import { openDatabaseFile } from '../../files/database-file.ts';
import { sqlString } from '../../sql/literals.ts';
import type { StoredToken } from '../../tokens/store.ts';
import {
  type ApplyResult,
  type ChangeInputs,
  type Condition,
  currentTable,
  type LogSpan,
  planChangeSet,
  removedTokens,
  type StoreReader,
} from '../changes.ts';
import { csvField } from '../csv-field.ts';
import { readLedgerDelta, TOUCHED_LEDGER_USERS_SQL } from '../ledgers.ts';
import { formatCount, seconds } from '../progress.ts';
import { connect, copyCsv, runAll } from './client.ts';
import { type LedgersWritten, repackLedgers } from './ledgers.ts';
import { withClusterLoad } from './lock.ts';
import { dropOldGenerations } from './old-generations.ts';
import {
  afterPublication,
  type ClusterState,
  clusterState,
  publish,
  unpublished,
} from './publish.ts';
import {
  BUCKETS,
  bucketsOf,
  generationViewsDdl,
  monthlyFillSql,
  rollupFillSql,
  SHARDED_TABLES,
  type ShardedTable,
  schemaName,
  tableColumns,
  VERSIONED_TABLES,
} from './schema.ts';

export interface ClusterApplyOptions {
  databaseUrl: string;
  /** Where the change set came from (store_meta.source). */
  source: string;
  inputs: ChangeInputs;
  keepLog: LogSpan;
  /** A scratch folder (the scratch database, the files copied to the shards). */
  scratchDir: string;
  onProgress?: (line: string) => void;
}

/** Every value as PostgreSQL's text (booleans `t`/`f`): what the scratch database casts. */
const RAW_TEXT = {
  getTypeParser: () => (value: string) => value,
} as unknown as pg.CustomTypesConfig;

/** A condition's keys, read from the scratch database: one array per column. */
async function keyArrays(conn: DuckDBConnection, condition: Condition): Promise<string[][]> {
  const columns = condition.columns.length === 1 ? ['k'] : [...condition.columns];
  const [row] = (
    await conn.runAndReadAll(
      `SELECT ${columns.map((column) => `list(CAST(${column} AS VARCHAR)) AS ${column}`).join(', ')} FROM ${condition.set}`,
    )
  ).getRowObjectsJson();
  return columns.map((column) => ((row?.[column] as string[] | null) ?? []).map(String));
}

/**
 * The stored rows a change set needs, read through the coordinator from the published
 * generation's views (public.access_tokens for tokens). A condition on an account's rows also
 * names the accounts' users, so the coordinator sends it to their buckets only.
 */
function clusterReader(
  coordinator: pg.Client,
  state: ClusterState,
  scratchDir: string,
): StoreReader {
  return {
    // One statement per condition (an OR of them would keep the shard from using each one's
    // index), each adding the rows not read yet.
    async read(conn, table, conditions) {
      for (const [index, condition] of conditions.entries()) {
        const params: unknown[] = [];
        const param = (value: unknown, type: string) => {
          params.push(value);
          return `$${params.length}::${type}`;
        };
        const arrays = await keyArrays(conn, condition);
        if ((arrays[0] ?? []).length === 0) continue;
        let where: string;
        if (condition.columns.length === 2) {
          where = `(t.account_id, t.as_of) IN (SELECT * FROM unnest(${param(arrays[0], 'text[]')}, ${param(arrays[1], 'date[]')}))`;
        } else {
          const column = condition.columns[0] as string;
          where = `t.${column} = ANY(${param(arrays[0], 'text[]')})`;
          if (column === 'account_id' && table !== 'accounts') {
            const [users] = (
              await conn.runAndReadAll(
                `SELECT list(DISTINCT user_id) AS users FROM cur.accounts WHERE id IN (SELECT k FROM ${condition.set})`,
              )
            ).getRowObjectsJson();
            where += ` AND t.user_id = ANY(${param(users?.users ?? [], 'text[]')})`;
          }
        }
        const columns = TABLES[table].columns.map((column) => `t.${column.name}`);
        if (table === 'transactions') {
          columns.push(
            'CASE WHEN t.account_type IS NOT NULL THEN t.user_id END',
            't.account_type',
            't.account_link_id',
            't.to_platform',
          );
        }
        const from =
          table === 'access_tokens' ? 'public.access_tokens' : `${state.schema}.${table}`;
        const { rows } = await coordinator.query<Record<string, string | null>>({
          text: `SELECT ${columns.join(', ')} FROM ${from} t WHERE ${where}`,
          values: params,
          rowMode: 'array',
          types: RAW_TEXT,
        } as pg.QueryConfig);
        if (rows.length === 0) continue;
        const file = join(scratchDir, `cur-${table}-${index}.csv`);
        await writeFile(
          file,
          (rows as unknown as (string | null)[][])
            .map((row) => row.map((value) => csvField(value)).join(','))
            .join('\n'),
        );
        const types = Object.fromEntries(columns.map((_, k) => [`c${k}`, 'VARCHAR']));
        const key = TABLE_KEYS[table];
        const names = [
          ...TABLES[table].columns.map((column) => column.name),
          ...(table === 'transactions'
            ? ['account_user_id', 'account_type', 'account_link_id', 'to_platform']
            : []),
        ];
        await conn.run(
          `INSERT INTO cur.${table}
           SELECT * FROM read_csv(${sqlString(file)}, header = false, columns = ${duckdbStruct(types)},
             quote = '"', escape = '"') r (${names.join(', ')})
           WHERE NOT EXISTS (SELECT 1 FROM cur.${table} c WHERE ${key
             .map((name) => `CAST(c.${name} AS VARCHAR) = r.${name}`)
             .join(' AND ')})`,
        );
      }
    },
  };
}

const duckdbStruct = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([name, type]) => `'${name}': '${type}'`)
    .join(', ')}}`;

/** The owner (the partition key's value) of a delta row of `table`, over the row `x`. */
const ownerOf = (table: ShardedTable, accounts: string) => {
  switch (table) {
    case 'users':
      return { join: '', owner: 'x.id' };
    case 'balances':
    case 'liabilities':
      return { join: `JOIN ${accounts} a ON a.id = x.account_id`, owner: 'a.user_id' };
    default:
      return { join: '', owner: 'x.user_id' };
  }
};

/** The new rows of a table as the cluster's columns (tableColumns), with their owner. */
function newRowsSql(table: ShardedTable): string {
  const { join: accountJoin, owner } = ownerOf(table, 'delta.accounts');
  const folded = new Map(
    (['description', 'merchant_name'] as const).map((text) => [foldedColumn(text), text]),
  );
  const columns = tableColumns(table).map((column) => {
    if (column.name === 'user_id' && (table === 'balances' || table === 'liabilities'))
      return 'a.user_id';
    // The text filter's folded columns, folded as the full load folds them.
    const text = table === 'transactions' ? folded.get(column.name) : undefined;
    return text ? `lower(x.${text}) AS ${column.name}` : `x.${column.name}`;
  });
  return `SELECT ${columns.join(', ')}, ${owner} AS owner FROM delta.new_${table} x ${accountJoin}`;
}

/** The keys of the stored rows a change set closes, with their (stored) owner. */
function goneKeysSql(table: ShardedTable): string {
  const { join: accountJoin, owner } = ownerOf(table, 'cur.accounts');
  const keys = TABLE_KEYS[table].map((key) => `CAST(x.${key} AS VARCHAR) AS ${key}`);
  return `SELECT ${keys.join(', ')}, ${owner} AS owner FROM delta.gone_${table} x ${accountJoin}`;
}

/** Which bucket each user of the delta lives in, as the coordinator hashes it. */
async function routeUsers(
  conn: DuckDBConnection,
  coordinator: pg.Client,
  dataSchema: string,
  scratchDir: string,
): Promise<void> {
  const owners = SHARDED_TABLES.flatMap((table) => [
    `SELECT owner FROM (${newRowsSql(table)})`,
    `SELECT owner FROM (${goneKeysSql(table)})`,
  ]);
  const [row] = (
    await conn.runAndReadAll(
      `SELECT list(DISTINCT owner) AS users FROM (
         ${owners.join(' UNION ALL ')}
         UNION ALL SELECT user_id FROM delta.days UNION ALL SELECT id FROM delta.removed_users
         UNION ALL SELECT user_id FROM delta.log
         UNION ALL SELECT user_id FROM delta.changed_tables)`,
    )
  ).getRowObjectsJson();
  const users = (row?.users as string[] | null) ?? [];
  const { rows } = await coordinator.query<{ user_id: string; bucket: number }>(
    `SELECT u AS user_id, b AS bucket FROM unnest($1::text[]) u, generate_series(0, ${BUCKETS - 1}) b
     WHERE satisfies_hash_partition('${dataSchema}.users'::regclass, ${BUCKETS}, b, u)`,
    [users],
  );
  await conn.run('CREATE TABLE delta.bucket (user_id VARCHAR, bucket INTEGER)');
  // DuckDB cannot read an empty CSV file (it sniffs the first line).
  if (rows.length === 0) return;
  const file = join(scratchDir, 'buckets.csv');
  await writeFile(
    file,
    rows.map((route) => `${csvField(route.user_id)},${route.bucket}`).join('\n'),
  );
  await conn.run(
    `INSERT INTO delta.bucket SELECT * FROM read_csv(${sqlString(file)}, header = false,
       columns = {'user_id': 'VARCHAR', 'bucket': 'INTEGER'}, quote = '"', escape = '"')`,
  );
}

/** Per bucket, a delta query's rows as arrays (one per column). */
async function perBucket(
  conn: DuckDBConnection,
  sql: string,
  owner: string,
  columns: readonly string[],
): Promise<Map<number, unknown[][]>> {
  const rows = (
    await conn.runAndReadAll(
      `SELECT b.bucket, ${columns.map((column) => `list(CAST(x.${column} AS VARCHAR)) AS ${column}`).join(', ')}
       FROM (${sql}) x JOIN delta.bucket b ON b.user_id = x.${owner} GROUP BY b.bucket`,
    )
  ).getRowObjectsJson();
  return new Map(
    rows.map((row) => [
      Number(row.bucket),
      columns.map((column) => (row[column] as unknown[] | null) ?? []),
    ]),
  );
}

/** Writes a delta query's rows per bucket as CSV files (`<dir>/bucket=<b>/*.csv`). */
async function exportPerBucket(
  conn: DuckDBConnection,
  sql: string,
  owner: string,
  columns: readonly string[],
  dir: string,
): Promise<void> {
  await conn.run(
    `COPY (SELECT ${columns.map((column) => `x.${column}`).join(', ')}, b.bucket
           FROM (${sql}) x JOIN delta.bucket b ON b.user_id = x.${owner})
     TO ${sqlString(dir)} (FORMAT csv, HEADER false, PARTITION_BY (bucket), OVERWRITE_OR_IGNORE)`,
  );
}

async function copyFiles(client: pg.Client, target: string, columns: string[], dir: string) {
  const files = await readdir(dir).catch(() => [] as string[]);
  for (const file of files) await copyCsv(client, target, columns, join(dir, file));
}

/**
 * The change log's floor once change set `seq` is applied (see ingest/duckdb/apply.ts,
 * logFloorSql).
 */
async function logFloor(
  coordinator: pg.Client,
  state: ClusterState,
  span: LogSpan,
  seq: number,
): Promise<number> {
  if ('changeSets' in span) return Math.max(state.logFloor, seq - span.changeSets);
  const { rows } = await coordinator.query<{ floor: number | null }>(
    `SELECT max(seq) AS floor FROM public.change_sets
     WHERE data_schema = $1 AND applied_at <= (now() AT TIME ZONE 'UTC') - make_interval(days => $2)`,
    [state.dataSchema, span.days],
  );
  return Math.max(state.logFloor, rows[0]?.floor ?? state.logFloor);
}

/**
 * Applies a change set to the cluster as a new generation. A failure before the publication
 * says that nothing was published (publish.ts, unpublished).
 */
export async function applyClusterChanges(options: ClusterApplyOptions): Promise<ApplyResult> {
  let serving: string | undefined;
  return withClusterLoad(
    options.databaseUrl,
    async (coordinator, shards, progress) => {
      const state = await clusterState(coordinator);
      if (!state) throw new Error('the cluster holds no store yet: build it first with --source');
      const { dataSchema, lineage, formatProblem } = state;
      if (formatProblem || !dataSchema || !lineage) {
        throw new Error(
          `the cluster cannot take change sets (${formatProblem ?? 'it records no lineage'}): rebuild it once with --source before applying change sets`,
        );
      }
      serving = state.generation;
      const scratch = await openDatabaseFile(join(options.scratchDir, 'changes.duckdb'), 'scratch');
      const conn = scratch.conn;
      try {
        await conn.run(`SET TimeZone = 'UTC'`);
        await conn.run(
          `ATTACH ${sqlString(join(options.scratchDir, 'staging.duckdb'))} AS staging`,
        );
        const summary = await planChangeSet(
          conn,
          options.inputs,
          clusterReader(coordinator, state, options.scratchDir),
          progress,
          // The stored tokens read are the coordinator's token table's.
          currentTable('access_tokens'),
        );
        if (!summary.changesStore) {
          return { generation: state.generation, seq: state.seq, published: false, summary };
        }
        const started = performance.now();
        const seq = state.seq + 1;
        const generation = newGeneration();
        const floor = await logFloor(coordinator, state, options.keepLog, seq);
        await routeUsers(conn, coordinator, dataSchema, options.scratchDir);
        await coordinator.query(
          `INSERT INTO public.loading (data_schema, seq) VALUES ($1, $2)
           ON CONFLICT (singleton) DO UPDATE SET data_schema = excluded.data_schema, seq = excluded.seq`,
          [dataSchema, seq],
        );
        const ledgers = await writeShards(
          conn,
          shards,
          { ...state, dataSchema },
          seq,
          options.scratchDir,
        );
        const schema = schemaName(generation);
        await runAll(coordinator, generationViewsDdl(schema, dataSchema, seq));
        progress(
          `wrote change set ${seq} on ${shards.length} shards (${seconds(started)}); ledgers: ${formatCount(ledgers.packed)} packed again, ${formatCount(ledgers.notPacked)} left to the engine`,
        );
        await publish(coordinator, {
          generation,
          schema,
          lineage,
          dataSchema,
          seq,
          logFloor: floor,
          source: options.source,
          shards: shards.length,
          tokens: await newTokens(conn),
          revokedTokens: await removedTokens(conn),
          changeSet: true,
        });
        progress(
          `published generation ${generation}: change set ${seq} of lineage ${lineage}; the change log covers change sets after ${floor}`,
        );
        await dropOldGenerations(coordinator, shards, progress).catch((error: unknown) =>
          progress(afterPublication(generation, error)),
        );
        return { generation, seq, published: true, summary };
      } finally {
        scratch.close();
      }
    },
    options.onProgress,
  ).catch((error: unknown) => {
    throw unpublished(error, serving);
  });
}

async function newTokens(conn: DuckDBConnection): Promise<StoredToken[]> {
  const rows = (
    await conn.runAndReadAll(
      `SELECT token_hash, user_id, name, epoch_ms(created_at) AS created_ms,
         epoch_ms(expires_at) AS expires_ms, epoch_ms(revoked_at) AS revoked_ms
       FROM delta.new_access_tokens`,
    )
  ).getRowObjectsJson();
  const ms = (value: unknown) => (value === null ? null : Number(value));
  return rows.map((row) => ({
    tokenHash: String(row.token_hash),
    userId: String(row.user_id),
    name: (row.name as string | null) ?? null,
    createdAtMs: Number(row.created_ms),
    expiresAtMs: ms(row.expires_ms),
    revokedAtMs: ms(row.revoked_ms),
  }));
}

/** The SQL condition matching a table's keys given as arrays ($2.. after the owners' $1). */
function keyCondition(table: TableName): string {
  if (table === 'balances') {
    return '(account_id, as_of) IN (SELECT * FROM unnest($2::text[], $3::date[]))';
  }
  return `${TABLE_KEYS[table][0]} = ANY($2::text[])`;
}

/**
 * Writes the delta on every shard, one transaction per shard, in parallel; returns what packing
 * the touched users' ledgers came to.
 */
async function writeShards(
  conn: DuckDBConnection,
  shards: readonly ShardServer[],
  state: ClusterState & { dataSchema: string },
  seq: number,
  scratchDir: string,
): Promise<LedgersWritten> {
  const d = state.dataSchema;
  // Everything read from the scratch database first (one connection), then the shards in parallel.
  const gone = new Map<ShardedTable, Map<number, unknown[][]>>();
  for (const table of SHARDED_TABLES) {
    gone.set(
      table,
      await perBucket(conn, goneKeysSql(table), 'owner', [...TABLE_KEYS[table], 'owner']),
    );
    const columns = tableColumns(table).map((column) => column.name);
    await conn.run(
      `CREATE TABLE delta.export_${table} AS SELECT *, ${seq} AS gen_from FROM (${newRowsSql(table)})`,
    );
    await exportPerBucket(
      conn,
      `SELECT * FROM delta.export_${table}`,
      'owner',
      [...columns, 'gen_from'],
      join(scratchDir, `new-${table}`),
    );
  }
  await exportPerBucket(
    conn,
    `SELECT ${seq} AS seq, user_id, id, before, after FROM delta.log`,
    'user_id',
    ['seq', 'user_id', 'id', 'before', 'after'],
    join(scratchDir, 'log'),
  );
  await exportPerBucket(
    conn,
    `SELECT ${seq} AS seq, user_id, table_name FROM delta.changed_tables`,
    'user_id',
    ['seq', 'user_id', 'table_name'],
    join(scratchDir, 'changed-tables'),
  );
  const days = await perBucket(conn, 'SELECT user_id, day FROM delta.days', 'user_id', [
    'user_id',
    'day',
  ]);
  const months = await perBucket(conn, 'SELECT user_id, month FROM delta.months', 'user_id', [
    'user_id',
    'month',
  ]);
  const removed = await perBucket(conn, 'SELECT id FROM delta.removed_users', 'id', ['id']);
  const ledgerUsers = await perBucket(conn, TOUCHED_LEDGER_USERS_SQL, 'user_id', ['user_id']);
  const delta = await readLedgerDelta(conn);
  const ledgers: LedgersWritten = { packed: 0, notPacked: 0 };

  await Promise.all(
    shards.map(async (shard, index) => {
      const client = await connect(shard);
      try {
        await client.query('BEGIN');
        for (const bucket of bucketsOf(index + 1, shards.length)) {
          for (const table of SHARDED_TABLES) {
            const keys = gone.get(table)?.get(bucket);
            const name = `${d}.${table}_p${bucket}`;
            if (keys) {
              const owners = keys.at(-1) as string[];
              const ownerColumn = table === 'users' ? 'id' : 'user_id';
              await client.query(
                `UPDATE ${name} SET gen_to = ${seq}
                 WHERE gen_to IS NULL AND ${ownerColumn} = ANY($1::text[]) AND ${keyCondition(table)}`,
                [owners, ...keys.slice(0, -1)],
              );
            }
            const columns = tableColumns(table).map((column) => column.name);
            await copyFiles(
              client,
              name,
              [...columns, 'gen_from'],
              join(scratchDir, `new-${table}`, `bucket=${bucket}`),
            );
          }
          const changedDays = days.get(bucket);
          if (changedDays) {
            await client.query(
              `UPDATE ${d}.${SPENDING_DAILY_TABLE}_p${bucket} SET gen_to = ${seq}
               WHERE gen_to IS NULL AND (user_id, day) IN (SELECT * FROM unnest($1::text[], $2::date[]))`,
              changedDays,
            );
            await client.query(
              rollupFillSql(
                d,
                bucket,
                seq,
                '(t.user_id, t.transacted_at) IN (SELECT * FROM unnest($1::text[], $2::date[]))',
              ),
              changedDays,
            );
          }
          const removedUsers = removed.get(bucket);
          if (removedUsers) {
            await client.query(
              `UPDATE ${d}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket} SET gen_to = ${seq}
               WHERE gen_to IS NULL AND user_id = ANY($1::text[])`,
              removedUsers,
            );
          }
          const changedMonths = months.get(bucket);
          if (changedMonths) {
            await client.query(
              `UPDATE ${d}.${SPENDING_MONTHLY_TABLE}_p${bucket} SET gen_to = ${seq}
               WHERE gen_to IS NULL AND (user_id, month) IN (SELECT * FROM unnest($1::text[], $2::date[]))`,
              changedMonths,
            );
            await client.query(
              monthlyFillSql(
                d,
                bucket,
                seq,
                `(r.user_id, date_trunc('month', r.day)::date) IN (SELECT * FROM unnest($1::text[], $2::date[]))`,
              ),
              changedMonths,
            );
          }
          await copyFiles(
            client,
            `${d}.${CHANGE_LOG_TABLE}_p${bucket}`,
            ['seq', 'user_id', 'id', 'before', 'after'],
            join(scratchDir, 'log', `bucket=${bucket}`),
          );
          await copyFiles(
            client,
            `${d}.${CHANGED_TABLES_TABLE}_p${bucket}`,
            ['seq', 'user_id', 'table_name'],
            join(scratchDir, 'changed-tables', `bucket=${bucket}`),
          );
          // Versions no kept generation reads (the previous one stays until this is published),
          // and log entries under the floor of the generation before this one.
          for (const table of VERSIONED_TABLES) {
            await client.query(
              `DELETE FROM ${d}.${table}_p${bucket} WHERE gen_to <= ${state.seq - 1}`,
            );
          }
          for (const table of [CHANGE_LOG_TABLE, CHANGED_TABLES_TABLE]) {
            await client.query(
              `DELETE FROM ${d}.${table}_p${bucket} WHERE seq <= ${state.logFloor}`,
            );
          }
        }
        const touched = new Map(
          bucketsOf(index + 1, shards.length).flatMap((bucket) => {
            const users = ledgerUsers.get(bucket)?.[0] as string[] | undefined;
            return users ? [[bucket, users] as const] : [];
          }),
        );
        const written = await repackLedgers(client, d, seq, touched, delta);
        ledgers.packed += written.packed;
        ledgers.notPacked += written.notPacked;
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        await client.end();
      }
    }),
  );
  return ledgers;
}
