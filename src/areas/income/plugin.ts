import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { effectiveWindow } from '../../domain/calendar.ts';
import { compareCodePoints, Exact, formatMoney, ZERO } from '../../domain/money.ts';
import {
  inferPayFrequency,
  nextExpectedPayDate,
  PAY_FREQUENCIES,
} from '../../domain/pay-frequency.ts';
import { moneySchema } from '../../http/decimal-schemas.ts';
import { queryObject } from '../../http/fastapi/index.ts';
import { lastRawValue } from '../../http/fastapi/raw-query.ts';
import { isoDate, protectedResponses, validationResponse } from '../../http/schemas.ts';
import type { PayStatementRecord } from '../../port/read-port.ts';
import { boundedCalendarPeriods } from '../common/periods.ts';
import { assertWindowOrdered, windowQuery } from '../common/window-query.ts';

export const PayrollIncome = z
  .object({
    link_id: z.string().meta({ description: 'The payroll link.' }),
    provider: z.string().meta({ description: 'The payroll provider (the link’s name).' }),
    employer: z.string().meta({ description: 'Employer named on the pay statements.' }),
    pay_frequency: z.enum(PAY_FREQUENCIES).meta({
      description:
        'Inferred from the distinct pay dates in the window (docs/api.md, "Pay frequency"): at least three dates whose median gap is 5-9 days (weekly), 12-17 (biweekly or semimonthly) or 26-35 (monthly), with 75% of the gaps in that band or twice it (a skipped date); ' +
        'biweekly when the dates fit a 14-day grid at least as closely as two days of the month, else semimonthly. Otherwise irregular.',
    }),
    last_pay_date: isoDate('Latest pay date in the window.'),
    next_expected_pay_date: isoDate(
      'The next day of the schedule the pay dates fit best, after the last pay date (a day of the month falling on a weekend: the Friday before); null when irregular. May lie in the past when pay stopped.',
    ).nullable(),
    gross_total: moneySchema('Gross pay over the window’s statements.'),
    net_total: moneySchema('Net pay over the window’s statements.'),
    statement_count: z.int().min(1).meta({ description: 'Pay statements in the window.' }),
  })
  .meta({
    id: 'PayrollIncome',
    description: 'Income from one employer of a payroll link, over the window.',
  });

export const MonthlyIncome = z
  .object({
    start_date: isoDate('First day of the month, clipped to the window.'),
    end_date: isoDate('Last day of the month, clipped to the window.'),
    total: moneySchema('Sum of the counted CREDIT transactions of the month.'),
    transaction_count: z
      .int()
      .min(0)
      .meta({ description: 'Counted CREDIT transactions of the month.' }),
  })
  .meta({ id: 'MonthlyIncome', description: 'Income from transactions in one calendar month.' });

export const IncomeResponse = z
  .object({
    start_date: isoDate('Effective window start.'),
    end_date: isoDate('Effective window end (capped at today).'),
    payroll: z.array(PayrollIncome).meta({
      description:
        'One entry per (payroll link, employer) with a pay statement in the window, by employer then link id.',
    }),
    monthly: z.array(MonthlyIncome).meta({
      description:
        'Every calendar month meeting the window, ascending, months without income included. Counted: CREDIT transactions, not hidden, not internal transfers, not on investment accounts (the spending endpoint’s income basis).',
    }),
    total_income: moneySchema('Sum of `monthly`: the window’s counted CREDIT total.'),
  })
  .meta({
    id: 'IncomeResponse',
    description: 'Payroll income per employer and monthly income from transactions.',
  });

const IncomeQuery = queryObject(windowQuery);

export const incomePlugin: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/users/income',
    {
      schema: {
        operationId: 'getIncome',
        summary: 'Income',
        description:
          'Payroll income per employer (pay frequency, last and next expected pay date, gross and net totals) from pay statements in the window, ' +
          'and monthly income from transactions on the spending endpoint’s income basis. Window as balance history and spending: ' +
          'end_date omitted or in the future -> today; start_date omitted -> a year before end_date plus one day; start_date after end_date -> 422.',
        tags: ['income'],
        querystring: IncomeQuery,
        response: { 200: IncomeResponse, ...protectedResponses, ...validationResponse },
      },
    },
    async (request) => {
      const { start_date, end_date } = request.query;
      const window = effectiveWindow(app.clock.today(), start_date, end_date);
      assertWindowOrdered(request, window);
      // Checked before any query: an over-long window is refused without scanning it.
      const months = boundedCalendarPeriods(
        window,
        'month',
        lastRawValue(request, 'start_date'),
        null,
      );
      const [statements, monthlyRows] = await Promise.all([
        request.store.payStatements(request.userId, window),
        request.store.monthlyIncome(request.userId, window),
      ]);
      const byMonth = new Map(monthlyRows.map((row) => [row.month.slice(0, 7), row]));
      const monthly = months.map((month) => {
        const row = byMonth.get(month.start.slice(0, 7));
        return {
          start_date: month.start,
          end_date: month.end,
          total: formatMoney(row?.total ?? '0'),
          transaction_count: row?.count ?? 0,
        };
      });
      const totalIncome = monthlyRows.reduce((sum, row) => sum.plus(row.total), ZERO);
      return {
        start_date: window.start,
        end_date: window.end,
        payroll: payrollIncome(statements),
        monthly,
        total_income: formatMoney(totalIncome),
      };
    },
  );
};

/** Groups statements (ascending by pay date) per (link, employer). */
function payrollIncome(statements: readonly PayStatementRecord[]): z.infer<typeof PayrollIncome>[] {
  const groups = new Map<string, PayStatementRecord[]>();
  for (const statement of statements) {
    const key = JSON.stringify([statement.employer, statement.link_id]);
    const group = groups.get(key);
    if (group) group.push(statement);
    else groups.set(key, [statement]);
  }
  return [...groups.values()]
    .map((group) => {
      const first = group[0] as PayStatementRecord;
      const payDates = [...new Set(group.map((statement) => statement.pay_date))];
      const frequency = inferPayFrequency(payDates);
      return {
        link_id: first.link_id,
        provider: first.provider,
        employer: first.employer,
        pay_frequency: frequency,
        last_pay_date: payDates.at(-1) as string,
        next_expected_pay_date: nextExpectedPayDate(payDates, frequency),
        gross_total: formatMoney(Exact.sum(...group.map((statement) => statement.gross_pay))),
        net_total: formatMoney(Exact.sum(...group.map((statement) => statement.net_pay))),
        statement_count: group.length,
      };
    })
    .sort(
      (a, b) =>
        compareCodePoints(a.employer, b.employer) || compareCodePoints(a.link_id, b.link_id),
    );
}
