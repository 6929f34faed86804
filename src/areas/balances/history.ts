import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { effectiveWindow, TIME_PERIODS } from '../../domain/calendar.ts';
import { formatMoney, formatMoneyOrNull } from '../../domain/money.ts';
import { netWorthOf } from '../../domain/net-worth.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { qEnum, queryObject } from '../../http/fastapi/index.ts';
import { lastRawValue } from '../../http/fastapi/raw-query.ts';
import { isoDate, protectedResponses, validationResponse } from '../../http/schemas.ts';
import type { BalancePointRecord } from '../../port/read-port.ts';
import { Account } from '../common/account.ts';
import { boundedCalendarPeriods } from '../common/periods.ts';
import { assertWindowOrdered, windowQuery } from '../common/window-query.ts';

export const AccountBalancePoint = z
  .object({
    account_id: z.string().meta({ description: 'Account id.' }),
    current: moneySchema(
      'The account’s balance at the period’s end (for credit and loan accounts the amount owed); null when it has no snapshot yet.',
    ).nullable(),
    as_of: isoDate(
      'Date of the snapshot used: the latest on or before the period’s end.',
    ).nullable(),
  })
  .meta({ id: 'AccountBalancePoint', description: 'One account’s end-of-period balance.' });

export const BalanceHistoryPeriod = z
  .object({
    start_date: isoDate('First day of the period, clipped to the window.'),
    end_date: isoDate(
      'Last day of the period, clipped to the window; balances are taken as of this day.',
    ),
    assets: moneySchema(
      'Sum of the asset accounts’ (depository, investment, other) balances, over the accounts with a snapshot by then; null when no account has one yet (nothing is known, which is not $0).',
    ).nullable(),
    liabilities: moneySchema(
      'Sum of the credit and loan accounts’ balances (amounts owed), over the accounts with a snapshot by then; null when no account has one yet.',
    ).nullable(),
    net_worth: moneySchema(
      'assets minus liabilities; null when no account has a snapshot yet.',
    ).nullable(),
    balances: z
      .array(AccountBalancePoint)
      .meta({ description: 'Every account of the user, by id.' }),
  })
  .meta({
    id: 'BalanceHistoryPeriod',
    description: 'Balances and net worth at the end of one calendar period.',
  });

export const BalanceHistoryResponse = z
  .object({
    start_date: isoDate('Effective window start.'),
    end_date: isoDate('Effective window end (capped at today).'),
    time_period: z.enum(TIME_PERIODS).meta({ description: 'The period length used.' }),
    accounts: z.array(Account).meta({ description: 'All of the user’s accounts, by id.' }),
    periods: z.array(BalanceHistoryPeriod).meta({
      description:
        'Every calendar period meeting the window, ascending, including those before any snapshot.',
    }),
  })
  .meta({
    id: 'BalanceHistoryResponse',
    description: 'End-of-period balances per account and net worth.',
  });

const BalanceHistoryQuery = queryObject({
  ...windowQuery,
  time_period: qEnum(TIME_PERIODS, {
    default: 'month',
    description:
      'Calendar period: day, week (ISO, Monday to Sunday), month, quarter or year. Default month.',
  }),
});

export const balanceHistoryPlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/users/balance-history',
    {
      schema: {
        operationId: 'getBalanceHistory',
        summary: 'Balance history',
        description:
          'End-of-period balances per account and net worth over a window. A period’s balance is the account’s latest snapshot on or before the period’s (clipped) end date. ' +
          'Window: end_date omitted or in the future -> today; start_date omitted -> the same date a year before end_date plus one day; start_date after end_date -> 422.',
        tags: ['balances'],
        querystring: BalanceHistoryQuery,
        response: { 200: BalanceHistoryResponse, ...protectedResponses, ...validationResponse },
      },
    },
    async (request) => {
      const { start_date, end_date, time_period } = request.query;
      const window = effectiveWindow(app.clock.today(), start_date, end_date);
      assertWindowOrdered(request, window);
      const periods = boundedCalendarPeriods(
        window,
        time_period,
        lastRawValue(request, 'start_date'),
        'time_period',
      );
      const [rows, accounts] = await Promise.all([
        request.store.balanceHistory(
          request.userId,
          periods.map((p) => p.end),
        ),
        request.store.accounts(request.userId),
      ]);
      const rowsByEnd = new Map<string, BalancePointRecord[]>();
      for (const row of rows) {
        const group = rowsByEnd.get(row.end_date);
        if (group) group.push(row);
        else rowsByEnd.set(row.end_date, [row]);
      }
      return {
        start_date: window.start,
        end_date: window.end,
        time_period,
        accounts,
        periods: periods.map((period) => {
          const balances = rowsByEnd.get(period.end) ?? [];
          const totals = netWorthOf(balances);
          return {
            start_date: period.start,
            end_date: period.end,
            ...(balances.some((row) => row.current !== null)
              ? {
                  assets: formatMoney(totals.assets),
                  liabilities: formatMoney(totals.liabilities),
                  net_worth: formatMoney(totals.netWorth),
                }
              : { assets: null, liabilities: null, net_worth: null }),
            balances: balances.map((row) => ({
              account_id: row.account_id,
              current: formatMoneyOrNull(row.current),
              as_of: row.as_of,
            })),
          };
        }),
      };
    },
  );
};
