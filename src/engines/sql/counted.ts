/**
 * Spending rules 3 and 4 (domain/spending/rules.ts) as one predicate over a transactions row
 * that carries its account's copied type (`account_type`, ingest/derive.ts): not hidden, not
 * an internal transfer, not on an investment account. A row whose account is missing has no
 * type and does not count. DuckDB and PostgreSQL spell it alike.
 */
import { EXCLUDED_ACCOUNT_TYPE, EXCLUDED_FLAGS } from '../../domain/spending/rules.ts';
import { sqlString } from './literals.ts';

export function countedRowSql(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return [
    ...EXCLUDED_FLAGS.map((flag) => `NOT ${column(flag)}`),
    `${column('account_type')} <> ${sqlString(EXCLUDED_ACCOUNT_TYPE)}`,
  ].join(' AND ');
}
