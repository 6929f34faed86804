/** The DuckDB store's DDL, from the contract's tables. */
import {
  type ColumnKind,
  ENUM_TYPES,
  STORE_META_TABLE,
  TABLE_NAMES,
  TABLES,
  type TableName,
} from '../contract/tables.ts';
import { sqlString } from '../engines/sql/literals.ts';

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
  const enums = Object.entries(ENUM_TYPES).map(
    ([name, values]) => `CREATE TYPE ${name} AS ENUM (${values.map(sqlString).join(', ')})`,
  );
  const tables = TABLE_NAMES.map((name) => {
    const columns = TABLES[name].columns.map((column) => {
      const notNull = column.required || column.default !== undefined ? ' NOT NULL' : '';
      return `  ${column.name} ${duckdbType(column.type)}${notNull}`;
    });
    for (const extra of extraColumns[name] ?? []) columns.push(`  ${extra.name} ${extra.type}`);
    return `CREATE TABLE ${name} (\n${columns.join(',\n')}\n)`;
  });
  // platform_rules: the fingerprint of the rules behind transactions.to_platform (derive.ts);
  // format_version: contract/store-format.ts.
  const meta = `CREATE TABLE ${STORE_META_TABLE} (generation VARCHAR NOT NULL, built_at TIMESTAMP NOT NULL, source VARCHAR NOT NULL, platform_rules VARCHAR NOT NULL, format_version INTEGER NOT NULL)`;
  return [...enums, ...tables, meta];
}
