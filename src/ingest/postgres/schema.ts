/**
 * The store's tables on the sharded cluster. A full build loads a lineage: its rows live in a
 * schema `d_<lineage>` on the coordinator and on every shard:
 *
 * - on the coordinator, each table is partitioned by HASH (user_id) into BUCKETS partitions,
 *   each a `postgres_fdw` foreign table on the shard that holds the bucket (bucket b on shard
 *   b mod N + 1): more buckets than shards, so a bucket can move to a new shard;
 * - on a shard, each of its buckets is a plain table with an index led by user_id.
 *
 * Every row carries the versions it belongs to: `gen_from` (the change set that wrote it; 0 for
 * the full build) and `gen_to` (the change set that replaced or removed it; NULL while current).
 * Each published generation is a schema `g_<generation>` on the coordinator holding one view per
 * table, the rows visible at its change set number: a change set adds rows and closes others
 * without touching what a published generation sees, and publishing it is naming its schema.
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
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import {
  CHANGE_LOG_TABLE,
  CHANGED_TABLES_TABLE,
  type ColumnKind,
  TABLES,
  type TableName,
} from '../../contract/tables.ts';
import { countedRowSql } from '../../sql/counted.ts';

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
  // By id alone too: a change set finds the stored rows it replaces or removes by their key.
  transactions: ['user_id, transacted_at, id', 'user_id, amount', 'user_id, merchant_name', 'id'],
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

/** The schema holding a lineage's rows (every version of them), on the coordinator and shards. */
export const dataSchemaName = (lineage: string) => `d_${lineage}`;

/** Each row's versions: written by change set `gen_from`, replaced or removed by `gen_to`. */
const VERSION_COLUMNS = ['gen_from integer NOT NULL DEFAULT 0', 'gen_to integer'];

/** SQL: the row (of `alias`) is part of change set number `seq`'s generation. */
export const visibleAt = (seq: number, alias = '') =>
  `${alias}gen_from <= ${seq} AND (${alias}gen_to IS NULL OR ${alias}gen_to > ${seq})`;

/**
 * The change log (ingest/changes.ts), per bucket like every per-user table: per change set
 * (`seq`), user and transaction, the listed row before and after, as JSON text.
 */
const changeLogColumns = (collation: TextCollation) =>
  [
    'seq integer NOT NULL',
    `user_id ${text(collation)} NOT NULL`,
    `id ${text(collation)} NOT NULL`,
    'before text',
    'after text',
  ].join(', ');

/** Beside the change log, per bucket too: the users' other tables each change set changed. */
const changedTablesColumns = (collation: TextCollation) =>
  ['seq integer NOT NULL', `user_id ${text(collation)} NOT NULL`, 'table_name text NOT NULL'].join(
    ', ',
  );

/** The lineage's tables that are not versioned: each change set's record, kept by `seq`. */
const CHANGE_RECORDS = [
  { table: CHANGE_LOG_TABLE, columns: changeLogColumns },
  { table: CHANGED_TABLES_TABLE, columns: changedTablesColumns },
] as const;

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

/** The rollups' column names, in their order (without the versions). */
export const ROLLUP_COLUMNS = [
  'user_id',
  'day',
  'direction',
  'category',
  'merchant_name',
  'subcategory',
  'to_platform',
  'account_id',
  'account_link_id',
  'amount',
  'count',
  'max_amount',
];
export const MONTHLY_COLUMNS = ['user_id', 'month', ...ROLLUP_COLUMNS.slice(2), 'days'];

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

/**
 * The packed ledgers (contract/ledger.ts), one row per user of at most PACKED_LEDGER_MAX_ROWS
 * transactions, as build-db packed them (ingest/ledgers.ts): copied from the built DuckDB
 * store by a full load, packed again on the loader for the users a change set touches.
 */
const ledgerColumns = (collation: TextCollation) =>
  [
    `user_id ${text(collation)} NOT NULL`,
    'packed bytea NOT NULL',
    'transactions integer NOT NULL',
    'format_version integer NOT NULL',
  ].join(', ');
export const LEDGER_COLUMNS = ['user_id', 'packed', 'transactions', 'format_version'];

/**
 * The tables of a lineage whose rows are versioned (every one but the change log), on the
 * coordinator partitioned like the data.
 */
export const VERSIONED_TABLES = [
  ...SHARDED_TABLES,
  SPENDING_DAILY_TABLE,
  SPENDING_MONTHLY_TABLE,
  SPENDING_MONTHLY_USERS_TABLE,
  LEDGERS_TABLE,
] as const;
export type VersionedTable = (typeof VERSIONED_TABLES)[number];

