/**
 * The store's queue is fair by client (docs/operations.md, "Overload and floods"): every store
 * query runs as the client of the request that needed it, so a client's waiting work never
 * holds back another's by more than a turn; a full queue refuses the deepest client's work and
 * counts as pressure, which sheds the heavy clients; a client that waits for each answer gets
 * only 200s through a flood of several tokens. On both engines, the flood against the real
 * server process over loopback, bounded in requests and in time.
 */
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { openDuckDbPort } from '../../src/engines/duckdb/port.ts';
import { PgPool } from '../../src/engines/postgres/pool.ts';
import { openPostgresPort } from '../../src/engines/postgres/port.ts';
import { ANONYMOUS_CLIENT, currentClient } from '../../src/port/client-context.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import type { Row, SqlParam } from '../../src/sql/statement.ts';
import { FollowedTokens } from '../../src/tokens/followed-tokens.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { hashToken } from '../../src/tokens/token.ts';
import { testEngine } from '../helpers/engine.ts';
import { createTestDatabase, loadStoreFile } from '../helpers/postgres.ts';
import { servedDemoStore } from '../helpers/served-store.ts';
import {
  bearer,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  startServerProcess,
} from '../helpers/server.ts';
import { testWorkingSet } from '../helpers/store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The working set's read of a user's packed ledger, on either engine. */
const LEDGER_READ = /SELECT packed FROM \S*ledgers WHERE user_id/;

interface SeenQuery {
  sql: string;
  client: string;
}

/**
 * A read port on the store at `path` whose pool records every query with the client it runs
 * as; the first ledger read waits at `gate` until it is opened.
 */
async function recordingPort(path: string) {
  const seen: SeenQuery[] = [];
  let reached = false;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gate = {
    get reached() {
      return reached;
    },
    open: () => open(),
  };
  const observe = async (sql: string) => {
    seen.push({ sql, client: currentClient() });
    if (LEDGER_READ.test(sql) && !reached) {
      reached = true;
      await opened;
    }
  };
  const closers: (() => Promise<void> | void)[] = [];
  let port: ReadPort;
  if (testEngine() === 'postgres') {
    const databaseUrl = await createTestDatabase();
    await loadStoreFile(databaseUrl, path);
    const tokens = await FollowedTokens.open(tokensPathFor(path));
    const pool = new (class extends PgPool {
      override async query<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []) {
        await observe(sql);
        return super.query<T>(sql, params);
      }

      override async copyBytes(select: string) {
        await observe(select);
        return super.copyBytes(select);
      }
    })(databaseUrl, { queryTimeoutMs: 10_000 });
    port = await openPostgresPort(pool, { tokens, workingSet: testWorkingSet() });
    closers.push(
      () => port.close(),
      () => pool.close(),
      () => tokens.close(),
    );
  } else {
    const duckdb = await openDuckDbPort(path, { workingSet: testWorkingSet() });
    const { pool } = duckdb;
    const query = pool.query.bind(pool);
    const queryBytes = pool.queryBytes.bind(pool);
    Object.assign(pool, {
      query: async (sql: string, params: readonly SqlParam[] = []) => {
        await observe(sql);
        return query(sql, params);
      },
      queryBytes: async (sql: string, params: readonly SqlParam[]) => {
        await observe(sql);
        return queryBytes(sql, params);
      },
    });
    port = duckdb;
    closers.push(() => duckdb.close());
  }
  return {
    port,
    seen,
    gate,
    close: async () => {
      for (const close of closers) await close();
    },
  };
}

const keyOf = (token: string) => `token:${hashToken(token).slice(0, 32)}`;

