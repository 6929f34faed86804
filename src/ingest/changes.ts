/**
 * Change sets (docs/data-contract.md, "Change sets"): a folder of upserts (`<table>.csv` or
 * `.parquet`, matched on the table's key) and removals (`<table>.deleted.csv`, the key's
 * columns), applied to a published store as a new generation.
 *
 * What a change set does is worked out here, once for both engines, in a scratch DuckDB
 * database: the change files are staged as VARCHAR (as a build stages its input), the stored
 * rows the change set touches or depends on are read from the store (`cur.*`, by the engine's
 * StoreReader: a handful of key lookups, never the whole store), then the store as the change
 * set would leave it is checked against the contract with the build's own checks (the same
 * `file:line: reason` errors): the change rows' values, their references (looked up in the
 * resulting rows), and the stored rows whose parents the change set removes or replaces. Only
 * then is the delta derived (`delta.*`): the rows to remove and to add, transactions with their
 * derived columns (stored ones too when their account changed), the (user, day) groups whose
 * rollups are derived again, and the change log's entries. The engine's writer applies it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  type Column,
  keyColumns,
  TABLE_KEYS,
  TABLE_NAMES,
  TABLES,
  type TableName,
  USER_DATA_TABLES,
} from '../contract/tables.ts';
import { investmentAccountSql } from '../sql/counted.ts';
import { sqlString } from '../sql/literals.ts';
import { castExpression } from './cast.ts';
import { DERIVED_TRANSACTION_COLUMNS } from './derive.ts';
import { enumDdl, tableDdl } from './duckdb-ddl.ts';
import { countRows, findInputFiles, type InputFile, stage, stagedTable } from './inputs.ts';
import {
  BuildInputError,
  MAX_REPORTED_PROBLEMS,
  reportedProblems,
  rowLocations,
} from './problems.ts';
import { seconds } from './progress.ts';
import { validationSql } from './validate.ts';

/** A change set's removals: `<table>.deleted.csv`. */
export const DELETED_SUFFIX = '.deleted';

export interface ChangeInputs {
  upserts: Map<TableName, InputFile>;
  deletes: Map<TableName, InputFile>;
}

/** The staged removals of a table (its key's columns, VARCHAR). */
export const deletedTable = (table: TableName) => `staging.del_${table}`;
/** The stored rows the change set reads (typed, the store's columns). */
export const currentTable = (table: TableName) => `cur.${table}`;
/** Users, links and accounts as the change set leaves them, VARCHAR: what checks look up. */
const resultTable = (table: TableName) => `staging.res_${table}`;
/** Stored rows whose parent the change set removes or replaces, VARCHAR, to check again. */
const dependentTable = (table: TableName) => `staging.dep_${table}`;

/** Every file of a change set folder; none at all is an error. */
export async function findChangeInputs(dir: string): Promise<ChangeInputs> {
  const [upserts, deletes] = (await findInputFiles(dir, [
    { suffix: '', parquet: true, required: () => false },
    { suffix: DELETED_SUFFIX, parquet: false, required: () => false },
  ])) as [Map<TableName, InputFile>, Map<TableName, InputFile>];
  if (upserts.size === 0 && deletes.size === 0) {
    throw new BuildInputError([
      `${dir}: no change files (expected <table>.csv, <table>.parquet or <table>${DELETED_SUFFIX}.csv)`,
    ]);
  }
  return { upserts, deletes };
}

/**
 * The stored rows a change set needs, by table: a row is read when one of its conditions holds,
 * `columns` IN the key set `set` (a scratch view with one column `k`, or the same columns as
 * `columns` when there are several).
 */
export interface Condition {
  columns: readonly string[];
  set: string;
}

const want = (name: string) => `want.${name}`;

