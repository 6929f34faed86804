/**
 * Spending rules 3 and 4 (domain/spending/rules.ts) as SQL over a transactions row that
 * carries its account's copied type (`account_type`, ingest/derive.ts). A row whose account is
 * missing has no type. DuckDB and PostgreSQL spell both fragments alike.
 */

import { LEDGER_FLAGS } from '../contract/ledger.ts';
import { EXCLUDED_ACCOUNT_TYPE, EXCLUDED_FLAGS } from '../domain/spending/rules.ts';
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

/**
 * A transaction's flags as the working set holds them (LEDGER_FLAGS): the listed flags, the
 * platform flag, and whether the row counts as the engine's spending rollup counts it
 * (`countedRowSql`, and on DuckDB `ownAccount`: the copied account's user is the row's), as one
 * integer. DuckDB and PostgreSQL spell it alike.
 */
export function ledgerFlagsSql(alias: string, ownAccount?: string): string {
  const bit = (condition: string, value: number) =>
    `CASE WHEN ${condition} THEN ${value} ELSE 0 END`;
  const counted = ownAccount ? `${ownAccount} AND ${countedRowSql(alias)}` : countedRowSql(alias);
  return [
    bit(`${alias}.is_hidden`, LEDGER_FLAGS.hidden),
    bit(`${alias}.is_internal_transfer`, LEDGER_FLAGS.internalTransfer),
    bit(investmentAccountSql(alias), LEDGER_FLAGS.investmentAccount),
    bit(`${alias}.to_platform`, LEDGER_FLAGS.toPlatform),
    bit(counted, LEDGER_FLAGS.counted),
  ].join(' + ');
}
