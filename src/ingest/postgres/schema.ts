/**
 * The store's tables on the sharded cluster. Each published generation lives in its own schema
 * `g_<generation>` on the coordinator and on every shard:
 *
 * - on the coordinator, each table is partitioned by HASH (user_id) into BUCKETS partitions,
 *   each a `postgres_fdw` foreign table on the shard that holds the bucket (bucket b on shard
 *   b mod N + 1): more buckets than shards, so a bucket can move to a new shard;
 * - on a shard, each of its buckets is a plain table with an index led by user_id.
 *
 * `public.store_meta` (one row) names the current generation; readers qualify every table with
 * that schema, so a reader sees one generation whole. Tokens live on the coordinator only, in
 * `public.access_tokens`: minting never touches the data.
 */

import {
  foldedColumn,
  MONTHLY_MIN_DENSITY,
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
} from '../../contract/derived.ts';
import { type ColumnKind, TABLES, type TableName } from '../../contract/tables.ts';
import { countedRowSql } from '../../engines/sql/counted.ts';

/** Hash partitions per table. */
export const BUCKETS = 16;

/** The store tables that are sharded (every per-user table; tokens stay on the coordinator). */
export const SHARDED_TABLES = [
  'users',
  'links',
  'accounts',
  'transactions',
  'balances',
  'pay_statements',
  'liabilities',
] as const satisfies readonly TableName[];
export type ShardedTable = (typeof SHARDED_TABLES)[number];

export interface PgColumn {
  name: string;
  type: string;
}

/**
 * The collation of every text column: code point order, as DuckDB compares, so ids sort the
 * same on both engines. `pg_c_utf8` (PostgreSQL 17+) also lower-cases every script as DuckDB's
 * lower() does (the text filter); "C" lower-cases ASCII only. Either is the column's own, so
 * postgres_fdw ships expressions over it to the shard.
 */
export type TextCollation = 'pg_c_utf8' | 'C';
const text = (collation: TextCollation) => `text COLLATE "${collation}"`;

function postgresType(type: ColumnKind, collation: TextCollation): string {
  switch (type.kind) {
    case 'id':
    case 'text':
    case 'currency':
    case 'sha256':
    case 'enum':
      return text(collation);
    case 'date':
      return 'date';
    case 'timestamp':
      return 'timestamp';
    case 'money':
      return 'numeric(18,2)';
    case 'percent':
      return 'numeric(9,4)';
    case 'bool':
      return 'boolean';
  }
}

/**
 * Columns stored beyond the contract's: the user on tables that reach it through an account
 * (the partition key), and on transactions the account facts and the platform flag that
 * build-db derives (contract/derived.ts), so no query joins accounts or matches patterns, and the
 * description and merchant name folded by DuckDB's lower() (the text filter's folding, as
 * domain/case-fold.ts; transactions.ts).
 */
const extraColumns = (table: ShardedTable, collation: TextCollation): PgColumn[] =>
  ({
    balances: [{ name: 'user_id', type: text(collation) }],
    liabilities: [{ name: 'user_id', type: text(collation) }],
    transactions: [
      { name: 'account_type', type: text(collation) },
      { name: 'account_link_id', type: text(collation) },
      { name: 'to_platform', type: 'boolean NOT NULL' },
      { name: foldedColumn('description'), type: `${text(collation)} NOT NULL` },
      { name: foldedColumn('merchant_name'), type: text(collation) },
    ],
  })[table as 'balances' | 'liabilities' | 'transactions'] ?? [];

/** The partition key of each table. */
export const PARTITION_KEY: Record<ShardedTable, string> = {
  users: 'id',
  links: 'user_id',
  accounts: 'user_id',
  transactions: 'user_id',
  balances: 'user_id',
  pay_statements: 'user_id',
  liabilities: 'user_id',
};

/**
 * The indexes of each bucket table on its shard: the user first, then how it is read. The
 * spending analysis finds each entry's largest transaction by amount (user_id, amount), and the
 * amounts of a few recurring-looking merchants by name (user_id, merchant_name).
 */
const SHARD_INDEXES: Record<ShardedTable, string[]> = {
  users: ['id'],
  links: ['user_id, created_at, id'],
  accounts: ['user_id, id'],
  transactions: ['user_id, transacted_at, id', 'user_id, amount', 'user_id, merchant_name'],
  balances: ['user_id, account_id, as_of'],
  pay_statements: ['user_id, pay_date, id'],
  liabilities: ['user_id, account_id'],
};

