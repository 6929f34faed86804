import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseCliArgs, parseIntegerOption, runCli, UsageError } from '../src/cli/args.ts';
import {
  CLUSTER_PORT,
  ensureClusterStore,
  startBenchCluster,
  stopBenchCluster,
} from './cluster.ts';
import { type ExportResult, formatExports, runExports } from './exports.ts';
import { type IngestResult, judgeIngest, runIngest } from './ingest.ts';
import { type Phase, runPhase } from './phase.ts';
import { clusterLabel, formatSideBySide, formatTable, judgeTargets, type Row } from './report.ts';
import { comparisonScenarios, mainScenarios, type Scenario, TODAY } from './scenarios.ts';
import { type BenchStore, ensureStore, ROOT, type StoreSpec } from './stores.ts';

const HELP = `
Usage: npm run bench -- [--quick] [--backend duckdb|postgres|both] [options]

Builds (or reuses, from bench/cache/) a large store with the fixtures generator and
build-db (a token for every user), starts the real server (src/main.ts) as its own process,
drives it over HTTP with autocannon from this process, measures the same requests' raw store
queries in-process (the engine's ceiling) and a bare route (the framework's ceiling), and
prints one table. Results are also written as JSON under bench/results/.

Stores (keyed by their parameters and by the generator/builder code, rebuilt when it changes):
  full     10,000 users (about 10M transactions) + one heavy user of 500,000;
           comparison store of 1,000 users (about 1M)
  --quick  2,000 users + the same heavy user; comparison store of 200 users; short runs
           (a few minutes per engine once the stores exist, a few more to build them)

Scenarios on the main store, in this order, one server for all (* also in --quick); a page
is /v2/users/transactions?page=1&page_size=50, a spending miss a random grouping over a
one-year window no request asked before (the response cache misses):
  bare route /healthz @1, @32*            the framework's ceiling
  cold page (50) @1*, cold spending miss @1
                                          each request a user no earlier request of the run
                                          named, over all typical users: the working set reads
                                          the user from the engine
  warm page (50) @1, @32*, warm spending miss @1*, @32
                                          1,000 typical users, each asked once before
                                          (unmeasured), then again
  Zipf mix, pages and misses @32*         users drawn by Zipf rank (exponent 1) over all
                                          typical users, half pages, half spending misses
  typical mix, new windows @1*, @32*      spending misses of 1,000 typical users
  typical mix, hot users, cached @1*, @32*
                                          repeats of 200 users' default windows
  typical <grouping>, new windows @1, @32 each grouping alone
  heavy <grouping>, cached / new windows  the user of 500,000 transactions (*: by category)
  recurring, new users @1*, @32*          one typical user after another: cache misses
  profile /v1/user @32
The comparison store runs the two typical mixes. After each scenario the working set's size
(MiB, users), its hit rate (hits / (hits + misses)) and evictions during the measured run are
scraped from the server's metrics port; the server's peak RSS over the whole run is reported
per engine. Scenarios whose requests the working set answers get no engine ceiling.

Options:
  --quick                 small stores, short runs
  --backend NAME          duckdb (default), postgres (the same data on a local sharded
                          cluster of a coordinator and two shards, kept under
                          bench/cache/cluster and stopped at the end), or both: every
                          scenario on each, then a side-by-side table (postgres / duckdb)
  --duration S            seconds measured per scenario (default 10; quick 2)
  --pool-size N           DB_POOL_SIZE of the server and the engine ceiling (default 4)
  --threads N             DUCKDB_THREADS (default 1, the server's default: a third more
                          typical queries per second than 2 on this machine kind)
  --uv-threads N          UV_THREADPOOL_SIZE (default: pool size + 4)
  --memory-limit-mb N     MEMORY_LIMIT_MB, the server's memory budget (default: the server's,
                          512 MiB without a container limit); the parts below, unset, are
                          sized from it as the server sizes them
  --memory-limit SIZE     DUCKDB_MEMORY_LIMIT
  --old-space-mb N        V8 old generation limit, --max-old-space-size
  --malloc-arenas N       MALLOC_ARENA_MAX for glibc (default 2, as the image sets it)
  --cache-mb N            RESPONSE_CACHE_MB of the spending answers (0 = off)
  --working-set-mb N      WORKING_SET_MB, the per-user working set (0 = off)
  --cluster-port N        the bench cluster coordinator's port, the shards' the next two
                          (default 54400; another port when a second checkout benches at once)
  --only TEXT[,TEXT...]   run only the scenarios whose name contains one of the TEXTs
  --no-comparison         skip the size-independence comparison store
  --no-engine             skip the engine ceiling
  --no-ingest             skip the ingest: a change set of 10,000 transactions (8,000 new,
                          1,500 modified, 500 removed, over 2,000 users) applied with
                          build-db --changes beside a full rebuild, while a server is read,
                          then the sync feed's pages (per backend)
  --no-exports            skip the exports: the heavy user's whole transaction list once in
                          each format (JSON, CSV, NDJSON, Parquet), rows/s and peak RSS
                          (per backend)
  --rebuild               regenerate and rebuild the stores
  --out FILE              JSON result path (default bench/results/<date>-<full|quick>.json)
  --strict                exit 3 when a target is missed
  -h, --help              show this help

Exit codes: 0 measured (targets are reported, not enforced unless --strict), 1 failure,
2 wrong usage, 3 a target missed with --strict.
`;