export const READ_CONDITIONS: Record<TableName, readonly Condition[]> = {
  users: [{ columns: ['id'], set: want('users') }],
  access_tokens: [{ columns: ['token_hash'], set: want('access_tokens') }],
  links: [
    { columns: ['id'], set: want('links') },
    { columns: ['user_id'], set: want('removed_users') },
  ],
  accounts: [
    { columns: ['id'], set: want('accounts') },
    { columns: ['user_id'], set: want('account_users') },
    { columns: ['link_id'], set: want('touched_links') },
  ],
  pay_statements: [
    { columns: ['id'], set: want('pay_statements') },
    { columns: ['user_id'], set: want('removed_users') },
    { columns: ['link_id'], set: want('touched_links') },
  ],
  transactions: [
    { columns: ['id'], set: want('transactions') },
    { columns: ['account_id'], set: want('touched_accounts') },
  ],
  balances: [
    { columns: ['account_id', 'as_of'], set: want('balances') },
    { columns: ['account_id'], set: want('touched_accounts') },
  ],
  liabilities: [
    { columns: ['account_id'], set: want('liabilities') },
    { columns: ['account_id'], set: want('touched_accounts') },
  ],
};

/**
 * The order in which stored rows are read: users, links and accounts first (a reader may use
 * the accounts read to find the users whose rows hold an account's transactions).
 */
export const READ_ORDER: readonly TableName[] = [
  'users',
  'access_tokens',
  'links',
  'accounts',
  'pay_statements',
  'transactions',
  'balances',
  'liabilities',
];

/** An engine's way of reading the stored rows a change set needs into `cur.<table>`. */
export interface StoreReader {
  read(conn: DuckDBConnection, table: TableName, conditions: readonly Condition[]): Promise<void>;
}

const staged = stagedTable;
const union = (parts: string[]) => parts.join(' UNION ');
const ids = (table: TableName, column = 'id') => `SELECT ${column} AS k FROM ${staged(table)}`;
const deletedIds = (table: TableName, column = 'id') =>
  `SELECT ${column} AS k FROM ${deletedTable(table)}`;

/** The key sets READ_CONDITIONS name, as views over the staged change files. */
function wantedSetsDdl(): string[] {
  const sets: Record<string, string> = {
    users: union([
      ids('users'),
      deletedIds('users'),
      ...(['links', 'accounts', 'transactions', 'pay_statements', 'access_tokens'] as const).map(
        (table) => ids(table, 'user_id'),
      ),
    ]),
    removed_users: deletedIds('users'),
    access_tokens: union([
      ids('access_tokens', 'token_hash'),
      deletedIds('access_tokens', 'token_hash'),
    ]),
    links: union([
      ids('links'),
      deletedIds('links'),
      ids('accounts', 'link_id'),
      ids('pay_statements', 'link_id'),
    ]),
    touched_links: union([ids('links'), deletedIds('links')]),
    accounts: union([
      ids('accounts'),
      deletedIds('accounts'),
      ids('transactions', 'account_id'),
      ids('balances', 'account_id'),
      deletedIds('balances', 'account_id'),
      ids('liabilities', 'account_id'),
      deletedIds('liabilities', 'account_id'),
    ]),
    account_users: ids('accounts', 'user_id'),
    touched_accounts: union([ids('accounts'), deletedIds('accounts')]),
    pay_statements: union([ids('pay_statements'), deletedIds('pay_statements')]),
    transactions: union([ids('transactions'), deletedIds('transactions')]),
    balances: `SELECT account_id, CAST(as_of AS DATE) AS as_of FROM ${staged('balances')}
      UNION SELECT account_id, CAST(as_of AS DATE) AS as_of FROM ${deletedTable('balances')}`,
    liabilities: union([ids('liabilities', 'account_id'), deletedIds('liabilities', 'account_id')]),
  };
  return [
    'CREATE SCHEMA want',
    ...Object.entries(sets).map(([name, sql]) => `CREATE VIEW ${want(name)} AS ${sql}`),
  ];
}

/** A key value of a staged (VARCHAR) row as the stored column's type. */
function typedKey(table: TableName, name: string, alias: string): string {
  const column = TABLES[table].columns.find((candidate) => candidate.name === name) as Column;
  return column.type.kind === 'date' ? `CAST(${alias}.${name} AS DATE)` : `${alias}.${name}`;
}

/** SQL: the stored row `alias` of `table` is upserted or removed by the change set. */
function replaced(table: TableName, alias: string): string {
  const match = (x: string) =>
    TABLE_KEYS[table].map((key) => `${typedKey(table, key, x)} = ${alias}.${key}`).join(' AND ');
  return `(EXISTS (SELECT 1 FROM ${staged(table)} x WHERE ${match('x')})
    OR EXISTS (SELECT 1 FROM ${deletedTable(table)} x WHERE ${match('x')}))`;
}

