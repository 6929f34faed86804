import { parseCliArgs, requireOption, runCli, UsageError } from '../src/cli/args.ts';
import { databasePathFromEnv, tokensPathFromEnv } from '../src/config.ts';
import { BuildInputError, buildStore } from '../src/ingest/build.ts';
import { buildPostgresStore, isPostgresUrl } from '../src/ingest/postgres/build.ts';

const HELP = `
Usage: npm run build-db -- --source <folder> --database <file.duckdb> [--tokens <file>]
                          [--allow-empty]
       npm run build-db -- --source <folder> --database postgres://... [--allow-empty]

Builds the analytical store from a folder holding one file per table (users.csv,
accounts.csv, links.csv, transactions.csv required; access_tokens, balances,
pay_statements, liabilities optional), as CSV with a header row or as <table>.parquet.
Every row is checked first; on the first bad rows the build stops, prints
<file>:<line>: <reason> (the file line where the bad record starts) and leaves the
existing store untouched. So does a CSV file that cannot be read (not UTF-8, a field
too many or too few, an unclosed quote), and a required table with no rows. The new
store is written next to the target and swapped in atomically. Tokens of an
access_tokens input are merged into the token store beside it (it keeps every token
minted before: rebuilding the store never locks clients out).

With a postgres:// URL (the coordinator of a sharded cluster, see npm run cluster), the
same checks run, then the data is loaded as a new generation and published atomically:
readers see the old data or the new, never a mix, and a failed load leaves the old data
serving. Tokens of an access_tokens input join the coordinator's token table.

Options:
  --source <folder>    folder with the input files
  --database <file|url>  store to create or replace: a DuckDB file or a postgres://
                       URL (default: $DATABASE_URL if set, else $DATABASE_PATH, else
                       data/finance.duckdb)
  --tokens <file>      the token store to merge access_tokens into (default:
                       $TOKENS_PATH, else beside the store: finance.tokens.duckdb)
  --allow-empty        build even when users, links, accounts or transactions has
                       no rows (a header-only file); refused by default
  -h, --help           show this help

Exit codes: 0 built, 1 bad input or failure, 2 wrong usage.
`;

await runCli('build-db', async () => {
  const args = parseCliArgs(HELP, {
    source: { type: 'string' },
    database: { type: 'string' },
    tokens: { type: 'string' },
    'allow-empty': { type: 'boolean' },
  });
  const sourceDir = requireOption(args.source, 'source');
  const databasePath = args.database ?? (process.env.DATABASE_URL || databasePathFromEnv());
  const target = isPostgresUrl(databasePath) ? new URL(databasePath) : undefined;
  if (target && args.tokens !== undefined) {
    throw new UsageError(
      '--tokens is for a DuckDB store; a cluster keeps its tokens on the coordinator',
    );
  }
  try {
    if (target) {
      await buildPostgresStore({
        sourceDir,
        databaseUrl: databasePath,
        allowEmpty: args['allow-empty'] === true,
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      return;
    }
    await buildStore({
      sourceDir,
      databasePath,
      tokensPath: args.tokens ?? tokensPathFromEnv(databasePath),
      allowEmpty: args['allow-empty'] === true,
      onProgress: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (!(error instanceof BuildInputError)) throw error;
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    const where = target ? `the cluster at ${target.host}` : databasePath;
    throw new Error(`build stopped on the problems shown above; ${where} was not changed`);
  }
});
