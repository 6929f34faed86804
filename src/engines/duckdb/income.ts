import type { IncomeReads, PayStatementRecord } from '../../port/read-port.ts';
import { countedRowSql } from '../../sql/counted.ts';
import type { DuckDbPool } from './pool.ts';

/** $1 user, $2 window start, $3 window end. */
const PAY_STATEMENTS_SQL = `
  SELECT p.link_id, l.name AS provider, p.employer, p.pay_date, p.gross_pay, p.net_pay
  FROM pay_statements p JOIN links l ON l.id = p.link_id AND l.user_id = $1
  WHERE p.user_id = $1 AND p.pay_date BETWEEN $2::DATE AND $3::DATE
  ORDER BY p.pay_date, p.id`;

/** The spending endpoint's income basis: CREDITs, not hidden, not transfers, not investment. */
const MONTHLY_INCOME_SQL = `
  SELECT date_trunc('month', t.transacted_at)::DATE AS month, sum(t.amount) AS total, count(*) AS count
  FROM transactions t
  WHERE t.user_id = $1 AND t.account_user_id = $1
    AND t.transacted_at BETWEEN $2::DATE AND $3::DATE
    AND t.direction = 'CREDIT' AND ${countedRowSql('t')}
  GROUP BY 1`;

export function incomeReads(db: DuckDbPool): IncomeReads {
  return {
    payStatements: (userId, window) =>
      db.query<PayStatementRecord & Record<string, unknown>>(PAY_STATEMENTS_SQL, [
        userId,
        window.start,
        window.end,
      ]),
    async monthlyIncome(userId, window) {
      const rows = await db.query<{ month: string; total: string; count: string }>(
        MONTHLY_INCOME_SQL,
        [userId, window.start, window.end],
      );
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
  };
}