describe('the client of the store’s work', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('every store query of a request runs as its client, through the hooks, the handler and a read shared with another request (the first asker’s)', async () => {
    const user = DEMO_USERS[1];
    // Two tokens of one user: two clients asking for the same ledger.
    const demo = await demoStoreCopy([user, user]);
    const [first, second] = demo.tokens as [string, string];
    const recording = await recordingPort(demo.path);
    const app = await buildApp({ store: recording.port, clock: createClock(DEMO_TODAY) });
    closers.push(async () => {
      await app.close();
      await recording.close();
    });
    const { seen, gate } = recording;

    // Outside any request: the anonymous client.
    await recording.port.profile(user);
    expect(seen.at(-1)?.client).toBe(ANONYMOUS_CLIENT);

    seen.length = 0;
    const url = '/v2/users/transactions?page_size=10';
    const asked = app.inject({ url, headers: bearer(first) });
    for (let waited = 0; !gate.reached; waited += 10) {
      if (waited > 20_000) throw new Error('the ledger was never read');
      await sleep(10);
    }
    // The second client asks while the first one's read of the same ledger is under way.
    const joined = app.inject({ url, headers: bearer(second) });
    await sleep(100);
    gate.open();
    const [a, b] = await Promise.all([asked, joined]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.body).toBe(a.body);
    const ledgerReads = seen.filter((query) => LEDGER_READ.test(query.sql));
    expect(ledgerReads.map((query) => query.client)).toEqual([keyOf(first)]);
    for (const query of seen) expect([keyOf(first), keyOf(second)]).toContain(query.client);

    // A handler's own reads (the profile) run as its client too.
    seen.length = 0;
    expect((await app.inject({ url: '/v1/user', headers: bearer(second) })).statusCode).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    for (const query of seen) expect(query.client).toBe(keyOf(second));

    // A request without a token is its address's, a probe included.
    seen.length = 0;
    expect((await app.inject({ url: '/readyz', remoteAddress: '203.0.113.5' })).statusCode).toBe(
      200,
    );
    expect(seen.length).toBeGreaterThan(0);
    for (const query of seen) expect(query.client).toBe('ip:203.0.113.5');
  });
});

/** A flood from several tokens in turn, bounded in requests and time; statuses counted. */
function flood(options: {
  url: string;
  path: string;
  tokens: readonly string[];
  connections: number;
  maxRequests: number;
  seconds: number;
}): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let draws = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        // Whichever comes first (an `amount` would make autocannon ignore the duration: at
        // one refusal a second per connection, 4,000 requests ran past the test's time).
        maxOverallRequests: options.maxRequests,
        duration: options.seconds,
        timeout: 20,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              method: 'GET',
              path: options.path,
              headers: bearer(options.tokens[draws++ % options.tokens.length] as string),
            }),
          },
        ],
      },
      (error) => (error ? reject(error) : resolve(statuses)),
    );
    instance.on('response', (_client: unknown, status: number) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
}

describe('a flood of several tokens at the store (real server, loopback)', () => {
  it('a client that waits for each answer gets only 200s; the full queue refuses the flood’s work and sheds the flooders', async () => {
    const store = await servedDemoStore();
    const flooders: string[] = [];
    for (let i = 0; i < 6; i++) {
      flooders.push(await store.mint(DEMO_USERS[i % DEMO_USERS.length] as string));
    }
    const polite = await store.mint(DEMO_USERS[0]);
    const server = await startServerProcess({
      ...store.env,
      TODAY: DEMO_TODAY,
      // Every flood request reaches the store (no rate limit, no concurrency bound, no bound
      // on the requests running, no answer from memory), one query at a time, behind a queue
      // of 24 (a flooder may have 8 waiting): the queue is full throughout.
      RATE_LIMIT_MAX: '0',
      CLIENT_MAX_IN_FLIGHT: '0',
      MAX_RUNNING_REQUESTS: '0',
      WORKING_SET_MB: '0',
      RESPONSE_CACHE_MB: '0',
      DB_POOL_SIZE: '1',
      DB_MAX_QUEUE: '24',
      SHED_SAMPLE_INTERVAL_MS: '200',
    });
    try {
      const ask = async (path: string) => {
        const response = await fetch(`${server.url}${path}`, {
          headers: bearer(polite),
          signal: AbortSignal.timeout(20_000),
        });
        await response.arrayBuffer();
        return response.status;
      };
      const spending = '/v2/users/spending?group_by=merchant&time_period=week';
      expect(await ask('/v1/user')).toBe(200);

      const politeStatuses: number[] = [];
      let flooding = true;
      const waitsForEachAnswer = (async () => {
        for (let i = 0; flooding; i++) {
          politeStatuses.push(await ask(i % 2 === 0 ? '/v1/user' : spending).catch(() => 0));
        }
      })();
      const statuses = await flood({
        url: server.url,
        path: spending,
        tokens: flooders,
        connections: 48,
        maxRequests: 4000,
        seconds: 6,
      });
      flooding = false;
      await waitsForEachAnswer;

      expect(politeStatuses.length).toBeGreaterThan(3);
      expect(politeStatuses.filter((status) => status !== 200)).toEqual([]);
      for (const status of statuses.keys()) expect([200, 503]).toContain(status);
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
      const log = server.output();
      // The queue refused the flood's work (503s logged as a store fault)...
      expect(log).toContain('store is saturated');
      // ...and its being full was pressure: the heavy clients were shed.
      expect(log).toMatch(/"crossed":\["storeQueue"\].*under pressure/);
      expect(log).not.toContain('"stack"');
      expect(await ask('/v1/user')).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});
