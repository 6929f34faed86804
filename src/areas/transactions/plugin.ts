import { Decimal } from 'decimal.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { formatMoney } from '../../http/money.ts';
import { pageLinks, pageRequest } from '../../http/pagination.ts';
import { protectedResponses, validationResponse } from '../../http/schemas.ts';
import { userAccounts } from '../accounts.ts';
import { TransactionListQuery } from './query.ts';
import { type DailyTotal, type Transaction, TransactionListResponse } from './schemas.ts';

/** $1 user, $2 transacted_at_from, $3 transacted_at_to (either may be null). */
const MATCHING = `
  t.user_id = $1
  AND ($2::DATE IS NULL OR t.transacted_at >= $2::DATE)
  AND ($3::DATE IS NULL OR t.transacted_at <= $3::DATE)`;

/** $4 LIMIT (null: all), $5 OFFSET. */
const PAGE_SQL = `
  SELECT t.id, t.external_id, t.account_id, t.transacted_at, t.amount, t.direction,
         t.description, t.merchant_name, t.category, t.subcategory, t.merchant_category_code,
         t.is_hidden, t.is_internal_transfer,
         coalesce(a.type = 'investment', false) AS is_investment_account
  FROM transactions t
  LEFT JOIN accounts a ON a.id = t.account_id AND a.user_id = t.user_id
  WHERE ${MATCHING}
  ORDER BY t.transacted_at DESC, t.id DESC
  LIMIT $4 OFFSET $5`;

/** Totals of the days on the page, over every matching transaction of those days. */
const DAILY_TOTALS_SQL = `
  WITH page_days AS (
    SELECT DISTINCT transacted_at FROM (
      SELECT t.transacted_at FROM transactions t
      WHERE ${MATCHING}
      ORDER BY t.transacted_at DESC, t.id DESC
      LIMIT $4 OFFSET $5))
  SELECT t.transacted_at AS date,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'DEBIT'), 0) AS debits,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'CREDIT'), 0) AS credits,
         count(*) AS count
  FROM transactions t
  WHERE ${MATCHING} AND t.transacted_at IN (SELECT transacted_at FROM page_days)
  GROUP BY t.transacted_at
  ORDER BY t.transacted_at DESC`;

const COUNT_SQL = `SELECT count(*) AS count FROM transactions t WHERE ${MATCHING}`;

type TransactionRow = Omit<z.infer<typeof Transaction>, 'amount'> & { amount: string };
type DailyTotalRow = { date: string; debits: string; credits: string; count: string };

export const transactionsPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v2/users/transactions',
    {
      schema: {
        summary: 'List transactions',
        description:
          'Every transaction of the user, newest first: hidden ones, internal transfers and investment-account activity included and flagged. ' +
          'Pagination turns on when `page` or `page_size` is passed; without either, every matching transaction is returned and `next`/`previous` are null. ' +
          'A page past the end answers 200 with an empty list.',
        tags: ['transactions'],
        querystring: TransactionListQuery,
        response: { 200: TransactionListResponse, ...protectedResponses, ...validationResponse },
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageRequest(query);
      const filters = [
        request.userId,
        query.transacted_at_from ?? null,
        query.transacted_at_to ?? null,
      ];
      const window = [...filters, page?.pageSize ?? null, page?.offset ?? 0];
      const [rows, dailyRows, accounts, countRows] = await Promise.all([
        app.store.query<TransactionRow>(PAGE_SQL, window),
        app.store.query<DailyTotalRow>(DAILY_TOTALS_SQL, window),
        userAccounts(app.store, request.userId),
        page ? app.store.query<{ count: string }>(COUNT_SQL, filters) : undefined,
      ]);
      const count = countRows ? Number(countRows[0]?.count ?? 0) : rows.length;
      return {
        count,
        ...pageLinks(request.url, page, count),
        transactions: rows.map((row) => ({ ...row, amount: formatMoney(row.amount) })),
        accounts,
        daily_totals: dailyRows.map(dailyTotal),
      };
    },
  );
};

function dailyTotal(row: DailyTotalRow): z.infer<typeof DailyTotal> {
  return {
    date: row.date,
    debits: formatMoney(row.debits),
    credits: formatMoney(row.credits),
    net: formatMoney(new Decimal(row.credits).minus(row.debits)),
    count: Number(row.count),
  };
}
