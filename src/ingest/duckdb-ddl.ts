/**
 * The DuckDB store's DDL, from the contract's tables: the built store's, and that of the stored
 * rows a change set reads into its scratch database on either engine (changes.ts).
 */
import {
  CHANGE_LOG_TABLE,
  CHANGE_SETS_TABLE,
  CHANGED_TABLES_TABLE,
  type ColumnKind,
  ENUM_TYPES,
  STORE_META_TABLE,
  TABLE_NAMES,
  TABLES,
  type TableName,
} from '../contract/tables.ts';
import { sqlString } from '../sql/literals.ts';

export function duckdbType(type: ColumnKind): string {
  switch (type.kind) {
    case 'id':
    case 'text':
    case 'currency':
    case 'sha256':
      return 'VARCHAR';
    case 'date':
      return 'DATE';
    case 'timestamp':
      return 'TIMESTAMP';
    case 'money':
      return 'DECIMAL(18,2)';
    case 'percent':
      return 'DECIMAL(9,4)';
    case 'bool':
      return 'BOOLEAN';
    case 'enum':
      return type.type;
  }
}

/**
 * Columns the builder adds after a table's contract columns (never read from input; see
 * derive.ts for what they hold).
 */
export interface StoredExtraColumn {
  name: string;
  type: string;
}

/** DDL of the whole store: ENUM types, the contract's tables (plus derived columns), then `store_meta`. */
export function schemaDdl(
  extraColumns: Partial<Record<TableName, readonly StoredExtraColumn[]>> = {},
): string[] {
  return [...enumDdl(), ...tableDdl(extraColumns), ...metaDdl()];
}

/** The ENUM types of the store. */
export function enumDdl(): string[] {
  return Object.entries(ENUM_TYPES).map(
    ([name, values]) => `CREATE TYPE ${name} AS ENUM (${values.map(sqlString).join(', ')})`,
  );
}

/** The contract's tables (plus derived columns), optionally in another schema. */
export function tableDdl(
  extraColumns: Partial<Record<TableName, readonly StoredExtraColumn[]>> = {},
  schema = '',
): string[] {
  return TABLE_NAMES.map((name) => {
    const columns = TABLES[name].columns.map((column) => {
      const notNull = column.required || column.default !== undefined ? ' NOT NULL' : '';
      return `  ${column.name} ${duckdbType(column.type)}${notNull}`;
    });
    for (const extra of extraColumns[name] ?? []) columns.push(`  ${extra.name} ${extra.type}`);
    return `CREATE TABLE ${schema ? `${schema}.` : ''}${name} (\n${columns.join(',\n')}\n)`;
  });
}

function metaDdl(): string[] {
  // platform_rules: the fingerprint of the rules behind transactions.to_platform (derive.ts);
  // format_version: contract/store-format.ts. lineage: the generation of the full build this
  // store descends from by change sets; seq: how many change sets were applied since;
  // log_floor: the oldest seq the change log still covers; cursor_key: the secret sync cursors
  // are signed with (kept across builds).
  const meta = `CREATE TABLE ${STORE_META_TABLE} (generation VARCHAR NOT NULL, built_at TIMESTAMP NOT NULL, source VARCHAR NOT NULL, platform_rules VARCHAR NOT NULL, format_version INTEGER NOT NULL, lineage VARCHAR, seq INTEGER, log_floor INTEGER, cursor_key VARCHAR)`;
  const log = `CREATE TABLE ${CHANGE_LOG_TABLE} (seq INTEGER NOT NULL, user_id VARCHAR NOT NULL, id VARCHAR NOT NULL, before VARCHAR, after VARCHAR)`;
  const sets = `CREATE TABLE ${CHANGE_SETS_TABLE} (seq INTEGER NOT NULL, generation VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL, source VARCHAR NOT NULL)`;
  const tables = `CREATE TABLE ${CHANGED_TABLES_TABLE} (seq INTEGER NOT NULL, user_id VARCHAR NOT NULL, table_name VARCHAR NOT NULL)`;
  return [meta, log, sets, tables];
}