/** A stored row's contract columns as VARCHAR, as staged input holds them. */
const asStaged = (table: TableName, alias: string) =>
  TABLES[table].columns
    .map((column) => `CAST(${alias}.${column.name} AS VARCHAR) AS ${column.name}`)
    .join(', ');

/** A stored row's key, for messages: `'txn_1'`, `'acc_1' 2026-01-02`. */
const keyText = (table: TableName, alias: string) =>
  TABLE_KEYS[table]
    .map((key) => `'''' || CAST(${alias}.${key} AS VARCHAR) || ''''`)
    .join(" || ' ' || ");

const SINGULAR: Record<TableName, string> = {
  users: 'user',
  access_tokens: 'access token',
  links: 'link',
  accounts: 'account',
  transactions: 'transaction',
  balances: 'balance',
  pay_statements: 'pay statement',
  liabilities: 'liability',
};

/** A stored row's reference to a parent whose removal or replacement may break it. */
interface Dependency {
  table: TableName;
  column: string;
  parent: TableName;
  /** Replacing the parent can break the reference too (its user or type may change). */
  onReplace: boolean;
}

const DEPENDENCIES: readonly Dependency[] = [
  { table: 'links', column: 'user_id', parent: 'users', onReplace: false },
  { table: 'pay_statements', column: 'user_id', parent: 'users', onReplace: false },
  { table: 'accounts', column: 'link_id', parent: 'links', onReplace: true },
  { table: 'pay_statements', column: 'link_id', parent: 'links', onReplace: true },
  { table: 'transactions', column: 'account_id', parent: 'accounts', onReplace: true },
  { table: 'balances', column: 'account_id', parent: 'accounts', onReplace: true },
  { table: 'liabilities', column: 'account_id', parent: 'accounts', onReplace: true },
];

export interface ChangeSummary {
  /** Rows upserted and removed per table, as the files hold them. */
  upserted: Record<TableName, number>;
  removed: Record<TableName, number>;
  /** The change log's entries: transactions added, modified, removed, over how many users. */
  log: { added: number; modified: number; removed: number; users: number };
  /**
   * Whether applying it changes anything in the store (changesSomething, below). When not,
   * nothing is published: a new generation would change no answer and cost every server its
   * working set.
   */
  changesStore: boolean;
}

/** What applying a change set to either engine returns. */
export interface ApplyResult {
  /** The generation published, or the one still serving when nothing was. */
  generation: string;
  /** The change set's number in its lineage (the full build is 0); unchanged when unpublished. */
  seq: number;
  /** False when the change set changes nothing: no generation, no change log entry. */
  published: boolean;
  summary: ChangeSummary;
}

/**
 * Stages, reads, checks and derives a change set in the scratch database of `conn` (with a
 * `staging` database attached). Throws BuildInputError, naming `file:line: reason`, when the
 * store it would leave breaks the contract; otherwise leaves the delta in `delta.*`.
 * `tokenStore` names a table holding the token store's rows (at least those of the hashes the
 * change set names), or is undefined when there is no token store yet.
 */
