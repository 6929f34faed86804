/**
 * Prints a user's monthly spending, using the client types generated from openapi.yaml
 * (examples/generated/api.ts, by `npm run openapi`) with openapi-fetch.
 *
 *   API_BASE_URL=http://127.0.0.1:8000 API_TOKEN=pat_... npx tsx examples/monthly-spending.ts \
 *     [--start YYYY-MM-DD] [--end YYYY-MM-DD]
 *
 * Without --start/--end the API's default window applies: the trailing year up to today.
 * Exit codes: 0 printed (or --help), 1 the API refused (the reason is printed), 2 wrong usage.
 */
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import { describeError, toolErrors } from './cli.ts';
import type { components, paths } from './generated/api.ts';

type Period = components['schemas']['TimePeriodSpendingWithTransactionIds'];

const HELP = `Usage: API_TOKEN=pat_... npx tsx examples/monthly-spending.ts [--start YYYY-MM-DD] [--end YYYY-MM-DD]

Prints the token owner's spending per month (amount, count, trend), the window's totals,
top category and merchant, income, expenses and savings rate, from GET /v1/user and
GET /v2/users/spending.

Options:
  --start YYYY-MM-DD   first day of the window (default: a year before the end, plus a day)
  --end YYYY-MM-DD     last day of the window (default: today)
  -h, --help           show this help

Environment:
  API_TOKEN            personal access token (pat_...), required
  API_BASE_URL         the API's base URL (default: http://127.0.0.1:8000)

Exit codes: 0 printed, 1 the API refused or could not be reached, 2 wrong usage.
`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const errors = toolErrors('monthly-spending');
// Typed where declared, so TypeScript knows a call never returns.
const fail: (code: number, message: string) => never = errors.fail;
const usageError: (message: string) => never = errors.usageError;

async function main(): Promise<void> {
  let values: { start?: string; end?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        start: { type: 'string' },
        end: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  for (const name of ['start', 'end'] as const) {
    const value = values[name];
    if (value !== undefined && !DATE.test(value)) {
      usageError(`--${name} must be a date as YYYY-MM-DD, got '${value}'`);
    }
  }
  const token = process.env.API_TOKEN;
  if (!token) usageError('set API_TOKEN to a personal access token (pat_...)');
  const baseUrl = process.env.API_BASE_URL || 'http://127.0.0.1:8000';
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    usageError(
      `API_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000, got '${baseUrl}'`,
    );
  }

  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}` },
  });

  const user = await client.GET('/v1/user');
  if (user.error || !user.data) fail(1, describeError(user.response.status, user.error));

  const spending = await client.GET('/v2/users/spending', {
    params: {
      query: {
        group_by: 'time_period',
        time_period: 'month',
        ...(values.start ? { start_date: values.start } : {}),
        ...(values.end ? { end_date: values.end } : {}),
      },
    },
  });
  if (spending.error || !spending.data) {
    fail(1, describeError(spending.response.status, spending.error));
  }

  const { summary, total_income, total_expenses, savings_rate } = spending.data;
  const months: Period[] = (spending.data.spending.by_time_period ?? []).filter(
    (period) => period.flow !== 'income',
  );
  const lines = [
    `Monthly spending of ${user.data.name}`,
    '',
    `${'Month'.padEnd(8)}${'Spent'.padStart(12)}${'Count'.padStart(8)}${'Trend'.padStart(10)}`,
    ...months.map(
      (month) =>
        `${month.end_date.slice(0, 7).padEnd(8)}` +
        `${month.total_amount.padStart(12)}` +
        `${String(month.transaction_count).padStart(8)}` +
        `${(month.trend === null || month.trend === undefined ? '' : `${month.trend}%`).padStart(10)}`,
    ),
    '',
    `Total spent:     ${summary.total_spending} in ${summary.total_transactions} transactions`,
    `Monthly average: ${summary.average_monthly_spending}`,
    `Top category:    ${summary.top_category || '-'}`,
    `Top merchant:    ${summary.top_merchant || '-'}`,
    `Income:          ${total_income ?? '-'}`,
    `Expenses:        ${total_expenses ?? '-'}`,
    `Savings rate:    ${savings_rate === null || savings_rate === undefined ? '-' : `${savings_rate}%`}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  fail(1, error instanceof Error ? error.message : String(error));
});
