/**
 * A user's ledger (port/working-set/ledger.ts) read from the store: every transaction of the
 * user in the list's order, as one JSON text (DuckDbPool.queryJson's reason), in one statement.
 * The user is written into the statement as a literal: DuckDB plans a constant filter on the
 * sorted `user_id` column into a scan of the user's few row groups for less than a bound
 * parameter costs it (measured in docs/performance.md).
 */
import type { LedgerReads, LedgerRow } from '../../port/working-set/ledger.ts';
import { ledgerFlagsSql } from '../sql/counted.ts';
import { sqlString } from '../sql/literals.ts';
import type { DuckDbPool } from './pool.ts';

/** One row as a list of text, in LedgerRow's order (a DuckDB list holds one type). */
const ROW = `[t.id, t.external_id, t.account_id, t.transacted_at::VARCHAR, t.amount::VARCHAR,
    t.direction::VARCHAR, t.description, t.merchant_name, t.category::VARCHAR, t.subcategory,
    t.merchant_category_code,
    (${ledgerFlagsSql('t', 't.account_user_id = t.user_id')})::VARCHAR]`;

export function ledgerReads(db: DuckDbPool): LedgerReads {
  return {
    async ledgerRows(userId, maxRows) {
      // At most one row past the bound is read: enough to know the user is over it.
      const [row] = await db.query<{ count: number | bigint; rows: string | null }>(
        `SELECT count(*) AS count,
           to_json(list(${ROW} ORDER BY t.transacted_at DESC, t.id DESC)) AS rows
         FROM (SELECT * FROM transactions WHERE user_id = ${sqlString(userId)}
               LIMIT ${maxRows + 1}) t`,
      );
      if (Number(row?.count ?? 0) > maxRows) return null;
      return row?.rows ? (JSON.parse(row.rows) as LedgerRow[]) : [];
    },
  };
}
