/**
 * The analytical store's tables, as data (docs: docs/data-contract.md).
 * The builder derives DDL, CSV column checks and casts from these definitions, so a
 * column is described once.
 */
import {
  ACCOUNT_TYPES,
  CATEGORIES,
  DIRECTIONS,
  LIABILITY_KINDS,
  LINK_STATUSES,
  LINK_TYPES,
} from '../domain/taxonomy.ts';

/** DuckDB ENUM types: grouping by an ENUM is markedly cheaper than by VARCHAR. */
export const ENUM_TYPES = {
  category: CATEGORIES,
  direction: DIRECTIONS,
  account_type: ACCOUNT_TYPES,
  link_type: LINK_TYPES,
  link_status: LINK_STATUSES,
  liability_kind: LIABILITY_KINDS,
} as const;
export type EnumTypeName = keyof typeof ENUM_TYPES;

/** Every id column (primary or referencing) holds at most this many characters. */
export const MAX_ID_LENGTH = 32;

/**
 * Whether `value` can be an id the store holds (docs/data-contract.md): text of 1 to
 * MAX_ID_LENGTH characters (code points, as the build counts them), without U+0000, and well
 * formed (a lone surrogate is no text a UTF-8 file holds).
 */
export function isContractId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2 * MAX_ID_LENGTH) {
    return false;
  }
  // In a `u` pattern a surrogate pair is one character: \p{Cs} finds only a lone half.
  if (value.includes('\0') || /\p{Cs}/u.test(value)) return false;
  let characters = 0;
  for (const _character of value) characters++;
  return characters <= MAX_ID_LENGTH;
}

export type ColumnKind =
  | { kind: 'id' }
  | { kind: 'text' }
  | { kind: 'date' }
  | { kind: 'timestamp' }
  /** `sign`: what the contract allows; balances may be negative, amounts must be > 0. */
  | { kind: 'money'; sign: 'positive' | 'non-negative' | 'any' }
  | { kind: 'percent' }
  | { kind: 'bool' }
  | { kind: 'enum'; type: EnumTypeName }
  | { kind: 'currency' }
  | { kind: 'sha256' };

export interface Column {
  name: string;
  type: ColumnKind;
  /** Must be present in the input and non-empty on every row. */
  required: boolean;
  /** SQL literal used when the column is absent or empty (implies not required). */
  default?: string;
}

export interface Table {
  name: TableName;
  columns: readonly Column[];
  /** The builder refuses to run without this table's file. */
  requiredInput: boolean;
}

