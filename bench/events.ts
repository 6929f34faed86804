/**
 * Event streams at scale, against the real server process on loopback: 10,000 streams open on
 * one server (one per typical user of the bench's main store), then
 *
 * - the server's resident memory before and with them open;
 * - what they cost the other requests: the warm page of 50 and the warm spending miss at 32
 *   connections (bench/scenarios.ts), measured before the streams open and while they are;
 * - a change set touching 1,000 of those users (one new transaction each), applied with
 *   build-db's code: how long the apply takes, and from its publication (build-db's own
 *   `published generation` line) the time to the first and the last `changed` received (a
 *   `changed` for a user it did not touch is counted as an error);
 * - SIGTERM with every stream open: the time to exit, and its code.
 *
 *   npx tsx bench/events.ts [--backend duckdb|postgres] [--streams 10000] [--touched 1000]
 *     [--seconds 10] [--cluster-port 54400]
 *
 * The store is the bench's main store (bench/stores.ts), copied (DuckDB) or loaded into a
 * database of its own (the cluster) so that the change set leaves the cached one as it was.
 * The server runs with the bench's settings (rate limiting, shedding and the per-client bounds
 * off) and MAX_CONNECTIONS above the streams.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { parseCliArgs, parseIntegerOption, runCli, UsageError } from '../src/cli/args.ts';
import { csvField } from '../src/ingest/csv-field.ts';
import { applyChanges } from '../src/ingest/duckdb/apply.ts';
import { applyPostgresChanges } from '../src/ingest/postgres/build.ts';
import { tokensPathFor } from '../src/tokens/path.ts';
import {
  CLUSTER_PORT,
  ensureClusterStore,
  startBenchCluster,
  stopBenchCluster,
} from './cluster.ts';
import { measureHttp } from './load.ts';
import { startServer } from './process.ts';
import { mainScenarios, TODAY, WARM_MISS, WARM_PAGE } from './scenarios.ts';
import { type BenchStore, CACHE_DIR, ensureStore } from './stores.ts';

const HELP = `
Usage: npx tsx bench/events.ts [options]

Event streams at scale on the bench's main store (10,000 users): resident memory with the
streams open, what they cost the page and the spending miss at 32 connections, the time from a
change set touching some of the streams' users to the last \`changed\`, and a shutdown with
every stream open (loopback only, the real server process).

Options:
  --backend NAME    duckdb (default) or postgres (a local cluster under bench/cache)
  --streams N       streams open, one per typical user (default 10000)
  --touched N       users of those the change set touches (default 1000)
  --seconds S       each load measurement (default 10)
  --cluster-port N  the bench cluster coordinator's port, the shards' the next two (default
                    54400; another when a second checkout benches at once)
  -h, --help        show this help
`;

/** The server's resident set now (VmRSS), MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** The server's V8 heap in use and reserved, MiB, from its metrics. */
async function heapMiB(metricsUrl: string): Promise<string> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  return `heap ${gauge('nodejs_heap_size_used_bytes').toFixed(0)} of ${gauge('nodejs_heap_size_total_bytes').toFixed(0)} MiB`;
}

interface OpenStream {
  socket: Socket;
  userId: string;
  ready: Promise<void>;
  /** When each `changed` arrived (ms since the epoch). */
  changed: number[];
  ended: Promise<'clean' | 'cut'>;
}