export async function planChangeSet(
  conn: DuckDBConnection,
  inputs: ChangeInputs,
  reader: StoreReader,
  progress: (line: string) => void,
  tokenStore: string | undefined,
): Promise<ChangeSummary> {
  const upserted = await stage(conn, inputs.upserts, progress, {
    table: stagedTable,
  });
  const removed = await stage(conn, inputs.deletes, progress, {
    table: deletedTable,
    columns: keyColumns,
  });

  let started = performance.now();
  const early = await fileProblems(conn, inputs);
  if (early.length > 0) throw new BuildInputError(early);

  for (const statement of [
    ...enumDdl(),
    'CREATE SCHEMA cur',
    ...tableDdl({ transactions: DERIVED_TRANSACTION_COLUMNS }, 'cur'),
    ...wantedSetsDdl(),
  ]) {
    await conn.run(statement);
  }
  for (const table of READ_ORDER) await reader.read(conn, table, READ_CONDITIONS[table]);
  const read = await Promise.all(
    READ_ORDER.map(async (table) => `${table} ${await countRows(conn, currentTable(table))}`),
  );
  progress(`read the stored rows the change set touches: ${read.join(', ')} (${seconds(started)})`);

  started = performance.now();
  await resultTables(conn);
  const problems = await resultProblems(conn, inputs);
  if (problems.length > 0) throw new BuildInputError(problems);
  progress(`checked the store the change set leaves (${seconds(started)})`);

  started = performance.now();
  for (const statement of deltaSql()) await conn.run(statement);
  const [log] = (
    await conn.runAndReadAll(`SELECT count(*) FILTER (WHERE before IS NULL) AS added,
      count(*) FILTER (WHERE before IS NOT NULL AND after IS NOT NULL) AS modified,
      count(*) FILTER (WHERE after IS NULL) AS removed, count(DISTINCT user_id) AS users
      FROM delta.log`)
  ).getRowObjectsJson();
  progress(`derived the delta (${seconds(started)})`);
  return {
    upserted,
    removed,
    log: {
      added: Number(log?.added ?? 0),
      modified: Number(log?.modified ?? 0),
      removed: Number(log?.removed ?? 0),
      users: Number(log?.users ?? 0),
    },
    changesStore: await changesSomething(conn, tokenStore),
  };
}

/**
 * Whether the planned delta changes anything: a table's rows the change set removes or
 * replaces (derived columns included) differ from the rows it writes, or the token store would
 * change. Tokens are judged by the token store, as they are merged into it: an upserted hash
 * changes it when it is new there, or revoked in the change set and not there; a removed hash
 * when the token store holds it unrevoked. Equal rows leave the rollups and the change log as
 * they are, since both are derived from the rows.
 */
async function changesSomething(
  conn: DuckDBConnection,
  tokenStore: string | undefined,
): Promise<boolean> {
  const tokens =
    tokenStore ?? '(SELECT NULL::VARCHAR AS token_hash, NULL::TIMESTAMP AS revoked_at LIMIT 0)';
  const differ = TABLE_NAMES.filter((table) => table !== 'access_tokens').map((table) => {
    const columns = [
      ...TABLES[table].columns.map((column) => column.name),
      ...(table === 'transactions' ? DERIVED_TRANSACTION_COLUMNS.map((column) => column.name) : []),
    ].join(', ');
    const gone = `SELECT ${columns} FROM delta.gone_${table}`;
    const written = `SELECT ${columns} FROM delta.new_${table}`;
    return `EXISTS (${gone} EXCEPT ALL ${written}) OR EXISTS (${written} EXCEPT ALL ${gone})`;
  });
  differ.push(
    `EXISTS (SELECT 1 FROM delta.new_access_tokens n LEFT JOIN ${tokens} t ON t.token_hash = n.token_hash
       WHERE t.token_hash IS NULL OR (t.revoked_at IS NULL AND n.revoked_at IS NOT NULL))`,
    `EXISTS (SELECT 1 FROM ${deletedTable('access_tokens')} d JOIN ${tokens} t ON t.token_hash = d.token_hash
       WHERE t.revoked_at IS NULL)`,
  );
  const [row] = (
    await conn.runAndReadAll(`SELECT ${differ.map((part) => `(${part})`).join(' OR ')} AS changes`)
  ).getRowObjectsJson();
  return row?.changes === true;
}

/** What the change files hold wrong on their own: bad values, keys both upserted and removed. */
async function fileProblems(conn: DuckDBConnection, inputs: ChangeInputs): Promise<string[]> {
  const problems: string[] = [];
  const room = () => MAX_REPORTED_PROBLEMS - problems.length;
  for (const table of TABLE_NAMES) {
    const upsert = inputs.upserts.get(table);
    if (upsert && room() > 0) {
      problems.push(
        ...(await reportedProblems(
          conn,
          upsert,
          validationSql(table, room(), { crossChecks: false }),
        )),
      );
    }
    const removal = inputs.deletes.get(table);
    if (!removal || room() <= 0) continue;
    problems.push(
      ...(await reportedProblems(
        conn,
        removal,
        validationSql(table, room(), {
          source: deletedTable(table),
          columns: keyColumns(table),
          crossChecks: false,
        }),
      )),
    );
    if (!upsert || room() <= 0) continue;
    const match = TABLE_KEYS[table].map((key) => `x.${key} = s.${key}`).join(' AND ');
    problems.push(
      ...(await reportedProblems(
        conn,
        removal,
        `SELECT s.rowid AS row_index,
           ${keyText(table, 's')} || ${sqlString(` is both removed here and upserted in ${upsert.file}; a change set does one or the other`)} AS reason,
           NULL AS related_row
         FROM ${deletedTable(table)} s WHERE EXISTS (SELECT 1 FROM ${staged(table)} x WHERE ${match})
         ORDER BY row_index LIMIT ${room()}`,
      )),
    );
  }
  return problems;
}

