/** The cast of a staged (VARCHAR) value to its column's type in the store (duckdb-ddl.ts). */
import type { Column } from '../contract/tables.ts';

export function castExpression(column: Column): string {
  const value = column.name;
  switch (column.type.kind) {
    case 'date':
      return `CAST(${value} AS DATE)`;
    case 'timestamp':
      // The session runs in UTC, so an offset in the input is converted to UTC here.
      return `CAST(CAST(${value} AS TIMESTAMPTZ) AS TIMESTAMP)`;
    case 'money':
      return `CAST(${value} AS DECIMAL(18,2))`;
    case 'percent':
      return `CAST(${value} AS DECIMAL(9,4))`;
    case 'bool':
      return `coalesce(lower(${value}) = 'true', ${column.default ?? 'false'})`;
    case 'enum':
      return `CAST(${value} AS ${column.type.type})`;
    default:
      return column.default === undefined ? value : `coalesce(${value}, ${column.default})`;
  }
}
