/**
 * The engine's ceiling, run as its own process with the server's settings: the raw store
 * queries a scenario's requests make, without HTTP, validation or shaping.
 *
 * Which queries: the app itself is built in this process over a recording store, and a sample
 * of the scenario's drawn requests is injected (no socket); every store query each request
 * issues is recorded with its parameters, queries started while another was in flight as one
 * parallel group (Promise.all in a handler). The load then replays random recorded requests,
 * group by group, straight on the store's connection pool, with as many concurrent callers as the HTTP
 * scenario has connections. So the mix is the API's own, auth lookup included, and no SQL
 * is copied here.
 *
 * The port has a working set as the server's (WORKING_SET_MB), and a scenario's prewarm is sent
 * first, so a user's first request records the read of the user's transactions and a warm
 * user's records what the server still asks the store. A request that asks the store nothing
 * was answered from memory: a scenario with any such request gets no ceiling (the engine's
 * queries would not be what the server runs), only the share answered from memory.
 *
 * Input: a JSON job file path as the only argument; output: one JSON line per scenario on stdout.
 */
import { readFile } from 'node:fs/promises';
import { buildApp } from '../src/app.ts';
import { createClock } from '../src/clock.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { openDuckDbPort } from '../src/engines/duckdb/port.ts';
import { PgPool } from '../src/engines/postgres/pool.ts';
import { openPostgresPort } from '../src/engines/postgres/port.ts';
import { CoordinatorTokens } from '../src/engines/postgres/tokens.ts';
import { planMemory } from '../src/memory-plan.ts';
import { WorkingSet } from '../src/port/working-set/port.ts';
import type { SqlParam } from '../src/sql/statement.ts';
import { peakRssMiB, resetPeakRss } from './process.ts';
import {
  comparisonScenarios,
  type DrawnRequest,
  mainScenarios,
  seededRandom,
  type Users,
} from './scenarios.ts';
import { type Measured, summarize } from './stats.ts';

export interface EngineJob {
  databasePath: string;
  /** The PostgreSQL cluster holding the same data, read instead of the DuckDB file. */
  databaseUrl?: string;
  set: 'main' | 'comparison';
  /** Indexes into the set's scenarios. */
  scenarios: number[];
  users: Users;
  seconds: number;
  warmupSeconds: number;
  /** At most this many requests are recorded per scenario (fewer if recording takes long). */
  samples: number;
  seed: number;
}

/** One line of the output. */
export interface EngineResult {
  index: number;
  samples: number;
  queriesPerRequest: number;
  /** Share of the recorded requests that asked the store nothing (answered from memory). */
  memoryShare: number;
  /** Null when any recorded request was answered from memory. */
  measured: Measured | null;
}

interface RecordedQuery {
  sql: string;
  params: readonly SqlParam[];
}
type RecordedRequest = RecordedQuery[][];

type Query = (sql: string, params?: readonly SqlParam[]) => Promise<Record<string, unknown>[]>;

/**
 * Records every query the pool runs while `recording` is set: queries started while another
 * is in flight join its parallel group.
 */
class QueryRecorder {
  recording: RecordedRequest | null = null;
  private inFlight = 0;

  constructor(private readonly run: Query) {}

  readonly query: Query = async (sql, params = []) => {
    if (this.recording) {
      const call = { sql, params };
      const group = this.recording.at(-1);
      if (this.inFlight > 0 && group) group.push(call);
      else this.recording.push([call]);
    }
    this.inFlight++;
    try {
      return await this.run(sql, params);
    } finally {
      this.inFlight--;
    }
  };
}

async function replay(query: Query, request: RecordedRequest): Promise<void> {
  for (const group of request) {
    await Promise.all(group.map((call) => query(call.sql, call.params)));
  }
}