/** Users, links and accounts as the change set leaves them (stored rows first), VARCHAR. */
async function resultTables(conn: DuckDBConnection): Promise<void> {
  for (const table of ['users', 'links', 'accounts'] as const) {
    await conn.run(
      `CREATE TABLE ${resultTable(table)} AS SELECT ${asStaged(table, 'c')}
       FROM ${currentTable(table)} c WHERE NOT ${replaced(table, 'c')}`,
    );
    await conn.run(`INSERT INTO ${resultTable(table)} SELECT * FROM ${staged(table)}`);
  }
}

/**
 * The contract checked on the store the change set leaves: the references and duplicates of
 * the change rows, then every stored row that refers to a row the change set removes or
 * replaces (reported at the change that breaks it).
 */
async function resultProblems(conn: DuckDBConnection, inputs: ChangeInputs): Promise<string[]> {
  const problems: string[] = [];
  const room = () => MAX_REPORTED_PROBLEMS - problems.length;
  const lookup = (table: TableName) => resultTable(table);
  for (const table of TABLE_NAMES) {
    const upsert = inputs.upserts.get(table);
    if (!upsert || room() <= 0) continue;
    problems.push(
      ...(await reportedProblems(
        conn,
        upsert,
        validationSql(table, room(), { lookup, columns: [] }),
      )),
    );
  }
  for (const table of new Set(DEPENDENCIES.map((dependency) => dependency.table))) {
    if (room() <= 0) break;
    await dependentRows(conn, table);
    // Every stored row a change breaks is found; each change is named once, with the first.
    const all = validationSql(table, 2 ** 62, {
      source: dependentTable(table),
      lookup,
      columns: [],
    });
    const rows = (
      await conn.runAndReadAll(
        `SELECT d.blame_table, d.blame_kind, d.blame_row, count(*) AS rows,
           arg_min(${keyText(table, 'd')}, p.row_index) AS key, arg_min(p.reason, p.row_index) AS reason
         FROM (${all}) p JOIN ${dependentTable(table)} d ON d.rowid = p.row_index
         GROUP BY ALL ORDER BY min(p.row_index) LIMIT ${room()}`,
      )
    ).getRowObjectsJson();
    for (const row of rows) {
      const parent = String(row.blame_table) as TableName;
      const input = (row.blame_kind === 'deleted' ? inputs.deletes : inputs.upserts).get(parent);
      if (!input) continue;
      const index = Number(row.blame_row);
      const { where } = await rowLocations(input, new Set([index]));
      const more = Number(row.rows) - 1;
      const others = more > 0 ? ` (and ${more} more stored ${TABLES[table].name})` : '';
      problems.push(
        `${where(index)}: this change leaves the stored ${SINGULAR[table]} ${String(row.key)} invalid: ${String(row.reason)}${others}`,
      );
    }
  }
  return problems;
}

