/**
 * A bounded flood against the real server process, on loopback, measuring what it costs the
 * server and what a well-behaved client sees meanwhile:
 *
 *   npx tsx bench/flood.ts [--connections 256] [--seconds 20] [--idle 30] [--env NAME=VALUE ...]
 *
 * Builds the demo store in a temporary folder, mints --tokens flood tokens (over the demo
 * users in turn) and one token each for two well-behaved clients, starts
 * `node --import tsx src/main.ts` with MALLOC_ARENA_MAX=2 (as the image does) and the
 * settings' defaults unless --env says otherwise, then for --seconds runs autocannon with
 * --connections connections drawing a mix (--mix) while a "legit" client asks for its
 * spending 5 times a second and a "polite" one asks for its profile, then its spending, again
 * and again, each time once the last answer came. Prints the RSS before, its peak (VmHWM)
 * during, and after --idle seconds of quiet; the flood's and the two clients' answers by
 * status, with the polite client's latencies; and the server's log volume. Every request goes
 * to 127.0.0.1 and the run stops by itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import autocannon from 'autocannon';
import { parseCliArgs, parseIntegerOption, runCli, UsageError } from '../src/cli/args.ts';
import { buildStore } from '../src/ingest/duckdb/build.ts';
import { generateToken } from '../src/tokens/token.ts';
import { mintToken } from '../src/tokens/token-file.ts';
import { DEMO_DIR, DEMO_TODAY, DEMO_USERS } from '../tools/demo-data/demo.ts';
import { freePort } from './process.ts';
import { ROOT } from './stores.ts';

const HELP = `
Usage: npx tsx bench/flood.ts [--connections N] [--seconds S] [--idle S] [--mix NAME] [--env NAME=VALUE ...]

A bounded flood (loopback only) against the real server: RSS before, peak and idle after,
answers by status for the flood, for a legit client at 5 requests/s and for a polite client
that waits for each answer (with its latencies), log volume.

Options:
  --connections N   flood connections (default 256)
  --tokens N        valid tokens the flood uses, minted over the store's users in turn
                    (default 6)
  --seconds S       flood duration (default 20)
  --idle S          quiet seconds before the idle RSS is read (default 30)
  --env NAME=VALUE  a server setting (repeatable), e.g. --env RATE_LIMIT_MAX=0
  --log FILE        keep the server's log in FILE
  --store FILE      flood this store (tokens are minted for six of its users) instead of
                    the demo store
  --mix NAME        what the flood asks: mixed (default: spending of many shapes, transaction
                    pages, profiles, a bogus token, no token), store (valid tokens only, the
                    endpoints the store answers: profile, links, balances, balance history,
                    income, liabilities, accounts), cached (one spending answer per user,
                    answered from the cache), lists (every transaction of a user,
                    unpaginated) or bogus (one bogus token)
  -h, --help        show this help
`;

async function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function count(map: Map<string, number>, key: string) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The store's own endpoints: what the working set and the response cache do not answer. */
const STORE_PATHS = [
  '/v1/user',
  '/v1/links',
  '/v1/users/balances',
  '/v1/users/balance-history',
  '/v1/users/income',
  '/v1/users/liabilities',
  '/v1/accounts',
] as const;

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const format = (map: Map<string, number>) =>
  [...map.entries()]
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ');

