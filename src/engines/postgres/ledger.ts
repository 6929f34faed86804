/**
 * A user's ledger (port/working-set/ledger.ts) read from the cluster: every transaction of the
 * user in the list's order, as one JSON text, in one statement. The rows are read on the user's
 * shard and ordered and aggregated on the coordinator (an ordered aggregate is never pushed
 * down), as a page's rows are.
 */
import type { LedgerReads, LedgerRow } from '../../port/working-set/ledger.ts';
import { ledgerFlagsSql } from '../../sql/counted.ts';
import type { PgPool } from './pool.ts';

export function ledgerReads(db: PgPool, s: string): LedgerReads {
  // $1 user, $2 the most rows read: one past the bound tells a user over it.
  const sql = `
    SELECT count(*) AS count,
      json_agg(json_build_array(t.id, t.external_id, t.account_id, t.transacted_at::text,
          t.amount::text, t.direction, t.description, t.merchant_name, t.category, t.subcategory,
          t.merchant_category_code, ${ledgerFlagsSql('t')})
        ORDER BY t.transacted_at DESC, t.id DESC)::text AS rows
    FROM (SELECT * FROM ${s}.transactions WHERE user_id = $1 LIMIT $2) t`;
  return {
    async ledgerRows(userId, maxRows) {
      const [row] = await db.query<{ count: string; rows: string | null }>(sql, [
        userId,
        maxRows + 1,
      ]);
      if (Number(row?.count ?? 0) > maxRows) return null;
      return row?.rows ? (JSON.parse(row.rows) as LedgerRow[]) : [];
    },
    whenIdle: () => db.whenIdle(),
  };
}