/** A versioned table's columns (without the versions), as `name type` text. */
function versionedColumns(table: VersionedTable, collation: TextCollation): string {
  switch (table) {
    case SPENDING_DAILY_TABLE:
      return rollupColumns(collation);
    case SPENDING_MONTHLY_TABLE:
      return monthlyColumns(collation);
    case SPENDING_MONTHLY_USERS_TABLE:
      return monthlyUsersColumns(collation);
    case LEDGERS_TABLE:
      return ledgerColumns(collation);
    default:
      return columnList(table, collation);
  }
}

/** A versioned table's column names (without the versions). */
export function versionedColumnNames(table: VersionedTable): string[] {
  switch (table) {
    case SPENDING_DAILY_TABLE:
      return ROLLUP_COLUMNS;
    case SPENDING_MONTHLY_TABLE:
      return MONTHLY_COLUMNS;
    case SPENDING_MONTHLY_USERS_TABLE:
      return ['user_id'];
    case LEDGERS_TABLE:
      return LEDGER_COLUMNS;
    default:
      return tableColumns(table).map((column) => column.name);
  }
}

/** The partition key of a versioned table or the change log (the rollups': their user). */
export const partitionKey = (table: VersionedTable | typeof CHANGE_LOG_TABLE) =>
  (PARTITION_KEY as Record<string, string>)[table] ?? 'user_id';

/** The buckets (0-based) a shard (1-based) of `shards` holds. */
export const bucketsOf = (shard: number, shards: number) =>
  Array.from({ length: BUCKETS }, (_, bucket) => bucket).filter(
    (bucket) => shardOfBucket(bucket, shards) === shard,
  );

/**
 * One bucket's daily rollup groups at change set `seq`, from its transactions, with the
 * version `seq`: `where` narrows the transactions read, over `t` (a full build reads them all).
 */
export const rollupFillSql = (schema: string, bucket: number, seq = 0, where = 'true') => `
  INSERT INTO ${schema}.${SPENDING_DAILY_TABLE}_p${bucket} (${ROLLUP_COLUMNS.join(', ')}, gen_from)
  SELECT user_id, transacted_at, direction, category, merchant_name, subcategory, to_platform,
    account_id, account_link_id, sum(amount), count(*), max(amount), ${seq}
  FROM ${schema}.${bucketTable('transactions', bucket)} t
  WHERE ${visibleAt(seq, 't.')} AND (${where})
    AND ${countedRowSql('t')}
  GROUP BY user_id, transacted_at, direction, category, merchant_name, subcategory, to_platform,
    account_id, account_link_id`;

/**
 * One bucket's monthly groups at change set `seq`, from its daily rollup, for the users of the
 * monthly rollup: `where` narrows the daily groups read, over `r`.
 */
export const monthlyFillSql = (schema: string, bucket: number, seq = 0, where = 'true') => `
  INSERT INTO ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket} (${MONTHLY_COLUMNS.join(', ')}, gen_from)
  SELECT user_id, date_trunc('month', day)::date, direction, category, merchant_name,
    subcategory, to_platform, account_id, account_link_id, sum(amount), sum(count),
    max(max_amount), array_agg(day ORDER BY day), ${seq}
  FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket} r
  WHERE ${visibleAt(seq, 'r.')} AND (${where})
    AND user_id IN (SELECT user_id FROM ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket} m
                    WHERE ${visibleAt(seq, 'm.')})
  GROUP BY user_id, date_trunc('month', day), direction, category, merchant_name, subcategory,
    to_platform, account_id, account_link_id`;

/** Fills one bucket's monthly rollup users (a full build's choice) from its daily rollup. */
const monthlyUsersFillSql = (schema: string, bucket: number) => `
  INSERT INTO ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket} (user_id)
  SELECT d.user_id
  FROM (SELECT user_id, count(*) AS groups FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}
        GROUP BY user_id) d
  JOIN (SELECT user_id, count(*) AS groups FROM (
          SELECT DISTINCT user_id, date_trunc('month', day), direction, category, merchant_name,
            subcategory, to_platform, account_id, account_link_id
          FROM ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}) x
        GROUP BY user_id) m ON m.user_id = d.user_id
  WHERE d.groups >= ${MONTHLY_MIN_DENSITY} * m.groups`;

/** DDL of one shard's part of a lineage: its buckets of every table. */
export function shardDdl(
  schema: string,
  shard: number,
  shards: number,
  collation: TextCollation,
): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of VERSIONED_TABLES) {
    for (const bucket of bucketsOf(shard, shards)) {
      statements.push(
        `CREATE TABLE ${schema}.${table}_p${bucket} (${versionedColumns(table, collation)}, ${VERSION_COLUMNS.join(', ')})`,
      );
    }
  }
  for (const bucket of bucketsOf(shard, shards)) {
    // Out of line, never compressed: pglz cannot shrink a packed ledger (it stored 100% of
    // the bench store's) but tries on every write, which took ten times as long. (Set apart
    // from the CREATE: a column's STORAGE there needs PostgreSQL 16.)
    statements.push(
      `ALTER TABLE ${schema}.${LEDGERS_TABLE}_p${bucket} ALTER COLUMN packed SET STORAGE EXTERNAL`,
    );
  }
  for (const bucket of bucketsOf(shard, shards)) {
    for (const { table, columns } of CHANGE_RECORDS) {
      statements.push(`CREATE TABLE ${schema}.${table}_p${bucket} (${columns(collation)})`);
    }
  }
  return statements;
}