export function tableColumns(table: ShardedTable, collation: TextCollation = 'C'): PgColumn[] {
  return [
    ...TABLES[table].columns.map((column) => ({
      name: column.name,
      type: `${postgresType(column.type, collation)}${column.required || column.default !== undefined ? ' NOT NULL' : ''}`,
    })),
    ...extraColumns(table, collation),
  ];
}

export const schemaName = (generation: string) => `g_${generation}`;

export const bucketTable = (table: ShardedTable, bucket: number) => `${table}_p${bucket}`;

/** The shard (1-based) holding a bucket. */
export const shardOfBucket = (bucket: number, shards: number) => (bucket % shards) + 1;

const columnList = (table: ShardedTable, collation: TextCollation) =>
  tableColumns(table, collation)
    .map((column) => `${column.name} ${column.type}`)
    .join(', ');

/**
 * The spending rollup, derived on each shard from its transactions after a load: per user,
 * day, account and every column the spending rules, entries and breakdowns read, the counted
 * candidates' totals (spending rules 1-3 applied: not hidden, not a transfer, not an
 * investment account). A heavy user's year is about 15 times fewer rows than his transactions;
 * a typical user's barely fewer, at no cost.
 */
/** A rollup group's columns after its user and its day (or month). */
const groupColumns = (collation: TextCollation) => [
  `direction ${text(collation)} NOT NULL`,
  `category ${text(collation)} NOT NULL`,
  `merchant_name ${text(collation)}`,
  `subcategory ${text(collation)}`,
  'to_platform boolean NOT NULL',
  `account_id ${text(collation)} NOT NULL`,
  `account_link_id ${text(collation)}`,
  'amount numeric NOT NULL',
  'count bigint NOT NULL',
  'max_amount numeric(18,2) NOT NULL',
];
const rollupColumns = (collation: TextCollation) =>
  [`user_id ${text(collation)} NOT NULL`, 'day date NOT NULL', ...groupColumns(collation)].join(
    ', ',
  );

/**
 * The monthly rollup, for the users whose months hold at least MONTHLY_MIN_DENSITY times fewer
 * groups than their days (contract/derived.ts): the daily groups per calendar month, with the days
 * they cover; a window's whole months are read from it. `spending_monthly_users` lists them.
 */
const monthlyColumns = (collation: TextCollation) =>
  [
    `user_id ${text(collation)} NOT NULL`,
    'month date NOT NULL',
    ...groupColumns(collation),
    'days date[] NOT NULL',
  ].join(', ');
const monthlyUsersColumns = (collation: TextCollation) => `user_id ${text(collation)} NOT NULL`;

/** Fills one bucket's monthly rollup and its users from its daily rollup (on the shard). */
const monthlyFillSql = (schema: string, bucket: number) => [
  `INSERT INTO ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket}
   SELECT d.user_id
   FROM (SELECT user_id, count(*) AS groups FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}
         GROUP BY user_id) d
   JOIN (SELECT user_id, count(*) AS groups FROM (
           SELECT DISTINCT user_id, date_trunc('month', day), direction, category, merchant_name,
             subcategory, to_platform, account_id, account_link_id
           FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}) x
         GROUP BY user_id) m ON m.user_id = d.user_id
   WHERE d.groups >= ${MONTHLY_MIN_DENSITY} * m.groups`,
  `INSERT INTO ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket}
   SELECT user_id, date_trunc('month', day)::date, direction, category, merchant_name,
     subcategory, to_platform, account_id, account_link_id, sum(amount), sum(count),
     max(max_amount), array_agg(day ORDER BY day)
   FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}
   WHERE user_id IN (SELECT user_id FROM ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket})
   GROUP BY user_id, date_trunc('month', day), direction, category, merchant_name, subcategory,
     to_platform, account_id, account_link_id`,
];