async function load(
  query: Query,
  recorded: RecordedRequest[],
  connections: number,
  seconds: number,
  seed: number,
  latencies: number[] | null,
): Promise<{ errors: number; seconds: number }> {
  const random = seededRandom(seed);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const request = recorded[Math.floor(random() * recorded.length)] as RecordedRequest;
      const begun = performance.now();
      try {
        await replay(query, request);
        latencies?.push(performance.now() - begun);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { errors, seconds: (performance.now() - started) / 1000 };
}

/**
 * The cluster's port as the server opens it (src/server.ts): a pool of its own, and the
 * coordinator's tokens cached, so a user's token is looked up on the first request only.
 */
async function openCluster(databaseUrl: string, config: Config, workingSet: WorkingSet) {
  const pool = new PgPool(databaseUrl, {
    poolSize: config.DB_POOL_SIZE,
    queryTimeoutMs: config.QUERY_TIMEOUT_MS,
  });
  const coordinatorTokens = new CoordinatorTokens(pool, databaseUrl);
  coordinatorTokens.start();
  // Until the cache is live every request looks its token up, as the server's would.
  const deadline = performance.now() + 5000;
  while (!coordinatorTokens.caching && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const store = await openPostgresPort(pool, { coordinatorTokens, workingSet });
  return {
    store,
    close: async () => {
      await store.close();
      await coordinatorTokens.close();
      await pool.close();
    },
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(await readFile(process.argv[2] as string, 'utf8')) as EngineJob;
  const config = loadConfig();
  const memory = planMemory(config);
  const workingSet = new WorkingSet({
    maxBytes: memory.workingSet,
    maxRows: config.WORKING_SET_MAX_ROWS,
  });
  const { store, close } = job.databaseUrl
    ? await openCluster(job.databaseUrl, config, workingSet)
    : await openDuckDbPort(job.databasePath, {
        poolSize: config.DB_POOL_SIZE,
        threads: config.DUCKDB_THREADS,
        memoryLimit: memory.duckdb,
        workingSet,
      }).then((port) => ({ store: port, close: () => port.close() }));
  const pool = store.pool as { query: Query };
  const query: Query = pool.query.bind(pool);
  const recording = new QueryRecorder(query);
  pool.query = recording.query;
  // Never cached: a request the response cache answered would record no store query, and its
  // replay would spin on nothing (a cached scenario's ceiling ran out of heap that way).
  const app = await buildApp({
    store,
    clock: createClock(config.TODAY),
    config: { ...config, RESPONSE_CACHE_MB: 0 },
  });
  const all = job.set === 'main' ? mainScenarios() : comparisonScenarios();
  // This process's own: its working set is not the server's.
  const touched = new Set<string>();
  const ask = async (name: string, drawn: DrawnRequest) => {
    if (drawn.token) touched.add(drawn.token);
    const response = await app.inject({
      method: 'GET',
      url: drawn.path,
      headers: drawn.token ? { authorization: `Bearer ${drawn.token}` } : {},
    });
    if (response.statusCode !== 200) {
      throw new Error(
        `${name}: ${drawn.path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`,
      );
    }
  };
  try {
    for (const index of job.scenarios) {
      const scenario = all[index];
      if (!scenario) throw new Error(`no scenario ${index} in ${job.set}`);
      const prewarm = scenario.prewarm?.(job.users) ?? [];
      let next = 0;
      const prewarmer = async () => {
        while (next < prewarm.length) await ask(scenario.name, prewarm[next++] as DrawnRequest);
      };
      await Promise.all(Array.from({ length: config.DB_POOL_SIZE }, prewarmer));
      const random = seededRandom(job.seed + index);
      const recorded: RecordedRequest[] = [];
      const recordUntil = performance.now() + 3000;
      while (
        recorded.length < job.samples &&
        (recorded.length === 0 || performance.now() < recordUntil) &&
        (scenario.supply?.(job.users, touched) ?? 1) > 0
      ) {
        const drawn = scenario.draw(random, job.users, touched);
        recording.recording = [];
        await ask(scenario.name, drawn);
        recorded.push(recording.recording);
        recording.recording = null;
      }
      if (recorded.length === 0) throw new Error(`${scenario.name}: nothing left to draw`);
      const queries =
        recorded.reduce((sum, request) => sum + request.flat().length, 0) / recorded.length;
      const memoryShare =
        recorded.filter((request) => request.length === 0).length / recorded.length;
      const result: EngineResult = {
        index,
        samples: recorded.length,
        queriesPerRequest: queries,
        memoryShare,
        measured: null,
      };
      if (memoryShare > 0) {
        // Replaying a request that asks nothing spins without yielding.
        process.stdout.write(`${JSON.stringify(result)}\n`);
        continue;
      }
      if (job.warmupSeconds > 0) {
        await load(
          query,
          recorded,
          scenario.connections,
          job.warmupSeconds,
          job.seed + 500_000,
          null,
        );
      }
      await resetPeakRss(process.pid);
      const latencies: number[] = [];
      const loaded = await load(
        query,
        recorded,
        scenario.connections,
        Math.max(job.seconds, scenario.minSeconds ?? 0),
        job.seed,
        latencies,
      );
      result.measured = summarize(
        latencies,
        loaded.seconds,
        loaded.errors,
        await peakRssMiB(process.pid),
      );
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
  } finally {
    await app.close();
    await close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench engine: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