function storeSpecs(quick: boolean): { main: StoreSpec; comparison: StoreSpec } {
  return quick
    ? { main: spec('2M', 2000, 500_000), comparison: spec('0.2M', 200, 0) }
    : { main: spec('10M', 10_000, 500_000), comparison: spec('1M', 1000, 0) };
}

function spec(label: string, users: number, heavy: number): StoreSpec {
  return { label, users, months: 14, seed: 'bench', heavyUserTransactions: heavy };
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

await runCli('bench', async () => {
  const args = parseCliArgs(HELP, {
    quick: { type: 'boolean' },
    backend: { type: 'string' },
    duration: { type: 'string' },
    'pool-size': { type: 'string' },
    threads: { type: 'string' },
    'uv-threads': { type: 'string' },
    'memory-limit': { type: 'string' },
    'cache-mb': { type: 'string' },
    'working-set-mb': { type: 'string' },
    'old-space-mb': { type: 'string' },
    'memory-limit-mb': { type: 'string' },
    'malloc-arenas': { type: 'string' },
    'cluster-port': { type: 'string' },
    only: { type: 'string' },
    'no-comparison': { type: 'boolean' },
    'no-engine': { type: 'boolean' },
    'no-ingest': { type: 'boolean' },
    'no-exports': { type: 'boolean' },
    rebuild: { type: 'boolean' },
    out: { type: 'string' },
    strict: { type: 'boolean' },
  });
  const quick = args.quick === true;
  const backend = args.backend ?? 'duckdb';
  if (!['duckdb', 'postgres', 'both'].includes(backend)) {
    throw new UsageError(`--backend must be duckdb, postgres or both, got '${backend}'`);
  }
  const backends = backend === 'both' ? ['duckdb', 'postgres'] : [backend];
  const seconds = parseIntegerOption(args.duration, 'duration', {
    min: 1,
    fallback: quick ? 2 : 10,
  });
  const poolSize = parseIntegerOption(args['pool-size'], 'pool-size', { min: 1, fallback: 4 });
  const threads = parseIntegerOption(args.threads, 'threads', { min: 1, fallback: 1 });
  const uvThreads = parseIntegerOption(args['uv-threads'], 'uv-threads', {
    min: 1,
    fallback: poolSize + 4,
  });
  if (uvThreads > 1024) throw new UsageError('--uv-threads must be at most 1024');
  // Unset, each part is the server's own: sized from its memory budget (memory-plan.ts).
  const memoryLimit = args['memory-limit'];
  if (memoryLimit !== undefined && !/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(memoryLimit)) {
    throw new UsageError(`--memory-limit must be a size such as 256MB, got '${memoryLimit}'`);
  }
  const optionalCount = (name: string, min = 0) =>
    args[name as keyof typeof args] === undefined
      ? undefined
      : parseIntegerOption(args[name as keyof typeof args] as string, name, { min, fallback: 0 });
  const cacheMb = optionalCount('cache-mb');
  const workingSetMb = optionalCount('working-set-mb');
  const oldSpaceMb = optionalCount('old-space-mb', 64);
  const memoryBudgetMb = optionalCount('memory-limit-mb', 64);
  const mallocArenas = parseIntegerOption(args['malloc-arenas'], 'malloc-arenas', {
    min: 1,
    fallback: 2,
  });
  const clusterPort = parseIntegerOption(args['cluster-port'], 'cluster-port', {
    min: 1024,
    fallback: CLUSTER_PORT,
  });
  if (clusterPort > 65_533) throw new UsageError('--cluster-port must be at most 65533');
  const env = {
    TODAY,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: String(poolSize),
    DUCKDB_THREADS: String(threads),
    UV_THREADPOOL_SIZE: String(uvThreads),
    ...(memoryLimit === undefined ? {} : { DUCKDB_MEMORY_LIMIT: memoryLimit }),
    ...(cacheMb === undefined ? {} : { RESPONSE_CACHE_MB: String(cacheMb) }),
    ...(workingSetMb === undefined ? {} : { WORKING_SET_MB: String(workingSetMb) }),
    ...(memoryBudgetMb === undefined ? {} : { MEMORY_LIMIT_MB: String(memoryBudgetMb) }),
    MALLOC_ARENA_MAX: String(mallocArenas),
    // autocannon keeps sending on a connection the server asked to close (after
    // MAX_REQUESTS_PER_SOCKET requests), and counts the 503s Node then answers as errors.
    MAX_REQUESTS_PER_SOCKET: '0',
    // A few hot tokens call thousands of times a second, over up to 32 connections each: the
    // limiter would answer 429, and the per-client concurrency bound too.
    RATE_LIMIT_MAX: '0',
    CLIENT_MAX_IN_FLIGHT: '0',
    // Saturating the event loop is the point of the 32-connection scenarios: measure the
    // throughput the server reaches, not how much it sheds (503).
    SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    SHED_MAX_HEAP_BYTES: '0',
    SHED_MAX_RSS_BYTES: '0',
    ...(oldSpaceMb === undefined
      ? {}
      : {
          NODE_OPTIONS:
            `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${oldSpaceMb}`.trim(),
        }),
  };
  const started = new Date();
  const specs = storeSpecs(quick);
  const mainStore = await ensureStore(specs.main, { rebuild: args.rebuild === true, progress });
  const comparisonStore = args['no-comparison']
    ? null
    : await ensureStore(specs.comparison, { rebuild: args.rebuild === true, progress });

  const select = (scenarios: Scenario[], store: BenchStore) =>
    scenarios
      .map((scenario, index) => ({ index, scenario }))
      .filter(
        ({ scenario }) =>
          !args.only || args.only.split(',').some((part) => scenario.name.includes(part.trim())),
      )
      .filter(({ scenario }) => !quick || scenario.quick === true)
      .filter(({ scenario }) => !scenario.needsHeavy || store.heavy !== null);

  const resultsDir = join(ROOT, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  const jobPath = join(ROOT, 'bench', 'cache', `engine-job-${process.pid}.json`);
  const phaseOptions = {
    env,
    seconds,
    warmup: quick ? 1 : 2,
    engine: args['no-engine'] !== true,
    samples: quick ? 60 : 200,
    jobPath,
  };
  const rows: Row[] = [];
  /** Per engine: the server's peak resident set over all its phases. */
  const serverPeaks = new Map<string, number | null>();
  const ingests: IngestResult[] = [];
  const exports: ExportResult[] = [];
  const cluster = backends.includes('postgres')
    ? await startBenchCluster(progress, clusterPort)
    : null;
  try {
    for (const engine of backends) {
      // The cluster's phases read the same built store, loaded into a database of its own.
      const onEngine = async (store: BenchStore): Promise<BenchStore> =>
        engine === 'postgres' && cluster
          ? {
              ...store,
              spec: { ...store.spec, label: clusterLabel(store.spec.label) },
              databaseUrl: await ensureClusterStore(cluster, store, progress),
            }
          : store;
      const measure = async (phase: Phase) => {
        const result = await runPhase(phase, progress, phaseOptions);
        rows.push(...result.rows);
        const peaks = [serverPeaks.get(engine), result.serverPeakRssMiB];
        const known = peaks.filter((peak): peak is number => typeof peak === 'number');
        serverPeaks.set(engine, known.length > 0 ? Math.max(...known) : null);
      };
      const scenarios = select(mainScenarios(), mainStore);
      const exporting = args['no-exports'] !== true && mainStore.heavy !== null;
      const main = scenarios.length > 0 || exporting ? await onEngine(mainStore) : null;
      if (main && scenarios.length > 0) {
        await measure({ store: main, set: 'main', scenarios });
      }
      if (main && exporting) {
        exports.push(...(await runExports({ engine, store: main, env, progress })));
      }
      if (args['no-ingest'] !== true) {
        ingests.push(
          await runIngest({
            engine: engine as 'duckdb' | 'postgres',
            store: mainStore,
            cluster,
            env,
            seconds,
            progress,
          }),
        );
      }
      if (comparisonStore) {
        const comparison = await onEngine(comparisonStore);
        await measure({
          store: comparison,
          set: 'comparison',
          scenarios: select(comparisonScenarios(), comparison),
        });
      }
    }
  } finally {
    await rm(jobPath, { force: true });
    if (cluster) await stopBenchCluster();
  }

  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverageAtEnd: loadavg().map((value) => Number(value.toFixed(2))),
    node: process.version,
  };
  const labelOn = (engine: string, label: string) =>
    engine === 'postgres' ? clusterLabel(label) : label;
  const targets = [
    ...ingests.flatMap(judgeIngest),
    ...backends.flatMap((engine) =>
      judgeTargets(
        rows,
        labelOn(engine, mainStore.spec.label),
        comparisonStore ? labelOn(engine, comparisonStore.spec.label) : null,
        serverPeaks.get(engine) ?? null,
      ).map((target) =>
        backends.length > 1 ? { ...target, text: `${engine}: ${target.text}` } : target,
      ),
    ),
  ];
  const table =
    backends.length > 1
      ? `${formatTable(rows)}\n\nside by side:\n${formatSideBySide(rows)}`
      : formatTable(rows);
  const exportTable =
    exports.length > 0
      ? `\n\nexports of the heavy user's list, one at a time:\n${formatExports(exports)}`
      : '';
  process.stdout.write(
    `\n${table}${exportTable}\n\n` +
      `stores: ${mainStore.spec.label} = ${mainStore.transactions.toLocaleString('en-US')} transactions` +
      (comparisonStore
        ? `, ${comparisonStore.spec.label} = ${comparisonStore.transactions.toLocaleString('en-US')}`
        : '') +
      `; settings: ${Object.entries(env)
        .filter(([name]) => name !== 'TODAY' && name !== 'LOG_LEVEL')
        .map(([name, value]) => `${name}=${value}`)
        .join(
          ' ',
        )}; ${machine.cpus} CPUs, load average at end ${machine.loadAverageAtEnd.join(' ')}\n` +
      `server peak RSS over the whole run (prewarms and warmups included): ${backends
        .map((engine) => {
          const peak = serverPeaks.get(engine);
          return `${engine} ${peak == null ? '-' : `${peak.toFixed(0)} MiB`}`;
        })
        .join(', ')}\n\n` +
      `targets${quick ? ' (stated for the full run: quick figures are indicative only)' : ''}:\n` +
      `${targets.map((target) => `  ${target.met ? 'met   ' : 'MISSED'} ${target.text}`).join('\n')}\n`,
  );
  const out =
    args.out ??
    join(
      resultsDir,
      `${started.toISOString().replace(/[:.]/g, '-')}-${quick ? 'quick' : 'full'}.json`,
    );
  await writeFile(
    out,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        mode: quick ? 'quick' : 'full',
        backends,
        secondsPerScenario: seconds,
        settings: env,
        machine,
        stores: [mainStore, comparisonStore].filter(Boolean).map((store) => ({
          label: store?.spec.label,
          spec: store?.spec,
          transactions: store?.transactions,
          sizeBytes: store?.sizeBytes,
        })),
        rows,
        serverPeakRssMiB: Object.fromEntries(serverPeaks),
        ingest: ingests,
        exports,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  progress(`results written to ${out}`);
  if (args.strict && targets.some((target) => !target.met)) process.exitCode = 3;
});
