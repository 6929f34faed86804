import { parseCliArgs, requireOption, runCli, UsageError } from '../src/cli/args.ts';
import { DEFAULT_DATABASE_PATH, databasePathFromEnv, tokensPathFromEnv } from '../src/config.ts';
import { isCalendarDate } from '../src/domain/calendar.ts';
import {
  listClusterTokens,
  mintClusterToken,
  revokeClusterToken,
} from '../src/engines/postgres/tokens.ts';
import { isPostgresUrl } from '../src/ingest/postgres/build.ts';
import { MIN_REVOKE_PREFIX, TOKEN_ID_LENGTH, tokenId } from '../src/tokens/store.ts';
import { hashToken } from '../src/tokens/token.ts';
import { listTokens, mintToken, revokeToken } from '../src/tokens/token-file.ts';

const HELP = `
Usage:
  npm run token -- --user ID [--name NAME] [--expires YYYY-MM-DD|ISO] [--database FILE] [--tokens FILE]
  npm run token -- --revoke ID [--database FILE] [--tokens FILE]
  npm run token -- --revoke - [--database FILE] [--tokens FILE]  < file-holding-the-token
  npm run token -- --list --user ID [--database FILE] [--tokens FILE]
  (any of them with --database postgres://... for a cluster)

Mints a personal access token for a user of the store and prints it once on stdout;
the token store keeps only its SHA-256. The token's id (first ${TOKEN_ID_LENGTH} hex characters of the hash)
goes to stderr and is what --list shows and --revoke accepts.

Options:
  --user ID            the user who owns the token
  --name NAME          a label for the token (e.g. "laptop")
  --expires DATE       expiry: YYYY-MM-DD (valid through that day, UTC) or an ISO 8601
                       timestamp (UTC unless it carries an offset); default: never
  --revoke ID          revoke a token by its id: at least ${MIN_REVOKE_PREFIX} hex characters of
                       it matching exactly one token (--list shows ids)
  --revoke -           revoke the token read from standard input (the whole token,
                       or an id): a token on the command line stays in your shell's
                       history and in npm's debug log, so it is taken this way
  --list               list the user's tokens (id, name, created, expires, revoked)
  --database FILE|URL  the analytics store, where the user must exist: a DuckDB file,
                       or a cluster's postgres:// URL, whose coordinator holds the
                       tokens (default: $DATABASE_URL if set, else $DATABASE_PATH,
                       else ${DEFAULT_DATABASE_PATH})
  --tokens FILE        the token store (default: $TOKENS_PATH, else the file beside the
                       analytics store: finance.duckdb -> finance.tokens.duckdb)
  -h, --help           show this help

Only the small token store is rewritten (a copy renamed into place), never the analytics
store; a running server sees the change within a second. On a cluster the change is one
statement on the coordinator and counts from the next request.
Exit codes: 0 done, 1 refused or failed (unknown user, no match), 2 wrong usage.
`;

const DAY_MS = 86_400_000;

/** A whole token (`pat_...`), not an id: it must not be echoed back. */
function looksLikeWholeToken(value: string): boolean {
  return /^pat_/i.test(value);
}

/** The one token (or id) on standard input, for `--revoke -`. */
async function readStandardInput(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('token (then Enter and Ctrl-D): ');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const values = text.split(/\s+/).filter(Boolean);
  if (values.length !== 1) {
    throw new UsageError(
      values.length === 0
        ? '--revoke -: no token on standard input'
        : `--revoke -: expected one token on standard input, got ${values.length} values`,
    );
  }
  return values[0] as string;
}

/** A date means "valid through that day": the token expires at the next UTC midnight. */
function parseExpiry(value: string): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  const parsed = new Date(dateOnly || hasZone ? value : `${value}Z`);
  if (
    Number.isNaN(parsed.getTime()) ||
    !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
  ) {
    throw new UsageError(`--expires must be YYYY-MM-DD or an ISO 8601 timestamp, got '${value}'`);
  }
  // Date reads 2026-02-30 as 2 March: the calendar date itself must exist.
  if (!isCalendarDate(value.slice(0, 10)))
    throw new UsageError(`--expires: no such date '${value}'`);
  const expiresAt = dateOnly ? new Date(parsed.getTime() + DAY_MS) : parsed;
  if (expiresAt.getTime() <= Date.now()) {
    throw new UsageError(`--expires ${value} is not in the future`);
  }
  return expiresAt;
}

