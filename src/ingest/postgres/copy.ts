/**
 * The copy of a built DuckDB store's rows into a new data schema of the cluster: the users
 * through the coordinator, every other row straight into its bucket's table on its shard.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { foldedColumn } from '../../contract/derived.ts';
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import { TABLES } from '../../contract/tables.ts';
import { openDatabaseFile } from '../../files/database-file.ts';
import { sqlString } from '../../sql/literals.ts';
import { toPlatformSql } from '../../sql/platform.ts';
import { formatCount, seconds } from '../progress.ts';
import { copyCsv } from './client.ts';
import { copyBuiltLedgers } from './ledgers.ts';
import {
  BUCKETS,
  bucketTable,
  SHARDED_TABLES,
  type ShardedTable,
  shardOfBucket,
  tableColumns,
} from './schema.ts';

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

/**
 * Copies every table's rows to the buckets they belong in. The users go through the
 * coordinator, which routes each by the hash of its id; where it put each user then tells
 * which bucket every other row of that user belongs in, so those rows (nearly all of them) are
 * split per bucket by DuckDB and copied straight into each shard's bucket tables, in parallel
 * across shards, never through the coordinator; the packed ledgers last, as bytes (ledgers.ts).
 */
export async function copyRows(
  coordinator: pg.Client,
  shardClients: readonly pg.Client[],
  schema: string,
  options: { duckdbPath: string; scratchDir: string },
  progress: (line: string) => void,
): Promise<Record<ShardedTable, number>> {
  const counts = {} as Record<ShardedTable, number>;
  const store = await openDatabaseFile(options.duckdbPath, 'store', { readOnly: true });
  const duckdb = store.conn;
  try {
    let started = performance.now();
    const usersFile = join(options.scratchDir, 'users.csv');
    await duckdb.run(
      `COPY (${exportSql('users')}) TO ${sqlString(usersFile)} (FORMAT csv, HEADER false)`,
    );
    const userColumns = tableColumns('users').map((column) => column.name);
    counts.users = await copyCsv(coordinator, `${schema}.users`, userColumns, usersFile);
    progress(`users: ${formatCount(counts.users)} rows loaded in ${seconds(started)}`);

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
      `CREATE TABLE memory.main.user_bucket AS SELECT * FROM read_csv(${sqlString(bucketsFile)},
         header = false, columns = {'user_id': 'VARCHAR', 'bucket': 'INTEGER'})`,
    );

    for (const table of SHARDED_TABLES) {
      if (table === 'users') continue;
      started = performance.now();
      const dir = join(options.scratchDir, table);
      await duckdb.run(
        `COPY (SELECT x.*, b.bucket FROM (${exportSql(table)}) x
               JOIN memory.main.user_bucket b ON b.user_id = x.user_id)
         TO ${sqlString(dir)} (FORMAT csv, HEADER false, PARTITION_BY (bucket), OVERWRITE_OR_IGNORE)`,
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
              rows += await copyCsv(
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
      progress(`${table}: ${formatCount(counts[table])} rows loaded in ${seconds(started)}`);
    }
    started = performance.now();
    const ledgers = await copyBuiltLedgers(duckdb, shardClients, schema);
    progress(`${LEDGERS_TABLE}: ${formatCount(ledgers)} rows loaded in ${seconds(started)}`);
  } finally {
    store.close();
  }
  return counts;
}