/** Indexes of one shard's buckets: built after the load (faster than maintained row by row). */
export function shardIndexDdl(schema: string, shard: number, shards: number): string[] {
  const statements: string[] = [];
  const versionIndexes = (name: string) => [
    // What a change set's clean-up and purge look for: few rows each.
    `CREATE INDEX ON ${schema}.${name} (gen_from) WHERE gen_from > 0`,
    `CREATE INDEX ON ${schema}.${name} (gen_to) WHERE gen_to IS NOT NULL`,
  ];
  for (const table of SHARDED_TABLES) {
    for (const bucket of bucketsOf(shard, shards)) {
      const name = bucketTable(table, bucket);
      for (const columns of SHARD_INDEXES[table]) {
        statements.push(`CREATE INDEX ON ${schema}.${name} (${columns})`);
      }
      statements.push(...versionIndexes(name), `ANALYZE ${schema}.${name}`);
    }
  }
  for (const bucket of bucketsOf(shard, shards)) {
    statements.push(rollupFillSql(schema, bucket));
    statements.push(`CREATE INDEX ON ${schema}.${SPENDING_DAILY_TABLE}_p${bucket} (user_id, day)`);
    statements.push(...versionIndexes(`${SPENDING_DAILY_TABLE}_p${bucket}`));
    statements.push(`ANALYZE ${schema}.${SPENDING_DAILY_TABLE}_p${bucket}`);
    statements.push(monthlyUsersFillSql(schema, bucket), monthlyFillSql(schema, bucket));
    statements.push(
      `CREATE INDEX ON ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket} (user_id, month)`,
      ...versionIndexes(`${SPENDING_MONTHLY_TABLE}_p${bucket}`),
      ...versionIndexes(`${SPENDING_MONTHLY_USERS_TABLE}_p${bucket}`),
      `CREATE INDEX ON ${schema}.${CHANGE_LOG_TABLE}_p${bucket} (user_id, seq, id)`,
      `CREATE INDEX ON ${schema}.${CHANGED_TABLES_TABLE}_p${bucket} (user_id, seq)`,
      // What one generation changed for many users (the event streams): its change set's
      // entries, however many users are asked about.
      ...CHANGE_RECORDS.map(({ table }) => `CREATE INDEX ON ${schema}.${table}_p${bucket} (seq)`),
      `ANALYZE ${schema}.${SPENDING_MONTHLY_TABLE}_p${bucket}`,
      `ANALYZE ${schema}.${SPENDING_MONTHLY_USERS_TABLE}_p${bucket}`,
      `CREATE INDEX ON ${schema}.${LEDGERS_TABLE}_p${bucket} (user_id)`,
      ...versionIndexes(`${LEDGERS_TABLE}_p${bucket}`),
      `ANALYZE ${schema}.${LEDGERS_TABLE}_p${bucket}`,
    );
  }
  return statements;
}

/** DDL of the coordinator's part: partitioned tables whose partitions are the shards' buckets. */
export function coordinatorDdl(schema: string, shards: number, collation: TextCollation): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of VERSIONED_TABLES) {
    statements.push(
      `CREATE TABLE ${schema}.${table} (${versionedColumns(table, collation)}, ${VERSION_COLUMNS.join(', ')}) PARTITION BY HASH (${partitionKey(table)})`,
      ...foreignPartitions(schema, table, shards),
    );
  }
  for (const { table, columns } of CHANGE_RECORDS) {
    statements.push(
      `CREATE TABLE ${schema}.${table} (${columns(collation)}) PARTITION BY HASH (user_id)`,
      ...foreignPartitions(schema, table, shards),
    );
  }
  return statements;
}

/**
 * A generation's schema on the coordinator: one view per table over the lineage's rows, those
 * visible at change set `seq`. The views are plain enough to be inlined: every statement still
 * goes to the user's shard, aggregates included, with the version test in its remote SQL.
 */
export function generationViewsDdl(schema: string, dataSchema: string, seq: number): string[] {
  return [
    `CREATE SCHEMA ${schema}`,
    ...VERSIONED_TABLES.map(
      (table) =>
        `CREATE VIEW ${schema}.${table} AS SELECT ${versionedColumnNames(table).join(', ')}
         FROM ${dataSchema}.${table} WHERE ${visibleAt(seq)}`,
    ),
  ];
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