export const TABLE_NAMES = [
  'users',
  'access_tokens',
  'links',
  'accounts',
  'transactions',
  'balances',
  'pay_statements',
  'liabilities',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

const id = (name: string): Column => ({ name, type: { kind: 'id' }, required: true });
const text = (name: string, required = true): Column => ({
  name,
  type: { kind: 'text' },
  required,
});
const date = (name: string, required = true): Column => ({
  name,
  type: { kind: 'date' },
  required,
});
const timestamp = (name: string, required = true): Column => ({
  name,
  type: { kind: 'timestamp' },
  required,
});
const money = (
  name: string,
  sign: 'positive' | 'non-negative' | 'any',
  required = true,
): Column => ({ name, type: { kind: 'money', sign }, required });
const enumColumn = (name: string, type: EnumTypeName): Column => ({
  name,
  type: { kind: 'enum', type },
  required: true,
});
const flag = (name: string): Column => ({
  name,
  type: { kind: 'bool' },
  required: false,
  default: 'false',
});

export const TABLES: Record<TableName, Table> = {
  users: {
    name: 'users',
    requiredInput: true,
    columns: [id('id'), text('name'), text('email'), text('phone', false), timestamp('created_at')],
  },
  access_tokens: {
    name: 'access_tokens',
    requiredInput: false,
    columns: [
      { name: 'token_hash', type: { kind: 'sha256' }, required: true },
      id('user_id'),
      text('name', false),
      timestamp('created_at'),
      timestamp('expires_at', false),
      timestamp('revoked_at', false),
    ],
  },
  links: {
    name: 'links',
    requiredInput: true,
    columns: [
      id('id'),
      id('user_id'),
      enumColumn('type', 'link_type'),
      text('name'),
      enumColumn('status', 'link_status'),
      timestamp('created_at'),
      timestamp('last_synced_at', false),
    ],
  },
  accounts: {
    name: 'accounts',
    requiredInput: true,
    columns: [
      id('id'),
      id('user_id'),
      id('link_id'),
      text('name'),
      text('mask', false),
      enumColumn('type', 'account_type'),
      text('subtype', false),
      { name: 'currency', type: { kind: 'currency' }, required: false, default: "'USD'" },
    ],
  },
  transactions: {
    name: 'transactions',
    requiredInput: true,
    columns: [
      id('id'),
      text('external_id', false),
      id('user_id'),
      id('account_id'),
      date('transacted_at'),
      money('amount', 'positive'),
      enumColumn('direction', 'direction'),
      text('description'),
      text('merchant_name', false),
      enumColumn('category', 'category'),
      text('subcategory', false),
      text('merchant_category_code', false),
      flag('is_hidden'),
      flag('is_internal_transfer'),
    ],
  },
  balances: {
    name: 'balances',
    requiredInput: false,
    columns: [
      id('account_id'),
      date('as_of'),
      money('current', 'any'),
      money('available', 'any', false),
      money('credit_limit', 'non-negative', false),
    ],
  },
  pay_statements: {
    name: 'pay_statements',
    requiredInput: false,
    columns: [
      id('id'),
      id('user_id'),
      id('link_id'),
      text('employer'),
      date('pay_date'),
      date('period_start', false),
      date('period_end', false),
      money('gross_pay', 'non-negative'),
      money('net_pay', 'non-negative'),
    ],
  },
  liabilities: {
    name: 'liabilities',
    requiredInput: false,
    columns: [
      id('account_id'),
      enumColumn('kind', 'liability_kind'),
      { name: 'apr', type: { kind: 'percent' }, required: false },
      money('minimum_payment', 'non-negative', false),
      date('next_payment_due_date', false),
      money('last_payment_amount', 'non-negative', false),
      date('last_payment_date', false),
      money('original_principal', 'non-negative', false),
    ],
  },
};

/** Column names per table, in the contract's order. */
export const COLUMNS = Object.fromEntries(
  TABLE_NAMES.map((table) => [table, TABLES[table].columns.map((column) => column.name)]),
) as unknown as Record<TableName, readonly string[]>;

export const STORE_META_TABLE = 'store_meta';

/**
 * Each table's key: what a change set's rows are matched on (an upsert replaces the stored row
 * with the same key, `<table>.deleted.csv` names keys to remove). Unique in a store.
 */
export const TABLE_KEYS: Record<TableName, readonly string[]> = {
  users: ['id'],
  access_tokens: ['token_hash'],
  links: ['id'],
  accounts: ['id'],
  transactions: ['id'],
  balances: ['account_id', 'as_of'],
  pay_statements: ['id'],
  liabilities: ['account_id'],
};

/** The key's columns of a table, as the contract defines them. */
export function keyColumns(table: TableName): Column[] {
  return TABLE_KEYS[table].map(
    (name) => TABLES[table].columns.find((column) => column.name === name) as Column,
  );
}

/**
 * The change log (ingest/changes.ts): per applied change set (`seq`), per user, each transaction
 * whose listed form changed, as it was before (`before`, null when absent) and after (`after`,
 * null when removed), each the listed row as JSON text. `change_sets` names each applied one.
 */
export const CHANGE_LOG_TABLE = 'change_log';
export const CHANGE_SETS_TABLE = 'change_sets';

/**
 * A user's data as a change tells it (the event stream's `tables`), in the contract's order:
 * every table of the user's but the profile and the tokens.
 */
export const USER_DATA_TABLES = [
  'links',
  'accounts',
  'transactions',
  'balances',
  'pay_statements',
  'liabilities',
] as const satisfies readonly TableName[];
export type UserDataTable = (typeof USER_DATA_TABLES)[number];

/**
 * Beside the change log (which holds the transactions' images): per applied change set (`seq`),
 * per user, each other table of USER_DATA_TABLES whose rows of the user's the change set
 * changed (`table_name`). Kept as long as the change log.
 */
export const CHANGED_TABLES_TABLE = 'changed_tables';

/** Physical order of each table: a user's rows share few row groups, so zone maps prune. */
export const TABLE_ORDER: Record<TableName, string> = {
  users: 'id',
  access_tokens: 'user_id, created_at',
  links: 'user_id, id',
  accounts: 'user_id, id',
  transactions: 'user_id, transacted_at, id',
  balances: 'account_id, as_of',
  pay_statements: 'user_id, pay_date, id',
  liabilities: 'account_id',
};