function printTable(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of rows) {
    const line = row.map((cell, column) => cell.padEnd(widths?.[column] ?? 0)).join('  ');
    process.stdout.write(`${line.trimEnd()}\n`);
  }
}

await runCli('token', async () => {
  const args = parseCliArgs(HELP, {
    user: { type: 'string' },
    name: { type: 'string' },
    expires: { type: 'string' },
    revoke: { type: 'string' },
    list: { type: 'boolean' },
    database: { type: 'string' },
    tokens: { type: 'string' },
  });
  const databasePath = args.database ?? (process.env.DATABASE_URL || databasePathFromEnv());
  const cluster = isPostgresUrl(databasePath) ? databasePath : undefined;
  if (cluster && args.tokens !== undefined) {
    throw new UsageError(
      '--tokens is for a DuckDB store; a cluster keeps its tokens on the coordinator',
    );
  }
  const tokensPath = args.tokens ?? tokensPathFromEnv(databasePath);
  if (args.revoke !== undefined) {
    const idOrToken = args.revoke === '-' ? await readStandardInput() : args.revoke;
    if (args.revoke !== '-' && looksLikeWholeToken(idOrToken)) {
      process.stderr.write(
        "warning: a token on the command line is kept in shell history and in npm's debug log; " +
          'it is revoked now, so those copies are harmless. Next time pass its id, or - and the ' +
          'token on standard input.\n',
      );
    }
    if (
      args.list ||
      args.user !== undefined ||
      args.name !== undefined ||
      args.expires !== undefined
    ) {
      throw new UsageError('--revoke takes no --list, --user, --name or --expires');
    }
    const result = await (cluster
      ? revokeClusterToken({ databaseUrl: cluster, idOrToken })
      : revokeToken({ tokensPath, idOrToken, databasePath })
    ).catch((error: unknown) => {
      // A message naming what was asked for names the token's id, never the token.
      if (error instanceof Error && looksLikeWholeToken(idOrToken)) {
        error.message = error.message
          .replaceAll(`'${idOrToken}'`, `the given token (id ${tokenId(hashToken(idOrToken))})`)
          .replaceAll(idOrToken, `the given token (id ${tokenId(hashToken(idOrToken))})`);
      }
      throw error;
    });
    process.stderr.write(
      result.alreadyRevoked
        ? `token ${result.id} of user ${result.userId} was already revoked\n`
        : `revoked token ${result.id} of user ${result.userId}\n`,
    );
    return;
  }
  const userId = requireOption(args.user, 'user');
  if (args.list) {
    if (args.name !== undefined || args.expires !== undefined) {
      throw new UsageError('--list takes no --name or --expires');
    }
    const tokens = cluster
      ? await listClusterTokens({ databaseUrl: cluster, userId })
      : await listTokens({ databasePath, tokensPath, userId });
    if (tokens.length === 0) {
      process.stderr.write(`user ${userId} has no tokens\n`);
      return;
    }
    printTable([
      ['ID', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED'],
      ...tokens.map((token) => [
        token.id,
        token.name ?? '-',
        token.createdAt,
        token.expiresAt ?? 'never',
        token.revokedAt ?? '-',
      ]),
    ]);
    return;
  }
  const expiresAt = args.expires === undefined ? null : parseExpiry(args.expires);
  const token = cluster
    ? await mintClusterToken({ databaseUrl: cluster, userId, name: args.name ?? null, expiresAt })
    : await mintToken({ databasePath, tokensPath, userId, name: args.name ?? null, expiresAt });
  process.stdout.write(`${token}\n`);
  process.stderr.write(
    `token ${tokenId(hashToken(token))} minted for user ${userId}` +
      (expiresAt ? `, expires ${expiresAt.toISOString()}` : '') +
      '.\nIt is shown only this once: store it now (the token store keeps only its hash).\n',
  );
});
