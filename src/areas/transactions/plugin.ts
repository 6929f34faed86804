import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { exact, formatMoney } from '../../domain/money.ts';
import { paginated } from '../../http/pagination.ts';
import { protectedResponses, validationResponse } from '../../http/schemas.ts';
import type { DailyTotalRecord } from '../../port/read-port.ts';
import { TransactionListQuery } from './query.ts';
import { type DailyTotal, TransactionListResponse } from './schemas.ts';

export const transactionsPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v2/users/transactions',
    {
      schema: {
        operationId: 'listTransactions',
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
      const { userId, store } = request;
      const filters = {
        from: request.query.transacted_at_from ?? null,
        to: request.query.transacted_at_to ?? null,
      };
      const [{ rows, dailyTotals, ...list }, accounts] = await Promise.all([
        paginated(request, (page) => store.transactions(userId, filters, page)),
        store.accounts(userId),
      ]);
      return {
        ...list,
        transactions: rows.map((row) => ({ ...row, amount: formatMoney(row.amount) })),
        accounts,
        daily_totals: dailyTotals.map(dailyTotal),
      };
    },
  );
};

function dailyTotal(row: DailyTotalRecord): z.infer<typeof DailyTotal> {
  return {
    date: row.date,
    debits: formatMoney(row.debits),
    credits: formatMoney(row.credits),
    net: formatMoney(exact(row.credits).minus(row.debits)),
    count: row.count,
  };
}
