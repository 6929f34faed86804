import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { netWorthOf } from '../../domain/net-worth.ts';
import type { AccountType } from '../../domain/taxonomy.ts';
import { formatMoney, formatMoneyOrNull } from '../../http/money.ts';
import { protectedResponses } from '../../http/schemas.ts';
import { latestBalancesSql } from '../accounts.ts';
import { balanceHistoryPlugin } from './history.ts';
import { BalancesResponse } from './schemas.ts';

/** Each account of the user ($1) with its latest snapshot. */
const LATEST_BALANCES_SQL = `
  SELECT a.id AS account_id, a.link_id, a.name, a.mask, a.type, a.subtype, a.currency,
         b.current, b.available, b.credit_limit, b.as_of
  FROM accounts a
  LEFT JOIN ${latestBalancesSql(['current', 'available', 'credit_limit', 'as_of'])} b
    ON b.account_id = a.id
  WHERE a.user_id = $1
  ORDER BY a.id`;

type LatestBalanceRow = {
  account_id: string;
  link_id: string;
  name: string;
  mask: string | null;
  type: AccountType;
  subtype: string | null;
  currency: string;
  current: string | null;
  available: string | null;
  credit_limit: string | null;
  as_of: string | null;
};

export const balancesPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/users/balances',
    {
      schema: {
        summary: 'Current balances and net worth',
        description:
          'Each account’s latest balance snapshot (accounts without one are listed with nulls), and the totals: ' +
          'assets (depository, investment, other), liabilities (credit, loan: the amount owed) and net worth = assets − liabilities.',
        tags: ['balances'],
        response: { 200: BalancesResponse, ...protectedResponses },
      },
    },
    async (request) => {
      const rows = await app.store.query<LatestBalanceRow>(LATEST_BALANCES_SQL, [request.userId]);
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
        },
      };
    },
  );
  await app.register(balanceHistoryPlugin);
};
