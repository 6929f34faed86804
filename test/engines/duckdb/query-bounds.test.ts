/**
 * Bounds on what a request can make the store and the process do: the per-query time limit
 * (interrupted, 503), the bound on requests waiting for a connection, DuckDB's locked-down
 * configuration, a close that lets running queries finish, and load shedding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createClock } from '../../../src/clock.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import { type DuckDbPort, openDuckDbPort } from '../../../src/engines/duckdb/port.ts';
import { StoreUnavailableError } from '../../../src/port/read-port.ts';
import { bearer, configOf, DEMO_TODAY, demoStoreCopy } from '../../helpers/server.ts';

/** Minutes of work for one DuckDB thread, unless interrupted. */
const SLOW_SQL = 'SELECT count(*) AS n FROM range(100000000000) t(x) WHERE x % 9973 = 1';
/** A fraction of a second of work. */
const BRIEF_SQL = 'SELECT count(*) AS n FROM range(20000000) t(x) WHERE x % 9973 = 1';

let path: string;
let token: string;
beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  path = demo.path;
  token = demo.tokens[0] as string;
});

describe('per-query time limit', () => {
  let store: DuckDbPort;
  beforeAll(async () => {
    store = await openDuckDbPort(path, { poolSize: 1, queryTimeoutMs: 300 });
  });
  afterAll(() => store.close());

  it('a query past the limit is interrupted and the request answers 503', async () => {
    const app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
    app.get('/test/slow', { config: { public: true } }, async () => store.pool.query(SLOW_SQL));
    const started = Date.now();
    const response = await app.inject({ url: '/test/slow' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: 'Service Unavailable' });
    expect(Date.now() - started).toBeLessThan(5000);
    // The one connection was interrupted, not lost: the next request is served.
    const next = await app.inject({ url: '/v1/user', headers: bearer(token) });
    expect(next.statusCode).toBe(200);
    await app.close();
  });

  it('rejects with StoreUnavailableError and records the outcome', async () => {
    const outcomes: string[] = [];
    const observed = await DuckDbPool.open(path, {
      poolSize: 1,
      queryTimeoutMs: 200,
      onQuery: (_seconds, outcome) => outcomes.push(outcome),
    });
    await expect(observed.query(SLOW_SQL)).rejects.toBeInstanceOf(StoreUnavailableError);
    await observed.ping();
    await expect(observed.query('SELECT nonsense FROM nowhere')).rejects.toThrow();
    expect(outcomes).toEqual(['timeout', 'ok', 'error']);
    await observed.close();
  });
});

describe('memory limit', () => {
  it('a query that exhausts DUCKDB_MEMORY_LIMIT answers 503, not 500', async () => {
    const store = await openDuckDbPort(path, {
      poolSize: 1,
      memoryLimit: 20e6,
      maxTempSize: '1MB',
    });
    const app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
    app.get('/test/hungry', { config: { public: true } }, async () =>
      store.pool.query(
        'SELECT x, count(*) AS n FROM (SELECT (random() * 1e9)::BIGINT AS x FROM range(20000000)) GROUP BY x ORDER BY n DESC LIMIT 1',
      ),
    );
    const response = await app.inject({ url: '/test/hungry' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: 'Service Unavailable' });
    await app.close();
    await store.close();
  });
});

describe('connection queue bound', () => {
  it('callers beyond DB_MAX_QUEUE waiting for a connection get 503 at once', async () => {
    const store = await openDuckDbPort(path, { poolSize: 1, maxQueue: 1 });
    const first = store.pool.query(BRIEF_SQL);
    const second = store.pool.query(BRIEF_SQL);
    await expect(store.pool.query(BRIEF_SQL)).rejects.toThrow(/saturated/);
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
    await store.close();
  });
});

describe('DuckDB is locked down', () => {
  let store: DuckDbPort;
  beforeAll(async () => {
    store = await openDuckDbPort(path, { poolSize: 1, threads: 1, memoryLimit: 256e6 });
  });
  afterAll(() => store.close());

  it('memory and thread limits are applied', async () => {
    const [row] = await store.pool.query(
      "SELECT current_setting('threads') AS threads, current_setting('memory_limit') AS memory",
    );
    expect(Number(row?.threads)).toBe(1);
    expect(String(row?.memory)).toMatch(/^2\d\d\.\d MiB$/);
  });

  it.each([
    "SELECT * FROM read_csv('/etc/passwd')",
    "SET memory_limit = '64GB'",
    "ATTACH '/tmp/other.duckdb' AS other",
    'INSTALL httpfs',
    "COPY (SELECT 1) TO '/tmp/out.csv'",
  ])('refuses %s', async (sql) => {
    await expect(store.pool.query(sql)).rejects.toThrow();
  });
});

describe('closing the store', () => {
  it('lets a running query finish, then refuses new ones', async () => {
    const store = await openDuckDbPort(path, { poolSize: 2 });
    const running = store.pool.query<{ n: string }>(BRIEF_SQL);
    const closed = store.close();
    await expect(running).resolves.toHaveLength(1);
    await closed;
    await expect(store.pool.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('load shedding', () => {
  it('past the event-loop delay threshold only a client already busy is shed; others and the probes are served', async () => {
    const store = await openDuckDbPort(path, { poolSize: 1 });
    const app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({
        SHED_MAX_EVENT_LOOP_DELAY_MS: '40',
        SHED_SAMPLE_INTERVAL_MS: '50',
        SHED_RETRY_AFTER_S: '7',
      }),
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/test/slow', { config: { public: true } }, async () => {
      await gate;
      return { done: true };
    });
    await app.ready();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const busy = '198.51.100.1';
    const other = '198.51.100.2';
    const servedWithin = async (ms: number, remoteAddress: string) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const status = (
          await app.inject({ url: '/v1/user', headers: bearer(token), remoteAddress })
        ).statusCode;
        if (status === 200 || Date.now() > deadline) return status;
        await sleep(50);
      }
    };
    expect(await servedWithin(3000, busy)).toBe(200);

    // The busy client has a request running...
    const running = app.inject({ url: '/test/slow', remoteAddress: busy });
    await sleep(20);
    // ... and the event loop is drowning: 80 ms blocks with barely a breath between them.
    for (let i = 0; i < 8; i++) {
      const until = Date.now() + 80;
      while (Date.now() < until) {
        // busy
      }
      await sleep(0);
    }
    // The client is its token, else its address (src/http/rate-limit.ts): without a token,
    // the busy address is the client that has a request running.
    const [shed, served, ready, alive] = await Promise.all([
      app.inject({ url: '/test/slow', remoteAddress: busy }),
      app.inject({ url: '/v1/user', headers: bearer(token), remoteAddress: other }),
      app.inject({ url: '/readyz' }),
      app.inject({ url: '/healthz' }),
    ]);
    expect(shed.statusCode).toBe(503);
    expect(shed.json()).toEqual({ detail: 'Service Unavailable' });
    expect(shed.headers['retry-after']).toBe('7');
    // A client with nothing running is served; the probes always are.
    expect(served.statusCode).toBe(200);
    expect(ready.statusCode).toBe(200);
    expect(alive.statusCode).toBe(200);

    release();
    expect((await running).statusCode).toBe(200);
    // It recovers once the event loop breathes again.
    expect(await servedWithin(5000, busy)).toBe(200);
    await app.close();
    await store.close();
  });
});
