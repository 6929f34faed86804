/**
 * Prints a user's subscriptions, bills and pay: the recurring streams of GET /v2/users/recurring,
 * with the client types generated from openapi.yaml (examples/generated/api.ts, by
 * `npm run openapi`) and openapi-fetch.
 *
 *   API_BASE_URL=http://127.0.0.1:8000 API_TOKEN=pat_... npx tsx examples/recurring-streams.ts \
 *     [--account ID] [--link ID]
 *
 * Exit codes: 0 printed (or --help), 1 the API refused (the reason is printed), 2 wrong usage.
 */
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import { describeError, toolErrors } from './cli.ts';
import type { components, paths } from './generated/api.ts';

type Stream = components['schemas']['RecurringStream'];

const HELP = `Usage: API_TOKEN=pat_... npx tsx examples/recurring-streams.ts [--account ID]... [--link ID]

Prints the token owner's recurring streams from GET /v2/users/recurring: money out
(subscriptions, bills) and money in (pay), each with its cadence, status, last amount,
yearly cost, next expected date and any price change, then what the active ones cost a year.

Options:
  --account ID   only this account's transactions (repeatable)
  --link ID      only the accounts of this link
  -h, --help     show this help

Environment:
  API_TOKEN      personal access token (pat_...), required
  API_BASE_URL   the API's base URL (default: http://127.0.0.1:8000)

Exit codes: 0 printed, 1 the API refused or could not be reached, 2 wrong usage.
`;

const errors = toolErrors('recurring-streams');
// Typed where declared, so TypeScript knows a call never returns.
const fail: (code: number, message: string) => never = errors.fail;
const usageError: (message: string) => never = errors.usageError;

/** Cents of a two-decimal amount, to add exactly. */
const cents = (amount: string) => BigInt(amount.replace('.', ''));
const dollars = (total: bigint) => {
  const text = total.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
};

function line(stream: Stream): string {
  const name = (stream.merchant_name ?? stream.description).slice(0, 28);
  const change = stream.amount_change
    ? `was ${stream.amount_change.previous_amount} until ${stream.amount_change.changed_on}`
    : '';
  return (
    `${name.padEnd(30)}${stream.cadence.padEnd(14)}${stream.status.padEnd(17)}` +
    `${stream.last_amount.padStart(10)}${stream.annual_amount.padStart(12)}` +
    `  ${(stream.predicted_next_date ?? '-').padEnd(12)}${change}`
  );
}

function section(title: string, streams: readonly Stream[]): string[] {
  const header =
    `${'Name'.padEnd(30)}${'Cadence'.padEnd(14)}${'Status'.padEnd(17)}` +
    `${'Last'.padStart(10)}${'A year'.padStart(12)}  ${'Next'.padEnd(12)}Price change`;
  const active = streams.filter((stream) => stream.is_active);
  const yearly = active.reduce((sum, stream) => sum + cents(stream.annual_amount), 0n);
  return [
    title,
    header,
    ...(streams.length > 0 ? streams.map(line) : ['(none)']),
    `${active.length} active, ${dollars(yearly)} a year`,
    '',
  ];
}

async function main(): Promise<void> {
  let values: { account?: string[]; link?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        account: { type: 'string', multiple: true },
        link: { type: 'string' },
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
  const answer = await client.GET('/v2/users/recurring', {
    params: {
      query: {
        ...(values.account ? { account_ids: values.account } : {}),
        ...(values.link ? { link_id: values.link } : {}),
      },
    },
  });
  if (answer.error || !answer.data) fail(1, describeError(answer.response.status, answer.error));

  const { as_of, currency, outflow_streams, inflow_streams } = answer.data;
  const lines = [
    `Recurring streams as of ${as_of}${currency ? ` (${currency})` : ''}`,
    '',
    ...section('Money out', outflow_streams),
    ...section('Money in', inflow_streams),
  ];
  process.stdout.write(`${lines.join('\n')}`);
}

main().catch((error: unknown) => {
  fail(1, error instanceof Error ? error.message : String(error));
});
