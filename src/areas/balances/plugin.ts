import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatMoney, formatMoneyOrNull } from '../../domain/money.ts';
import { netWorthOf } from '../../domain/net-worth.ts';
import { userCurrency } from '../../domain/taxonomy.ts';
import { protectedResponses } from '../../http/schemas.ts';
import { balanceHistoryPlugin } from './history.ts';
import { BalancesResponse } from './schemas.ts';

export const balancesPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/users/balances',
    {
      schema: {
        operationId: 'getBalances',
        summary: 'Current balances and net worth',
        description:
          'Each account’s latest balance snapshot (accounts without one are listed with nulls), and the totals: ' +
          'assets (depository, investment, other), liabilities (credit, loan: the amount owed) and net worth = assets − liabilities.',
        tags: ['balances'],
        response: { 200: BalancesResponse, ...protectedResponses },
      },
    },
    async (request) => {
      const rows = await request.store.latestBalances(request.userId);
      const totals = netWorthOf(rows);
      const dates = rows.flatMap((row) => (row.as_of === null ? [] : [row.as_of])).sort();
      return {
        balances: rows.map((row) => ({
          ...row,
          current: formatMoneyOrNull(row.current),
          available: formatMoneyOrNull(row.available),
          credit_limit: formatMoneyOrNull(row.credit_limit),
        })),
        totals: {
          assets: formatMoney(totals.assets),
          liabilities: formatMoney(totals.liabilities),
          net_worth: formatMoney(totals.netWorth),
          as_of: dates.at(-1) ?? null,
          currency: userCurrency(
            rows.map((row) => ({ id: row.account_id, currency: row.currency })),
          ),
        },
      };
    },
  );
  await app.register(balanceHistoryPlugin);
};
