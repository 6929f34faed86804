/**
 * `npm start`: the one-command demo. Builds the store from fixtures/demo when DATABASE_PATH
 * holds none, mints a token for a demo user, prints how to call the API, then runs the server
 * (src/main.ts) in this process. Operators serving a real store run `npm run serve` instead.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCliArgs, runCli } from '../src/cli/args.ts';
import { loadConfig } from '../src/config.ts';
import { openDuckDbPort } from '../src/engines/duckdb/port.ts';
import { buildStore } from '../src/ingest/duckdb/build.ts';
import { StoreFormatError } from '../src/port/read-port.ts';
import { mintToken } from '../src/tokens/token-file.ts';
import { DEMO_DIR, DEMO_TODAY, DEMO_USER } from './demo-data/demo.ts';

const HELP = `
Usage: npm start [-- --user ID]

Starts the API on the demo data: builds the store from fixtures/demo at $DATABASE_PATH
(default data/finance.duckdb) when no store is there yet (or the one there was built by an
older build-db), mints a personal access token
for a demo user, prints it with ready-to-paste curl commands, and serves.

TODAY is pinned to ${DEMO_TODAY} (the demo history's last day) unless set, so the
demo answers the same whenever it runs. To serve a real store, use npm run serve.

Options:
  --user ID    the user to mint the demo token for (default: ${DEMO_USER})
  -h, --help   show this help
`;

await runCli('start', async () => {
  const args = parseCliArgs(HELP, { user: { type: 'string' } });
  process.env.TODAY ||= DEMO_TODAY;
  const config = loadConfig();
  const databasePath = resolve(config.DATABASE_PATH);
  const existing = await stat(databasePath).catch(() => undefined);
  // A store an older build-db wrote is refused by the server: the demo rebuilds its own.
  const outdated =
    existing &&
    (await openDuckDbPort(databasePath).then(
      (port) => port.close().then(() => null),
      (error: unknown) => (error instanceof StoreFormatError ? error : null),
    ));
  if (outdated)
    process.stderr.write(
      `${databasePath} was built by another build-db: rebuilding it from fixtures/demo\n`,
    );
  else if (!existing)
    process.stderr.write(`No store at ${databasePath}: building it from fixtures/demo\n`);
  if (!existing || outdated) {
    await buildStore({
      sourceDir: DEMO_DIR,
      databasePath,
      onProgress: (line) => process.stderr.write(`  ${line}\n`),
    });
  }
  const token = await mintToken({ databasePath, userId: args.user ?? DEMO_USER, name: 'demo' });
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
  const base = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
  process.stdout.write(
    [
      '',
      `Store:  ${databasePath} (TODAY=${config.TODAY})`,
      `Token:  ${token}   (user ${args.user ?? DEMO_USER}; shown once, only its hash is stored)`,
      '',
      'Try it:',
      `  curl -s -H 'Authorization: Bearer ${token}' '${base}/v2/users/spending?group_by=category&time_period=month'`,
      `  curl -s -H 'Authorization: Bearer ${token}' '${base}/v2/users/recurring'`,
      `  curl -s -H 'Authorization: Bearer ${token}' '${base}/v1/user'`,
      '',
      '',
    ].join('\n'),
  );
  // The server is the ordinary entry point, run in this process so signals reach it directly.
  await import('../src/main.ts');
});
