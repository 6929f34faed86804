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
import { type ColumnKind, TABLES, type TableName } from '../../build/schema.ts';

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

/** Byte order for every text value, as DuckDB compares: ids sort the same on both engines. */
const TEXT = 'text COLLATE "C"';

function postgresType(type: ColumnKind): string {
  switch (type.kind) {
    case 'id':
    case 'text':
    case 'currency':
    case 'sha256':
    case 'enum':
      return TEXT;
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
 * build-db derives (build/derived.ts), so no query joins accounts or matches patterns.
 */
const EXTRA_COLUMNS: Partial<Record<ShardedTable, PgColumn[]>> = {
  balances: [{ name: 'user_id', type: TEXT }],
  liabilities: [{ name: 'user_id', type: TEXT }],
  transactions: [
    { name: 'account_type', type: TEXT },
    { name: 'account_link_id', type: TEXT },
    { name: 'to_platform', type: 'boolean NOT NULL' },
  ],
};

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

/** The index of each bucket table on its shard: the user first, then how it is read. */
const SHARD_INDEX: Record<ShardedTable, string> = {
  users: 'id',
  links: 'user_id, created_at, id',
  accounts: 'user_id, id',
  transactions: 'user_id, transacted_at, id',
  balances: 'user_id, account_id, as_of',
  pay_statements: 'user_id, pay_date, id',
  liabilities: 'user_id, account_id',
};

export function tableColumns(table: ShardedTable): PgColumn[] {
  return [
    ...TABLES[table].columns.map((column) => ({
      name: column.name,
      type: `${postgresType(column.type)}${column.required || column.default !== undefined ? ' NOT NULL' : ''}`,
    })),
    ...(EXTRA_COLUMNS[table] ?? []),
  ];
}

export const schemaName = (generation: string) => `g_${generation}`;

export const bucketTable = (table: ShardedTable, bucket: number) => `${table}_p${bucket}`;

/** The shard (1-based) holding a bucket. */
export const shardOfBucket = (bucket: number, shards: number) => (bucket % shards) + 1;

const columnList = (table: ShardedTable) =>
  tableColumns(table)
    .map((column) => `${column.name} ${column.type}`)
    .join(', ');

/** DDL of one shard's part of a generation: its buckets of every table. */
export function shardDdl(schema: string, shard: number, shards: number): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of SHARDED_TABLES) {
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      if (shardOfBucket(bucket, shards) !== shard) continue;
      const name = bucketTable(table, bucket);
      statements.push(`CREATE TABLE ${schema}.${name} (${columnList(table)})`);
    }
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
      statements.push(`CREATE INDEX ON ${schema}.${name} (${SHARD_INDEX[table]})`);
      statements.push(`ANALYZE ${schema}.${name}`);
    }
  }
  return statements;
}

/** DDL of the coordinator's part: partitioned tables whose partitions are the shards' buckets. */
export function coordinatorDdl(schema: string, shards: number): string[] {
  const statements = [`CREATE SCHEMA ${schema}`];
  for (const table of SHARDED_TABLES) {
    statements.push(
      `CREATE TABLE ${schema}.${table} (${columnList(table)}) PARTITION BY HASH (${PARTITION_KEY[table]})`,
    );
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const name = bucketTable(table, bucket);
      statements.push(
        `CREATE FOREIGN TABLE ${schema}.${name} PARTITION OF ${schema}.${table}
           FOR VALUES WITH (MODULUS ${BUCKETS}, REMAINDER ${bucket})
           SERVER shard_${shardOfBucket(bucket, shards)}
           OPTIONS (schema_name '${schema}', table_name '${name}')`,
      );
    }
  }
  return statements;
}

/** The coordinator's own tables, shared by every generation (created when missing). */
export const COORDINATOR_META_DDL = [
  `CREATE TABLE IF NOT EXISTS public.store_meta (
     singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
     generation text NOT NULL,
     schema_name text NOT NULL,
     built_at timestamp NOT NULL,
     source text NOT NULL,
     platform_rules text,
     shards integer NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS public.generations (
     schema_name text PRIMARY KEY,
     published_at timestamp NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))`,
  `CREATE TABLE IF NOT EXISTS public.access_tokens (
     token_hash text COLLATE "C" PRIMARY KEY,
     user_id text COLLATE "C" NOT NULL,
     name text,
     created_at timestamp NOT NULL,
     expires_at timestamp,
     revoked_at timestamp)`,
  'CREATE INDEX IF NOT EXISTS access_tokens_user ON public.access_tokens (user_id, created_at)',
];

/** The current generation, its schema and its shard count; no row before the first load. */
export const CURRENT_GENERATION_SQL =
  'SELECT generation, schema_name, shards FROM public.store_meta';
