/**
 * Spending rules 3 and 4 (domain/spending/rules.ts) as SQL over a transactions row that
 * carries its account's copied type (`account_type`, ingest/derive.ts). A row whose account is
 * missing has no type. DuckDB and PostgreSQL spell both fragments alike.
 */
import { EXCLUDED_ACCOUNT_TYPE, EXCLUDED_FLAGS } from '../../domain/spending/rules.ts';
import { sqlString } from './literals.ts';

/**
 * Whether the row's account is of the type rule 4 excludes, from its copied type: the listed
 * `is_investment_account` (false when the account is missing).
 */
export function investmentAccountSql(alias: string): string {
  return `coalesce(${alias}.account_type = ${sqlString(EXCLUDED_ACCOUNT_TYPE)}, false)`;
}

/** Whether the row counts: not hidden, not an internal transfer, not on an investment account. */
export function countedRowSql(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return [
    ...EXCLUDED_FLAGS.map((flag) => `NOT ${column(flag)}`),
    `${column('account_type')} <> ${sqlString(EXCLUDED_ACCOUNT_TYPE)}`,
  ].join(' AND ');
}
