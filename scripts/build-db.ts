import { parseCliArgs, runCli, UsageError } from '../src/cli/args.ts';
import { databasePathFromEnv, tokensPathFromEnv } from '../src/config.ts';
import { DEFAULT_LOG_SPAN, type LogSpan, parseLogSpan } from '../src/ingest/changes.ts';
import { applyChanges } from '../src/ingest/duckdb/apply.ts';
import { buildStore } from '../src/ingest/duckdb/build.ts';
import {
  applyPostgresChanges,
  buildPostgresStore,
  isPostgresUrl,
} from '../src/ingest/postgres/build.ts';
import { BuildInputError } from '../src/ingest/problems.ts';

const HELP = `
Usage: npm run build-db -- --source <folder> --database <file.duckdb> [--tokens <file>]
                          [--allow-empty]
       npm run build-db -- --source <folder> --database postgres://... [--allow-empty]
       npm run build-db -- --changes <folder> --database <file.duckdb|postgres://...>
                          [--keep-log <n>|<n>d] [--tokens <file>]

Builds the analytical store from a folder holding one file per table (users.csv,
accounts.csv, links.csv, transactions.csv required; access_tokens, balances,
pay_statements, liabilities optional), as CSV with a header row or as <table>.parquet.
Every row is checked first; on the first bad rows the build stops, prints
<file>:<line>: <reason> (the file line where the bad record starts) and leaves the
existing store untouched. So does a CSV file that cannot be read (not UTF-8, a field
too many or too few, an unclosed quote), a value holding a NUL character, a required
table with no rows, and any other file in the folder (named with the table file it is
nearest; hidden files and a README are ignored). The new store is written next to
the target and swapped in atomically. Tokens of an access_tokens input are merged into
the token store beside it, published with the store (it keeps every token minted
before: rebuilding the store never locks clients out).

With a postgres:// URL (the coordinator of a sharded cluster, see npm run cluster), the
same checks run, then the data is loaded as a new generation and published atomically:
readers see the old data or the new, never a mix, and a failed load leaves the old data
serving. A server that goes away mid-load is named (shard 2 (host:port) went away: ...),
with what was published. Tokens of an access_tokens input join the coordinator's token
table.

With --changes, a change set is applied to the published store as a new generation
(docs/data-contract.md, "Change sets"): the folder holds any of the tables' files, whose
rows replace the stored rows with the same key or are added, and <table>.deleted.csv
files naming the keys of rows to remove. The store it would leave is checked as a build
checks its input (same <file>:<line>: <reason> errors, nothing changes on refusal); the
derived data of the users it touches is derived again; the change log records which
transactions each user saw added, modified or removed (GET /v2/users/transactions/sync).
Loads of one store run one at a time; servers follow the new generation by themselves.
A change set that changes nothing (every upsert equal to the stored row, every removal
naming a key the store does not hold: one applied twice, say) publishes nothing and says so.

Options:
  --source <folder>    folder with the input files (a full build)
  --changes <folder>   folder with a change set to apply to the existing store
  --database <file|url>  store to create or replace: a DuckDB file or a postgres://
                       URL (default: $DATABASE_URL if set, else $DATABASE_PATH, else
                       data/finance.duckdb)
  --tokens <file>      the token store to merge access_tokens into (default:
                       $TOKENS_PATH, else beside the store: finance.tokens.duckdb)
  --allow-empty        build even when users, links, accounts or transactions has
                       no rows (a header-only file); refused by default
  --keep-log <n>|<n>d  with --changes: keep the change log for the last n change sets,
                       or for the change sets of the last n days (default ${spanText(DEFAULT_LOG_SPAN)});
                       a sync cursor older than that answers 410
  -h, --help           show this help

Exit codes: 0 built or applied, 1 bad input or failure, 2 wrong usage.
`;

function spanText(span: LogSpan): string {
  return 'days' in span ? `${span.days}d: ${span.days} days` : `${span.changeSets} change sets`;
}

await runCli('build-db', async () => {
  const args = parseCliArgs(HELP, {
    source: { type: 'string' },
    changes: { type: 'string' },
    database: { type: 'string' },
    tokens: { type: 'string' },
    'allow-empty': { type: 'boolean' },
    'keep-log': { type: 'string' },
  });
  if (args.source !== undefined && args.changes !== undefined) {
    throw new UsageError('--source (a full build) and --changes (a change set) exclude each other');
  }
  const sourceDir = args.source ?? args.changes;
  if (!sourceDir) throw new UsageError('missing required option --source (or --changes)');
  const changes = args.changes !== undefined;
  if (!changes && args['keep-log'] !== undefined) {
    throw new UsageError('--keep-log applies to --changes only');
  }
  if (changes && args['allow-empty'] !== undefined) {
    throw new UsageError('--allow-empty applies to --source only');
  }
  const keepLog =
    args['keep-log'] === undefined ? DEFAULT_LOG_SPAN : parseLogSpan(args['keep-log']);
  if (!keepLog) {
    throw new UsageError(
      `--keep-log must be a number of change sets (30) or of days (31d), got '${args['keep-log']}'`,
    );
  }
  const databasePath = args.database ?? (process.env.DATABASE_URL || databasePathFromEnv());
  const target = isPostgresUrl(databasePath) ? new URL(databasePath) : undefined;
  if (target && args.tokens !== undefined) {
    throw new UsageError(
      '--tokens is for a DuckDB store; a cluster keeps its tokens on the coordinator',
    );
  }
  const onProgress = (line: string) => process.stderr.write(`${line}\n`);
  try {
    if (changes) {
      const result = target
        ? await applyPostgresChanges({
            changesDir: sourceDir,
            databaseUrl: databasePath,
            keepLog,
            onProgress,
          })
        : await applyChanges({
            changesDir: sourceDir,
            databasePath,
            tokensPath: args.tokens ?? tokensPathFromEnv(databasePath),
            keepLog,
            onProgress,
          });
      if (!result.published) {
        process.stderr.write(
          `build-db: the change set changes nothing: generation ${result.generation} still serves, nothing was published\n`,
        );
      }
      return;
    }
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
    const what = changes ? 'change set refused' : 'build stopped';
    throw new Error(`${what} on the problems shown above; ${where} was not changed`);
  }
});