await runCli('flood', async () => {
  const args = parseCliArgs(HELP, {
    connections: { type: 'string' },
    tokens: { type: 'string' },
    seconds: { type: 'string' },
    idle: { type: 'string' },
    env: { type: 'string', multiple: true },
    mix: { type: 'string' },
    log: { type: 'string' },
    store: { type: 'string' },
  });
  const mix = args.mix ?? 'mixed';
  if (!['mixed', 'store', 'cached', 'lists', 'bogus'].includes(mix)) {
    throw new UsageError(`--mix must be mixed, store, cached, lists or bogus, got '${mix}'`);
  }
  const floodTokens = parseIntegerOption(args.tokens, 'tokens', { min: 1, fallback: 6 });
  const connections = parseIntegerOption(args.connections, 'connections', {
    min: 1,
    fallback: 256,
  });
  const seconds = parseIntegerOption(args.seconds, 'seconds', { min: 1, fallback: 20 });
  const idle = parseIntegerOption(args.idle, 'idle', { min: 0, fallback: 30 });
  const env = Object.fromEntries(
    (args.env ?? []).map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );

  const dir = await mkdtemp(join(tmpdir(), 'finance-flood-'));
  let child: ChildProcess | undefined;
  try {
    const databasePath = args.store ?? join(dir, 'finance.duckdb');
    let users: readonly string[] = DEMO_USERS;
    if (args.store) {
      const instance = await DuckDBInstance.create(args.store, { access_mode: 'READ_ONLY' });
      const conn = await instance.connect();
      const rows = await conn.runAndReadAll('SELECT id FROM users ORDER BY id LIMIT 6');
      users = rows.getRowObjectsJson().map((row) => String(row.id));
      conn.closeSync();
      instance.closeSync();
    } else {
      await buildStore({ sourceDir: DEMO_DIR, databasePath });
    }
    const tokenFor = (i: number) =>
      mintToken({ databasePath, userId: users[i % users.length] as string });
    const tokens: string[] = [];
    for (let i = 0; i < floodTokens; i++) tokens.push(await tokenFor(i));
    const legitToken = await tokenFor(floodTokens);
    const politeToken = await tokenFor(floodTokens + 1);
    const bogus = generateToken();

    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: '2',
        LOG_LEVEL: 'info',
        TODAY: DEMO_TODAY,
        ...env,
        DATABASE_PATH: databasePath,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logBytes = 0;
    let logLines = 0;
    let stacks = 0;
    const alreadySent = { n: 0 };
    const logFile = args.log ? createWriteStream(args.log) : undefined;
    const onLog = (chunk: Buffer) => {
      logFile?.write(chunk);
      logBytes += chunk.length;
      const text = chunk.toString();
      logLines += text.split('\n').length - 1;
      stacks += text.split('"stack":').length - 1;
      alreadySent.n += text.split('FST_ERR_REP_ALREADY_SENT').length - 1;
    };
    child.stdout?.on('data', onLog);
    child.stderr?.on('data', onLog);
    const pid = child.pid as number;
    const url = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (tries > 300) throw new Error('the server did not become ready');
      await sleep(100);
    }
    // Warm up: every user's common answers once.
    for (const token of [...tokens, legitToken, politeToken]) {
      await fetch(`${url}/v2/users/spending?group_by=category&time_period=month`, {
        headers: { authorization: `Bearer ${token}` },
      });
    }
    await sleep(2000);
    const before = await rssMiB(pid, 'VmRSS');

    const groupBys = ['category', 'merchant', 'time_period'];
    const periods = ['day', 'week', 'month', 'quarter', 'year'];
    let draws = 0;
    const draw = () => {
      draws++;
      const pick = Math.random();
      const token = tokens[draws % tokens.length] as string;
      const auth = { authorization: `Bearer ${token}` };
      if (mix === 'cached') {
        return {
          method: 'GET',
          path: `/v2/users/spending?group_by=category&time_period=month`,
          headers: auth,
        };
      }
      if (mix === 'lists') {
        return { method: 'GET', path: '/v2/users/transactions', headers: auth };
      }
      if (mix === 'bogus') {
        return { method: 'GET', path: '/v1/user', headers: { authorization: `Bearer ${bogus}` } };
      }
      if (mix === 'store') {
        return { method: 'GET', path: STORE_PATHS[draws % STORE_PATHS.length], headers: auth };
      }
      if (pick < 0.4) {
        const month = 1 + (draws % 12);
        const start = `2026-${String(month).padStart(2, '0')}-01`;
        const path =
          `/v2/users/spending?group_by=${groupBys[draws % 3]}&time_period=${periods[draws % 5]}` +
          `&start_date=${start}&end_date=2026-11-${String(1 + (draws % 20)).padStart(2, '0')}`;
        return { method: 'GET', path, headers: auth };
      }
      if (pick < 0.6) {
        return {
          method: 'GET',
          path: `/v2/users/transactions?page=${1 + (draws % 5)}&page_size=100`,
          headers: auth,
        };
      }
      if (pick < 0.7) return { method: 'GET', path: '/v1/user', headers: auth };
      if (pick < 0.9) {
        return { method: 'GET', path: '/v1/user', headers: { authorization: `Bearer ${bogus}` } };
      }
      return { method: 'GET', path: '/v1/users/balances', headers: {} };
    };

    const floodStatuses = new Map<string, number>();
    const legitStatuses = new Map<string, number>();
    const politeStatuses = new Map<string, number>();
    const politeMs: number[] = [];
    let sampling = true;
    let peakSampled = before;
    const sampler = (async () => {
      while (sampling) {
        peakSampled = Math.max(peakSampled, await rssMiB(pid, 'VmRSS').catch(() => 0));
        await sleep(250);
      }
    })();
    const legit = (async () => {
      const deadline = Date.now() + seconds * 1000;
      while (Date.now() < deadline) {
        const started = Date.now();
        let status: string;
        try {
          const response = await fetch(
            `${url}/v2/users/spending?group_by=category&time_period=month`,
            {
              headers: { authorization: `Bearer ${legitToken}` },
              signal: AbortSignal.timeout(10_000),
            },
          );
          await response.arrayBuffer();
          status = String(response.status);
        } catch (error) {
          status = (error as Error).name;
        }
        count(legitStatuses, status);
        await sleep(Math.max(0, 200 - (Date.now() - started)));
      }
    })();
    // Waits for each answer before it asks again: never more than one request running.
    const polite = (async () => {
      const deadline = Date.now() + seconds * 1000;
      for (let i = 0; Date.now() < deadline; i++) {
        const started = Date.now();
        const path =
          i % 2 === 0 ? '/v1/user' : '/v2/users/spending?group_by=merchant&time_period=week';
        let status: string;
        try {
          const response = await fetch(`${url}${path}`, {
            headers: { authorization: `Bearer ${politeToken}` },
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          status = String(response.status);
        } catch (error) {
          status = (error as Error).name;
        }
        count(politeStatuses, status);
        politeMs.push(Date.now() - started);
      }
    })();
    const result = await new Promise<{
      requests: { total: number };
      errors: number;
      timeouts: number;
    }>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections,
          duration: seconds,
          timeout: 10,
          requests: [{ setupRequest: draw }],
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
      instance.on('response', (_client: unknown, status: number) =>
        count(floodStatuses, String(status)),
      );
    });
    await legit;
    await polite;
    sampling = false;
    await sampler;
    const peak = await rssMiB(pid, 'VmHWM');
    const afterFlood = await rssMiB(pid, 'VmRSS');
    const idleSamples: string[] = [];
    for (let waited = 0; waited < idle; waited += 5) {
      await sleep(Math.min(5, idle - waited) * 1000);
      idleSamples.push(`${Math.min(waited + 5, idle)}s: ${await rssMiB(pid, 'VmRSS')}`);
    }
    const probe = await fetch(`${url}/v1/user`, {
      headers: { authorization: `Bearer ${legitToken}` },
    });
    const lines = [
      `flood: ${connections} connections for ${seconds}s, ${result.requests.total} requests, ${result.errors} errors, ${result.timeouts} timeouts`,
      `flood answers: ${format(floodStatuses)}`,
      `legit client (5/s): ${format(legitStatuses)}`,
      `polite client (waits for each answer): ${politeMs.length} requests, ${format(politeStatuses)}; ms p50 ${percentile(politeMs, 0.5)}, p90 ${percentile(politeMs, 0.9)}, max ${percentile(politeMs, 1)}`,
      `RSS MiB: before ${before}, peak ${peak} (sampled ${peakSampled}), right after ${afterFlood}, idle ${idleSamples.join(', ')}`,
      `log: ${logLines} lines, ${(logBytes / 1024).toFixed(0)} KiB, ${stacks} stacks, ${alreadySent.n} FST_ERR_REP_ALREADY_SENT`,
      `after: GET /v1/user -> ${probe.status}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child?.once('exit', resolve));
    }
    await rm(dir, { recursive: true, force: true });
  }
});
