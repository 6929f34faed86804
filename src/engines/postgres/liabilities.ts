/** The user's credit and loan accounts, with their terms and latest balances. */
import { LIABILITY_ACCOUNT_TYPES } from '../../domain/taxonomy.ts';
import type { LiabilityReads, LiabilityRecord } from '../../port/read-port.ts';
import { sqlString } from '../../sql/literals.ts';
import { latestSql } from './balances.ts';
import type { PgPool } from './pool.ts';

const LIABILITY_TYPES = LIABILITY_ACCOUNT_TYPES.map(sqlString).join(', ');

/** The statements of schema `s`. */
export function liabilityReads(db: PgPool, s: string): LiabilityReads {
  const liabilitiesSql = `SELECT a.id AS account_id, a.name AS account_name, a.type AS account_type,
            a.subtype AS account_subtype, l.kind, l.apr, l.minimum_payment,
            l.next_payment_due_date, l.last_payment_amount, l.last_payment_date,
            l.original_principal, b.current AS current_balance, b.as_of
     FROM ${s}.accounts a
     LEFT JOIN ${s}.liabilities l ON l.account_id = a.id AND l.user_id = $1
     LEFT JOIN ${latestSql(s, 'current, as_of')} b ON b.account_id = a.id
     WHERE a.user_id = $1 AND a.type IN (${LIABILITY_TYPES})
     ORDER BY a.id`;
  return {
    liabilities: (userId) =>
      db.query<LiabilityRecord & Record<string, unknown>>(liabilitiesSql, [userId]),
  };
}