/** The stored rows of `table` that stay and refer to a parent the change set touches. */
async function dependentRows(conn: DuckDBConnection, table: TableName): Promise<void> {
  const target = dependentTable(table);
  await conn.run(
    `CREATE TABLE ${target} AS SELECT ${asStaged(table, 'c')}, CAST(NULL AS VARCHAR) AS blame_table,
       CAST(NULL AS VARCHAR) AS blame_kind, CAST(NULL AS BIGINT) AS blame_row
     FROM ${currentTable(table)} c WHERE false`,
  );
  const sameKey = TABLE_KEYS[table]
    .map((key) => `CAST(c.${key} AS VARCHAR) = d.${key}`)
    .join(' AND ');
  for (const dependency of DEPENDENCIES.filter((candidate) => candidate.table === table)) {
    const sources = [
      { kind: 'deleted', table: deletedTable(dependency.parent) },
      ...(dependency.onReplace ? [{ kind: 'upsert', table: staged(dependency.parent) }] : []),
    ];
    for (const source of sources) {
      await conn.run(
        `INSERT INTO ${target}
         SELECT ${asStaged(table, 'c')}, ${sqlString(dependency.parent)}, ${sqlString(source.kind)},
           min(p.rowid)
         FROM ${currentTable(table)} c JOIN ${source.table} p ON p.id = c.${dependency.column}
         WHERE NOT ${replaced(table, 'c')}
           AND NOT EXISTS (SELECT 1 FROM ${target} d WHERE ${sameKey})
         GROUP BY ALL`,
      );
    }
  }
}

/** The cast (typed) rows of a staged table, in the contract's column order. */
const castRows = (table: TableName) =>
  `SELECT ${TABLES[table].columns
    .map((column) => `${castExpression(column)} AS ${column.name}`)
    .join(', ')} FROM ${staged(table)}`;

/**
 * A transaction as the list shows it, as JSON text (the change log's images): the same
 * expression for every image, so two images are equal exactly when the listed rows are.
 */
export const LISTED_IMAGE = (alias: string) => `CAST(to_json({
  'id': ${alias}.id, 'external_id': ${alias}.external_id, 'account_id': ${alias}.account_id,
  'transacted_at': CAST(${alias}.transacted_at AS VARCHAR), 'amount': CAST(${alias}.amount AS VARCHAR),
  'direction': CAST(${alias}.direction AS VARCHAR), 'description': ${alias}.description,
  'merchant_name': ${alias}.merchant_name, 'category': CAST(${alias}.category AS VARCHAR),
  'subcategory': ${alias}.subcategory, 'merchant_category_code': ${alias}.merchant_category_code,
  'is_hidden': ${alias}.is_hidden, 'is_internal_transfer': ${alias}.is_internal_transfer,
  'is_investment_account': ${investmentAccountSql(alias)}}) AS VARCHAR)`;

/**
 * The delta, typed as the store holds it: `delta.gone_<table>` the stored rows removed or
 * replaced, `delta.new_<table>` the rows added (transactions with their derived columns,
 * stored ones included when their account changed), `delta.accounts` every account the new
 * rows refer to as it will be, `delta.days` / `delta.months` the (user, day) and (user, month)
 * groups whose rollups change, `delta.removed_users`, `delta.changed_tables` the users' other
 * tables changed, and `delta.log` the change log's entries.
 */
function deltaSql(): string[] {
  const statements = ['CREATE SCHEMA delta'];
  for (const table of TABLE_NAMES) {
    if (table === 'transactions') continue;
    statements.push(
      `CREATE TABLE delta.gone_${table} AS SELECT c.* FROM ${currentTable(table)} c WHERE ${replaced(table, 'c')}`,
      `CREATE TABLE delta.new_${table} AS ${castRows(table)}`,
    );
  }
  const contract = TABLES.transactions.columns.map((column) => column.name).join(', ');
  const derived = DERIVED_TRANSACTION_COLUMNS.map(
    (column) => `${column.expression} AS ${column.name}`,
  ).join(', ');
  // A stored transaction whose account is replaced is derived again (its account's facts).
  const refreshed = `c.account_id IN (SELECT id FROM ${staged('accounts')})`;
  statements.push(
    `CREATE TABLE delta.accounts AS
     SELECT c.* FROM ${currentTable('accounts')} c WHERE NOT ${replaced('accounts', 'c')}
     UNION ALL SELECT * FROM delta.new_accounts`,
    `CREATE TABLE delta.gone_transactions AS SELECT c.* FROM ${currentTable('transactions')} c
     WHERE ${replaced('transactions', 'c')} OR ${refreshed}`,
    `CREATE TABLE delta.new_transactions AS
     SELECT t.*, ${derived}
     FROM (${castRows('transactions')}
           UNION ALL SELECT ${contract} FROM ${currentTable('transactions')} c
           WHERE NOT ${replaced('transactions', 'c')} AND ${refreshed}) t
     LEFT JOIN delta.accounts a ON a.id = t.account_id`,
    `CREATE TABLE delta.days AS SELECT DISTINCT user_id, transacted_at AS day FROM (
       SELECT user_id, transacted_at FROM delta.gone_transactions
       UNION ALL SELECT user_id, transacted_at FROM delta.new_transactions)`,
    `CREATE TABLE delta.months AS SELECT DISTINCT user_id, date_trunc('month', day)::DATE AS month
     FROM delta.days`,
    `CREATE TABLE delta.removed_users AS SELECT id FROM ${deletedTable('users')}`,
    changedTablesSql(),
    `CREATE TABLE delta.log AS
     WITH b AS (SELECT user_id, id, ${LISTED_IMAGE('g')} AS image FROM delta.gone_transactions g),
     a AS (SELECT user_id, id, ${LISTED_IMAGE('n')} AS image FROM delta.new_transactions n)
     SELECT coalesce(b.user_id, a.user_id) AS user_id, coalesce(b.id, a.id) AS id,
       b.image AS before, a.image AS after
     FROM b FULL OUTER JOIN a ON a.user_id = b.user_id AND a.id = b.id
     WHERE b.image IS DISTINCT FROM a.image
     ORDER BY user_id, id`,
  );
  return statements;
}