/** Fills one bucket's rollup from its transactions (on the shard). */
export const rollupFillSql = (schema: string, bucket: number) => `
  INSERT INTO ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}
  SELECT user_id, transacted_at, direction, category, merchant_name, subcategory, to_platform,
    account_id, account_link_id, sum(amount), count(*), max(amount)
  FROM ${schema}.${bucketTable('transactions', bucket)}
  WHERE ${countedRowSql()}
  GROUP BY user_id, transacted_at, direction, category, merchant_name, subcategory, to_platform,
    account_id, account_link_id`;

/** DDL of one shard's part of a generation: its buckets of every table. */
export function shardDdl(
  schema: string,
  shard: number,
  shards: number,
  collation: TextCollation,
): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of SHARDED_TABLES) {
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      if (shardOfBucket(bucket, shards) !== shard) continue;
      const name = bucketTable(table, bucket);
      statements.push(`CREATE TABLE ${schema}.${name} (${columnList(table, collation)})`);
    }
  }
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    if (shardOfBucket(bucket, shards) !== shard) continue;
    statements.push(
      `CREATE TABLE ${schema}.${SPENDING_DAILY_TABLE}_p${bucket} (${rollupColumns(collation)})`,
      `CREATE TABLE ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket} (${monthlyColumns(collation)})`,
      `CREATE TABLE ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket} (${monthlyUsersColumns(collation)})`,
    );
  }
  return statements;
}

/** Indexes of one shard's buckets: built after the load (faster than maintained row by row). */
export function shardIndexDdl(schema: string, shard: number, shards: number): string[] {
  const statements: string[] = [];
  for (const table of SHARDED_TABLES) {
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      if (shardOfBucket(bucket, shards) !== shard) continue;
      const name = bucketTable(table, bucket);
      for (const columns of SHARD_INDEXES[table]) {
        statements.push(`CREATE INDEX ON ${schema}.${name} (${columns})`);
      }
      statements.push(`ANALYZE ${schema}.${name}`);
    }
  }
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    if (shardOfBucket(bucket, shards) !== shard) continue;
    statements.push(rollupFillSql(schema, bucket));
    statements.push(`CREATE INDEX ON ${schema}.${SPENDING_DAILY_TABLE}_p${bucket} (user_id, day)`);
    statements.push(`ANALYZE ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}`);
    statements.push(...monthlyFillSql(schema, bucket));
    statements.push(
      `CREATE INDEX ON ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket} (user_id, month)`,
      `ANALYZE ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket}`,
      `ANALYZE ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket}`,
    );
  }
  return statements;
}

/** DDL of the coordinator's part: partitioned tables whose partitions are the shards' buckets. */
export function coordinatorDdl(schema: string, shards: number, collation: TextCollation): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of SHARDED_TABLES) {
    statements.push(
      `CREATE TABLE ${schema}.${table} (${columnList(table, collation)}) PARTITION BY HASH (${PARTITION_KEY[table]})`,
    );
    statements.push(...foreignPartitions(schema, table, shards));
  }
  statements.push(
    `CREATE TABLE ${schema}.${SPENDING_DAILY_TABLE} (${rollupColumns(collation)}) PARTITION BY HASH (user_id)`,
    ...foreignPartitions(schema, SPENDING_DAILY_TABLE, shards),
    `CREATE TABLE ${schema}.${SPENDING_MONTHLY_TABLE} (${monthlyColumns(collation)}) PARTITION BY HASH (user_id)`,
    ...foreignPartitions(schema, SPENDING_MONTHLY_TABLE, shards),
    `CREATE TABLE ${schema}.${SPENDING_MONTHLY_USERS_TABLE} (${monthlyUsersColumns(collation)}) PARTITION BY HASH (user_id)`,
    ...foreignPartitions(schema, SPENDING_MONTHLY_USERS_TABLE, shards),
  );
  return statements;
}

/** Each bucket of a partitioned table on the coordinator: a foreign table on its shard. */
function foreignPartitions(schema: string, table: string, shards: number): string[] {
  return Array.from({ length: BUCKETS }, (_, bucket) => {
    const name = `${table}_p${bucket}`;
    return `CREATE FOREIGN TABLE ${schema}.${name} PARTITION OF ${schema}.${table}
      FOR VALUES WITH (MODULUS ${BUCKETS}, REMAINDER ${bucket})
      SERVER shard_${shardOfBucket(bucket, shards)}
      OPTIONS (schema_name '${schema}', table_name '${name}')`;
  });
}
