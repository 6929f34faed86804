import { Decimal } from 'decimal.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { formatMoney } from '../../http/money.ts';
import { paginated } from '../../http/pagination.ts';
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

/**
 * Totals of the days from $4 to $5 (the page's oldest and newest), over every matching transaction
 * of those days. The page is a run of the matching transactions in date order, so every day in
 * between that has one is on the page: these are exactly the page's days, each counted whole.
 */
const DAILY_TOTALS_SQL = `
  SELECT t.transacted_at AS date,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'DEBIT'), 0) AS debits,
         coalesce(sum(t.amount) FILTER (WHERE t.direction = 'CREDIT'), 0) AS credits,
         count(*) AS count
  FROM transactions t
  WHERE ${MATCHING} AND t.transacted_at BETWEEN $4::DATE AND $5::DATE
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
      const filters = [
        request.userId,
        query.transacted_at_from ?? null,
        query.transacted_at_to ?? null,
      ];
      const [{ rows, ...list }, accounts] = await Promise.all([
        paginated(
          request.url,
          query,
          ({ limit, offset }) =>
            app.store.query<TransactionRow>(PAGE_SQL, [...filters, limit, offset]),
          async () => {
            const [row] = await app.store.query<{ count: string }>(COUNT_SQL, filters);
            return Number(row?.count ?? 0);
          },
        ),
        userAccounts(app.store, request.userId),
      ]);
      // The page's days run from its last row to its first (newest first); none when empty.
      const newest = rows[0];
      const oldest = rows.at(-1);
      const dailyRows =
        newest && oldest
          ? await app.store.query<DailyTotalRow>(DAILY_TOTALS_SQL, [
              ...filters,
              oldest.transacted_at,
              newest.transacted_at,
            ])
          : [];
      return {
        ...list,
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