/**
 * `delta.changed_tables`: each (user, table) of USER_DATA_TABLES but transactions (the change
 * log says those) whose rows the change set changes. A table's rows of a user are compared as
 * they are stored and as they will be: the stored rows read (every row a changed key or a
 * touched parent reaches), and those that stay plus the new ones. A row belongs to its user, or
 * to its account's user (balances, liabilities), so a row moved to another user, or whose
 * account moved, changes both users' tables; an upsert equal to the stored row changes none.
 */
function changedTablesSql(): string {
  const parts = USER_DATA_TABLES.filter((table) => table !== 'transactions').map((table) => {
    const columns = TABLES[table].columns.map((column) => `r.${column.name}`).join(', ');
    const byAccount = !TABLES[table].columns.some((column) => column.name === 'user_id');
    const owner = (accounts: string) =>
      byAccount ? `(SELECT a.user_id FROM ${accounts} a WHERE a.id = r.account_id)` : 'r.user_id';
    const before = `SELECT ${owner(currentTable('accounts'))} AS user_id, ${columns}
      FROM ${currentTable(table)} r`;
    const after = `SELECT ${owner('delta.accounts')} AS user_id, ${columns} FROM (
        SELECT * FROM ${currentTable(table)} c WHERE NOT ${replaced(table, 'c')}
        UNION ALL SELECT * FROM delta.new_${table}) r`;
    return `SELECT DISTINCT user_id, ${sqlString(table)} AS table_name FROM (
        SELECT * FROM (${before} EXCEPT ALL ${after})
        UNION ALL SELECT * FROM (${after} EXCEPT ALL ${before})) d
      WHERE user_id IS NOT NULL`;
  });
  return `CREATE TABLE delta.changed_tables AS ${parts.join('\n UNION ALL ')}`;
}

/** The token hashes a planned change set's `access_tokens.deleted.csv` names: revoked. */
export async function removedTokens(conn: DuckDBConnection): Promise<string[]> {
  const rows = (
    await conn.runAndReadAll(`SELECT token_hash FROM ${deletedTable('access_tokens')}`)
  ).getRowObjectsJson();
  return rows.map((row) => String(row.token_hash));
}

/** How long the change log is kept: a number of change sets, or of days. */
export type LogSpan = { changeSets: number } | { days: number };

/** The default span: a month of daily change sets, for clients that sync at least monthly. */
export const DEFAULT_LOG_SPAN: LogSpan = { days: 31 };

/** `--keep-log` as given: `40` (change sets) or `31d` (days); undefined when malformed. */
export function parseLogSpan(text: string): LogSpan | undefined {
  const match = /^(\d{1,6})(d?)$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  if (value < 1) return undefined;
  return match[2] === 'd' ? { days: value } : { changeSets: value };
}
