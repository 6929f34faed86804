import {
  parseCliArgs,
  parseIntegerOption,
  requireOption,
  runCli,
  UsageError,
} from '../src/cli/args.ts';
import { parseDay } from './demo-data/days.ts';
import { DEFAULT_END_DATE, generateFixtures } from './demo-data/generator.ts';

const HELP = `
Usage: npm run fixtures -- --users N --months M --seed S --out DIR
                           [--end YYYY-MM-DD] [--heavy-user-transactions K]

Writes deterministic demo data in the data contract's CSV format (users, links,
accounts, transactions, balances, pay_statements, liabilities; never access_tokens):
the same arguments give byte-identical files. Output is streamed, so 10,000 users with
a heavy user of 500,000 transactions fits in bounded memory.

Options:
  --users N                      number of ordinary users
  --months M                     months of history ending at --end
  --seed S                       any text; picks the data
  --out DIR                      output folder (created if needed; files are replaced)
  --end YYYY-MM-DD               last day of history (default ${DEFAULT_END_DATE}); recurring
                                 bills are also scheduled up to 14 days after it
  --heavy-user-transactions K    add one user "Heavy User" (heavy.user@example.com)
                                 with about K transactions
  -h, --help                     show this help

Then: npm run build-db -- --source DIR --database data/finance.duckdb
`;

await runCli('fixtures', async () => {
  const args = parseCliArgs(HELP, {
    users: { type: 'string' },
    months: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
    end: { type: 'string' },
    'heavy-user-transactions': { type: 'string' },
  });
  const end = args.end ?? DEFAULT_END_DATE;
  try {
    parseDay(end);
  } catch {
    throw new UsageError(`--end must be a date as YYYY-MM-DD, got '${end}'`);
  }
  const started = performance.now();
  const summary = await generateFixtures({
    users: parseIntegerOption(args.users, 'users', { min: 1 }),
    months: parseIntegerOption(args.months, 'months', { min: 1 }),
    seed: requireOption(args.seed, 'seed'),
    outDir: requireOption(args.out, 'out'),
    end,
    heavyUserTransactions: parseIntegerOption(
      args['heavy-user-transactions'],
      'heavy-user-transactions',
      { fallback: 0 },
    ),
    onProgress: (line) => process.stderr.write(`${line}\n`),
  });
  const counts = Object.entries(summary.counts)
    .map(([table, count]) => `${table} ${count.toLocaleString('en-US')}`)
    .join(', ');
  process.stderr.write(
    `wrote ${args.out} (${summary.start} to ${summary.end}): ${counts} in ${((performance.now() - started) / 1000).toFixed(1)}s\n` +
      (summary.heavyUserId ? `heavy user: ${summary.heavyUserId}\n` : ''),
  );
});
