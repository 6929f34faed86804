/** The user's credit and loan accounts, with their terms and latest balances. */
import { LIABILITY_ACCOUNT_TYPES } from '../../domain/taxonomy.ts';
import type { LiabilityReads, LiabilityRecord } from '../../port/read-port.ts';
import { accountTypesSql, latestBalancesSql } from './balances.ts';
import type { DuckDbPool } from './pool.ts';

/** $1 user. */
const LIABILITIES_SQL = `
  SELECT a.id AS account_id, a.name AS account_name, a.type AS account_type,
         a.subtype AS account_subtype, l.kind, l.apr, l.minimum_payment, l.next_payment_due_date,
         l.last_payment_amount, l.last_payment_date, l.original_principal,
         b.current AS current_balance, b.as_of
  FROM accounts a
  LEFT JOIN liabilities l ON l.account_id = a.id
  LEFT JOIN ${latestBalancesSql(['current', 'as_of'], LIABILITY_ACCOUNT_TYPES)} b
    ON b.account_id = a.id
  WHERE a.user_id = $1 AND a.type IN (${accountTypesSql(LIABILITY_ACCOUNT_TYPES)})
  ORDER BY a.id`;

export function liabilityReads(db: DuckDbPool): LiabilityReads {
  return {
    liabilities: (userId) =>
      db.query<LiabilityRecord & Record<string, unknown>>(LIABILITIES_SQL, [userId]),
  };
}
