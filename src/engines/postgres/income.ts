import type { IncomeReads, PayStatementRecord } from '../../port/read-port.ts';
import { countedRowSql } from '../../sql/counted.ts';
import type { PgPool } from './pool.ts';

/** $1 user, $2 window start, $3 window end. */
const payStatementsSql = (s: string) => `
  SELECT p.link_id, l.name AS provider, p.employer, p.pay_date, p.gross_pay, p.net_pay
  FROM ${s}.pay_statements p JOIN ${s}.links l ON l.id = p.link_id AND l.user_id = $1
  WHERE p.user_id = $1 AND p.pay_date BETWEEN $2::date AND $3::date
  ORDER BY p.pay_date, p.id`;

/**
 * The spending endpoint's income basis: CREDITs, not hidden, not transfers, not investment.
 * Summed per day on the shard (a month's date_trunc is never pushed down), per month here.
 */
const monthlyIncomeSql = (s: string) => `
  SELECT date_trunc('month', day)::date AS month, sum(total) AS total, sum(count) AS count
  FROM (
    SELECT transacted_at AS day, sum(amount) AS total, count(*) AS count
    FROM ${s}.transactions
    WHERE user_id = $1 AND transacted_at BETWEEN $2::date AND $3::date
      AND direction = 'CREDIT' AND ${countedRowSql()}
    GROUP BY user_id, transacted_at) daily
  GROUP BY 1`;

/** The statements of schema `s`. */
export function incomeReads(db: PgPool, s: string): IncomeReads {
  const payStatements = payStatementsSql(s);
  const monthlyIncome = monthlyIncomeSql(s);
  return {
    payStatements: (userId, window) =>
      db.query<PayStatementRecord & Record<string, unknown>>(payStatements, [
        userId,
        window.start,
        window.end,
      ]),
    async monthlyIncome(userId, window) {
      const rows = await db.query<{ month: string; total: string; count: string }>(monthlyIncome, [
        userId,
        window.start,
        window.end,
      ]);
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
  };
}