/** A stream over a raw socket: only what the bench counts is parsed (ready, changed, the end). */
function openStream(port: number, token: string, userId: string): OpenStream {
  const socket = connect(port, '127.0.0.1');
  const changed: number[] = [];
  let text = '';
  let readySeen: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    readySeen = resolve;
  });
  const ended = new Promise<'clean' | 'cut'>((resolve) => {
    socket.once('error', () => resolve('cut'));
    // A clean end: the chunked body's last chunk came before the connection closed.
    socket.once('close', () => resolve(text.endsWith('\r\n0\r\n\r\n') ? 'clean' : 'cut'));
  });
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    const now = Date.now();
    let at = chunk.indexOf('event: changed');
    while (at >= 0) {
      changed.push(now);
      at = chunk.indexOf('event: changed', at + 1);
    }
    if (chunk.includes('event: ready')) readySeen();
    // Only the tail is kept: enough to tell the last chunk.
    text = (text + chunk).slice(-16);
  });
  socket.write(
    `GET /v2/users/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  return { socket, userId, ready, changed, ended };
}

const ms = (value: number) => `${Math.round(value)} ms`;

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Each user's first account, from the store file (the change set's transactions go there). */
async function firstAccounts(
  databasePath: string,
  userIds: string[],
): Promise<Map<string, string>> {
  const instance = await DuckDBInstance.create(databasePath, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const rows = (
      await conn.runAndReadAll(
        'SELECT user_id, min(id) AS id FROM accounts WHERE list_contains($1::VARCHAR[], user_id) GROUP BY user_id',
        [listValue(userIds)],
      )
    ).getRowObjectsJson();
    return new Map(rows.map((row) => [String(row.user_id), String(row.id)]));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

await runCli('events', async () => {
  const args = parseCliArgs(HELP, {
    backend: { type: 'string' },
    streams: { type: 'string' },
    touched: { type: 'string' },
    seconds: { type: 'string' },
    'cluster-port': { type: 'string' },
  });
  const backend = args.backend ?? 'duckdb';
  if (!['duckdb', 'postgres'].includes(backend)) {
    throw new UsageError(`--backend must be duckdb or postgres, got '${backend}'`);
  }
  const streamCount = parseIntegerOption(args.streams, 'streams', { min: 1, fallback: 10_000 });
  const touchedCount = parseIntegerOption(args.touched, 'touched', { min: 1, fallback: 1_000 });
  const seconds = parseIntegerOption(args.seconds, 'seconds', { min: 1, fallback: 10 });
  const clusterPort = parseIntegerOption(args['cluster-port'], 'cluster-port', {
    min: 1024,
    fallback: CLUSTER_PORT,
  });
  if (clusterPort > 65_533) throw new UsageError('--cluster-port must be at most 65533');
  if (touchedCount > streamCount) throw new UsageError('--touched must be at most --streams');
  const progress = (line: string) => process.stderr.write(`${line}\n`);

  const cached = await ensureStore(
    { label: '10M', users: 10_000, months: 14, seed: 'bench', heavyUserTransactions: 500_000 },
    { rebuild: false, progress },
  );
  if (cached.typical.length < streamCount) {
    throw new UsageError(`--streams ${streamCount}: the store has ${cached.typical.length} users`);
  }
  // The change set goes to a copy: the cached store stays as built.
  const dir = join(CACHE_DIR, 'events');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const databasePath = join(dir, 'finance.duckdb');
  progress(`copying the store to ${databasePath}`);
  await copyFile(cached.databasePath, databasePath);
  await copyFile(tokensPathFor(cached.databasePath), tokensPathFor(databasePath));
  const store: BenchStore = { ...cached, databasePath };
  let databaseUrl: string | undefined;
  if (backend === 'postgres') {
    const cluster = await startBenchCluster(progress, clusterPort);
    databaseUrl = await ensureClusterStore(
      cluster,
      { ...store, spec: { ...store.spec, label: `${store.spec.label}-events` } },
      progress,
    );
  }
  /** The server's lines about swaps and streams (pino's: `time` in epoch ms). */
  const serverSays: Record<string, unknown>[] = [];
  const server = await startServer({
    databasePath,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: {
      MALLOC_ARENA_MAX: '2',
      TODAY,
      RATE_LIMIT_MAX: '0',
      CLIENT_MAX_IN_FLIGHT: '0',
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      MAX_REQUESTS_PER_SOCKET: '0',
      MAX_CONNECTIONS: String(streamCount + 1_000),
      EVENT_STREAMS_MAX: String(streamCount),
      // The swap's and the streams' own lines (below) are at info level.
      LOG_LEVEL: 'info',
    },
    progress,
    onLogLine: (line) => {
      if (!/"msg":"(store swapped|event streams|shutting down|shut down)/.test(line)) return;
      const entry = JSON.parse(line) as Record<string, unknown>;
      serverSays.push(entry);
    },
  });

  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    progress(line);
  };
  let stopped = false;
  try {
    const port = Number(new URL(server.url).port);
    const scenarios = mainScenarios().filter(
      (scenario) =>
        (scenario.name === WARM_PAGE || scenario.name === WARM_MISS) && scenario.connections === 32,
    );
    const users = { typical: store.typical, heavy: null };
    const seen = new Set<string>();
    const touched = new Set<string>();
    const load = async (when: string) => {
      for (const [index, scenario] of scenarios.entries()) {
        const { measured } = await measureHttp({
          url: server.url,
          pid: server.pid,
          scenario,
          users,
          seconds,
          warmupSeconds: 2,
          seed: index + 1,
          seen,
          touched,
        });
        say(
          `${when}: ${scenario.name} @32: ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms, ${measured.errors} errors`,
        );
      }
    };
    say(
      `${backend}, ${store.transactions} transactions, ${streamCount} streams; load ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    const memory = async () =>
      `RSS ${(await rssMiB(server.pid)).toFixed(0)} MiB, ${await heapMiB(server.metricsUrl)}`;
    say(`server at start: ${await memory()}`);
    await load('without streams');
    const before = await rssMiB(server.pid);
    say(`server after the load, before the streams: ${await memory()}`);

    const opening = performance.now();
    const streams: OpenStream[] = [];
    for (let k = 0; k < streamCount; k += 500) {
      const batch = store.typical
        .slice(k, Math.min(streamCount, k + 500))
        .map((user) => openStream(port, user.token, user.userId));
      streams.push(...batch);
      await Promise.all(batch.map((stream) => stream.ready));
    }
    const opened = performance.now() - opening;
    const withStreams = await rssMiB(server.pid);
    say(
      `${streamCount} streams open in ${ms(opened)}: server ${await memory()} (RSS +${(withStreams - before).toFixed(0)} MiB, ${((1024 * (withStreams - before)) / streamCount).toFixed(1)} KiB a stream)`,
    );
    await load(`with ${streamCount} streams`);
    say(`server after the load with the streams: ${await memory()}`);

    // The change set: one new transaction for each of the first --touched users.
    const chosen = streams.slice(0, touchedCount);
    const accounts = await firstAccounts(
      databasePath,
      chosen.map((stream) => stream.userId),
    );
    const changesDir = join(dir, 'changes');
    await mkdir(changesDir);
    await writeFile(
      join(changesDir, 'transactions.csv'),
      [
        'id,user_id,account_id,transacted_at,amount,direction,description,category',
        ...chosen.map((stream, k) =>
          [
            `txn_bench_events_${k}`,
            stream.userId,
            accounts.get(stream.userId) ?? '',
            TODAY,
            '12.34',
            'DEBIT',
            'BENCH EVENTS',
            'General Merchandise',
          ]
            .map(csvField)
            .join(','),
        ),
      ].join('\n'),
    );
    const applying = performance.now();
    // The moment build-db says it published: on the cluster it drops old generations after.
    let publishedAt: number | undefined;
    const onProgress = (line: string) => {
      if (line.startsWith('published generation')) publishedAt ??= Date.now();
    };
    if (databaseUrl) await applyPostgresChanges({ changesDir, databaseUrl, onProgress });
    else await applyChanges({ changesDir, databasePath, onProgress });
    const returned = Date.now();
    const published = publishedAt ?? returned;
    say(
      `change set of ${touchedCount} users applied in ${ms(performance.now() - applying)}, published ${ms(returned - published)} before build-db returned`,
    );
    const deadline = published + 120_000;
    while (chosen.some((stream) => stream.changed.length === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const arrivals = chosen
      .flatMap((stream) => stream.changed.slice(0, 1))
      .map((at) => at - published);
    const strays = streams.slice(touchedCount).filter((stream) => stream.changed.length > 0).length;
    say(
      `changed received by ${arrivals.length} of ${touchedCount} (${strays} by users not touched): from publication, first ${ms(Math.min(...arrivals))}, median ${ms(quantile(arrivals, 0.5))}, last ${ms(Math.max(...arrivals))}`,
    );
    const swapped = serverSays.find((entry) => String(entry.msg).startsWith('store swapped'));
    const told = serverSays.find((entry) => String(entry.msg).startsWith('event streams told'));
    if (swapped && told) {
      say(
        `  of which (the server's clock): served ${ms(Number(swapped.time) - published)} after publication (the watch, the open, ${swapped.warmedUsers ?? 0} users warmed in ${ms(Number(swapped.warmedMs ?? 0))}); the streams' ${told.streams} users read and ${told.changed} events written ${ms(Number(told.time) - Number(swapped.time))} after it served, ${ms(Number(told.ms))} of it for the read and the writes`,
      );
    }
    say(`server after the change set: ${await memory()}`);

    const code = await server.stop();
    stopped = true;
    const ends = await Promise.all(streams.map((stream) => stream.ended));
    const shutdown = (message: string) =>
      Number(serverSays.find((entry) => String(entry.msg).startsWith(message))?.time);
    say(
      `SIGTERM with ${streamCount} streams open: exit code ${code}, shut down in ${ms(shutdown('shut down') - shutdown('shutting down'))} (the server's clock); ${ends.filter((end) => end === 'clean').length} streams ended cleanly`,
    );
  } finally {
    if (!stopped) await server.stop();
    if (backend === 'postgres') await stopBenchCluster();
  }
  process.stdout.write(`${lines.join('\n')}\n`);
});
