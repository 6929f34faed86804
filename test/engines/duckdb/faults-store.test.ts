/**
 * Store faults on the DuckDB engine, injected under concurrent load on loopback:
 * a list that fails once it has started, a heavy list short of memory, reads past the time
 * limit, a store file damaged or removed under a running server. Whatever happens, no answer
 * is a 200 other than the truth, none is a 500, the process stays up, /readyz tells the truth,
 * service comes back without a restart and the log stays a few lines, without stacks
 * (docs/operations.md, "Store and database faults").
 */
import { copyFile, readFile, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createClock } from '../../../src/clock.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import { type DuckDbPort, openDuckDbPort } from '../../../src/engines/duckdb/port.ts';
import { buildStore } from '../../../src/ingest/duckdb/build.ts';
import {
  LIST_CHUNK_ROWS,
  StoreUnavailableError,
  type TransactionFilters,
  type TransactionRecord,
} from '../../../src/port/read-port.ts';
import { startServer } from '../../../src/server.ts';
import { generateToken, hashToken } from '../../../src/tokens/token.ts';
import { generateFixtures } from '../../../tools/demo-data/generator.ts';
import {
  duckDbOpens,
  eventually,
  expectBoundedLog,
  expectHonest,
  get,
  judge,
  LOG_DUCKDB_OPENS,
  logLines,
  type ReadinessSample,
  readiness,
  readinessFlips,
  sampleReadiness,
  sleep,
  type Target,
  underLoad,
  writeRandomBlocks,
} from '../../helpers/faults.ts';
import { buildLoggedApp, type LoggedApp } from '../../helpers/logged-app.ts';
import {
  bearer,
  configOf,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/server.ts';
import {
  buildHeavyStore,
  DelegatingPort,
  makeTempDir,
  mintTestToken,
  queryStoreFile,
} from '../../helpers/store.ts';

/** Settings that keep a busy test machine from shedding the probes these tests read. */
const QUIET = {
  RATE_LIMIT_MAX: '0',
  SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
  SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  TODAY: DEMO_TODAY,
};

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** The server is still running: a fault never ends the process. */
function expectAlive(server: ServerProcess): void {
  expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
  expect(server.child.signalCode).toBeNull();
}

/** What every client sees of the unpaginated list: its ids in order, all of them. */
function listTruth(ids: readonly string[]) {
  return (body: string) => {
    const parsed = JSON.parse(body) as {
      count: number;
      transactions: { id: string }[];
      daily_totals: { count: number }[];
    };
    return (
      parsed.count === ids.length &&
      parsed.transactions.length === ids.length &&
      parsed.transactions.every((row, index) => row.id === ids[index]) &&
      parsed.daily_totals.reduce((sum, day) => sum + day.count, 0) === ids.length
    );
  };
}

async function listIds(path: string, userId: string): Promise<string[]> {
  const rows = await queryStoreFile<{ id: string }>(
    path,
    'SELECT id FROM transactions WHERE user_id = $1 ORDER BY transacted_at DESC, id DESC',
    [userId],
  );
  return rows.map((row) => row.id);
}

/** The blocks of a DuckDB store file that hold a table's data. */
async function blocksOf(path: string, table: string): Promise<number[]> {
  const blocks = (
    await queryStoreFile<{ block: number }>(
      path,
      `SELECT DISTINCT block_id::INTEGER AS block FROM pragma_storage_info('${table}')
       WHERE block_id >= 0 ORDER BY block`,
    )
  ).map((row) => row.block);
  expect(blocks.length).toBeGreaterThan(0);
  return blocks;
}

/** The readiness probes from the first one that failed on: when the damage was found. */
function afterFound(samples: readonly ReadinessSample[], since: number): ReadinessSample[] {
  const found = samples.findIndex((sample) => sample.at >= since && sample.status !== 200);
  return found < 0 ? [] : samples.slice(found);
}

/** The server's error lines, each by its message's first part. */
const errors = (output: string) =>
  logLines(output)
    .filter((line) => line.level >= 50)
    .map((line) => line.msg.split(':', 1)[0]);

describe('a list that fails once it has started', () => {
  let port: DuckDbPort;
  let token: string;
  /** The app, with what it logged. */
  let logged: LoggedApp;
  /** How the next list's chunks go wrong. */
  let fault: 'none' | 'first' | 'middle' | 'short' = 'none';
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 1));
    token = demo.tokens[0] as string;
    port = await openDuckDbPort(demo.path);
    const faulty = new (class extends DelegatingPort {
      override transactionChunks(userId: string, filters: TransactionFilters) {
        const inner = port.transactionChunks(userId, filters);
        return (async function* (): AsyncGenerator<TransactionRecord[]> {
          let index = 0;
          for await (const chunk of inner) {
            if (fault === 'first' || (fault === 'middle' && index === 1)) {
              throw new StoreUnavailableError('Out of Memory Error: failed to pin block (test)');
            }
            // 'short': the store's rows end early, with no error (what DuckDB's streaming
            // results did when they ran out of memory).
            if (fault === 'short' && index === 1) return;
            yield chunk;
            index++;
          }
        })();
      }
    })(port);
    logged = await buildLoggedApp('info', {
      store: faulty,
      clock: createClock(DEMO_TODAY),
      config: configOf(QUIET),
    });
    const { app } = logged;
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = async () => {
      await app.close();
      await port.close();
    };
  });
  afterAll(() => close?.());

  const list = (encoding?: string) =>
    get(`${baseUrl}/v2/users/transactions`, {
      ...bearer(token),
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    });

  it('the whole list, when nothing fails, in more than one chunk', async () => {
    fault = 'none';
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.complete).toBe(true);
    const parsed = JSON.parse(answer.body);
    expect(parsed.transactions.length).toBe(parsed.count);
    // The faults below strike at the second chunk: there must be one.
    expect(parsed.count).toBeGreaterThan(LIST_CHUNK_ROWS);
  });

  it('a failure before the first byte answers 503 with Retry-After', async () => {
    fault = 'first';
    const answer = await list();
    expect(judge(answer, '')).toBe('unavailable');
  });

  it.each([
    ['middle', undefined],
    ['middle', 'gzip'],
    ['middle', 'br'],
    ['short', undefined],
    ['short', 'br'],
  ] as const)(
    'a %s failure (%s) cuts the body short: never a complete answer',
    async (kind, encoding) => {
      fault = kind;
      const answer = await list(encoding);
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(false);
      expect(judge(answer, () => true)).toBe('cut');
      if (!encoding) expect(() => JSON.parse(answer.body)).toThrow();
      // The connection was dropped, the server was not: the next list is whole.
      fault = 'none';
      const next = await list(encoding);
      expect(next.status).toBe(200);
      expect(next.complete).toBe(true);
    },
  );

  it('logs each kind of failure once, without a stack', () => {
    const warnings = logged.lines.filter((line) => JSON.parse(line).level >= 40);
    const cut = warnings.filter((line) => line.includes('list cut short'));
    // Three middle failures, two shortfalls: one line for each kind.
    expect(cut).toHaveLength(2);
    expect(warnings.filter((line) => /"stack"|\\n\s+at /.test(line))).toEqual([]);
    expect(warnings.length).toBeLessThanOrEqual(4);
  });
});

describe('a heavy list short of memory', () => {
  let server: ServerProcess;
  let token: string;
  let ids: string[];
  let other: string;

  beforeAll(async () => {
    const { path, heavyUserId: heavy } = await buildHeavyStore(40_000);
    token = await mintTestToken(path, heavy);
    const [first] = await queryStoreFile<{ id: string }>(
      path,
      'SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 1',
      [heavy],
    );
    other = await mintTestToken(path, first?.id as string);
    ids = await listIds(path, heavy);
    expect(ids).toHaveLength(40_000);
    server = await startServerProcess({
      ...QUIET,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      // Far less than one sort of the list, with next to no spill space.
      DUCKDB_MEMORY_LIMIT: '24MB',
      DUCKDB_MAX_TEMP_SIZE: '2MB',
      DB_POOL_SIZE: '4',
      HEAVY_LISTS_MAX: '2',
    });
  }, 120_000);
  afterAll(() => stopServer(server));

  it('six at once with other requests: each whole and true, or an honest failure', async () => {
    const targets: Target[] = [
      { path: '/v2/users/transactions', headers: bearer(token), truth: listTruth(ids) },
      {
        path: '/v2/users/transactions?page=3&page_size=100',
        headers: bearer(token),
        truth: (body) =>
          (JSON.parse(body).transactions as { id: string }[]).map((row) => row.id).join() ===
          ids.slice(200, 300).join(),
      },
      { path: '/v1/user', headers: bearer(other), truth: (body) => body.includes('"id"') },
    ];
    const report = await underLoad(server.url, targets, () => sleep(8_000), {
      workers: 6,
      maxRequests: 400,
    });
    expectHonest(report);
    expect(report.verdicts.ok).toBeGreaterThan(0);
    expectAlive(server);
    // Reads of a chunk at a time fit in 24 MB: a list alone is answered whole.
    const whole = await get(`${server.url}/v2/users/transactions`, bearer(token));
    expect(
      judge(whole, listTruth(ids)),
      `${whole.status} ${whole.error ?? ''}\n${server.output().slice(-4000)}`,
    ).toBe('ok');
    expectAlive(server);
    expectBoundedLog(server.output(), 10);
  }, 60_000);
});

describe('reads past the query time limit', () => {
  it('applies to each read of a list: an interrupted list is a 503 or cut short, never a 200', async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 1));
    const token = demo.tokens[0] as string;
    const port = await openDuckDbPort(demo.path, { queryTimeoutMs: 10_000 });
    const options = (port.pool as unknown as { options: { queryTimeoutMs: number } }).options;
    let limitMs = 10_000;
    // The list's own reads run under `limitMs`; the count, the accounts and the token under
    // the limit the store was opened with (its own checks would not pass a limit this short).
    const limited = new (class extends DelegatingPort {
      override transactionChunks(userId: string, filters: TransactionFilters) {
        const inner = port.transactionChunks(userId, filters);
        return (async function* (): AsyncGenerator<TransactionRecord[]> {
          options.queryTimeoutMs = limitMs;
          try {
            yield* inner;
          } finally {
            options.queryTimeoutMs = 10_000;
          }
        })();
      }
    })(port);
    const app = await buildApp({ store: limited, clock: createClock(DEMO_TODAY) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      const truth = listTruth(await listIds(demo.path, DEMO_USERS[0] as string));
      const list = () => get(`${baseUrl}/v2/users/transactions`, bearer(token));
      expect(judge(await list(), truth)).toBe('ok');
      limitMs = 1;
      const verdicts: string[] = [];
      for (let i = 0; i < 6; i++) verdicts.push(judge(await list(), truth));
      // Interrupted (a read may still beat the limit: then that list is whole and true).
      expect(verdicts.filter((v) => v !== 'unavailable' && v !== 'cut' && v !== 'ok')).toEqual([]);
      expect(verdicts.filter((v) => v !== 'ok').length).toBeGreaterThan(0);
      limitMs = 10_000;
      expect(judge(await list(), truth)).toBe('ok');
    } finally {
      await app.close();
      await port.close();
    }
  });
});

describe('a damaged store file while hundreds of users are held in memory', () => {
  const USERS = 300;
  let good: string;
  let path: string;
  let tokens: string[];
  let transactionBlocks: number[];

  beforeAll(async () => {
    const source = makeTempDir('held-source');
    await generateFixtures({ users: USERS, months: 3, seed: 'held', outDir: source });
    const users = await readFile(join(source, 'users.csv'), 'utf8');
    const ids = users
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0] as string);
    tokens = ids.map(() => generateToken());
    // A token per user, built with the data (minting 300 one at a time takes half a minute).
    await writeFile(
      join(source, 'access_tokens.csv'),
      `token_hash,user_id,name,created_at,expires_at,revoked_at\n${ids
        .map((id, k) => `${hashToken(tokens[k] as string)},${id},test,2026-01-01T00:00:00Z,,`)
        .join('\n')}\n`,
    );
    path = join(makeTempDir('held-store'), 'finance.duckdb');
    await buildStore({ sourceDir: source, databasePath: path });
    good = join(makeTempDir('held-good'), 'finance.duckdb');
    await copyFile(path, good);
    transactionBlocks = await blocksOf(good, 'transactions');
  }, 120_000);

  /** A server on the good file holding every user in memory (each asked a page once). */
  async function serverHoldingEveryone(): Promise<{ server: ServerProcess; targets: Target[] }> {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    const page = '/v2/users/transactions?page=1&page_size=20';
    for (const token of tokens) {
      expect((await get(`${server.url}${page}`, bearer(token))).status).toBe(200);
    }
    const targets: Target[] = [];
    for (const token of tokens.slice(0, 4)) {
      for (const each of [page, '/v1/user']) {
        const answer = await get(`${server.url}${each}`, bearer(token));
        targets.push({ path: each, headers: bearer(token), truth: answer.body });
      }
    }
    return { server, targets };
  }

  /** The log lines starting with `message`, with when each was written (the server's clock). */
  const logged = (output: string, message: string) =>
    logLines(output)
      .filter((line) => line.msg.startsWith(message))
      .map((line) => JSON.parse(line.raw) as { time: number; warmedUsers?: number });

  /**
   * Ready from the swap on, before the warming of the users held ended: no 503 waited for it.
   * Warming them before the swap kept every request 503 until it ended.
   */
  async function expectServedColdThenWarmed(
    server: ServerProcess,
    probes: { stop(): Promise<ReadinessSample[]> },
  ) {
    expect(
      await eventually(async () => logged(server.output(), 'store warmed').length > 0, 30_000),
    ).toBe(true);
    const samples = await probes.stop();
    const [swapped] = logged(server.output(), 'store swapped');
    const [warmed] = logged(server.output(), 'store warmed');
    expect(warmed?.warmedUsers).toBe(USERS);
    const after = samples.filter((sample) => sample.at > (swapped as { time: number }).time);
    expect(after.filter((sample) => sample.status !== 200)).toEqual([]);
    expect(after.some((sample) => sample.at < (warmed as { time: number }).time)).toBe(true);
  }

  const swapped = (server: ServerProcess) => () =>
    eventually(async () => logged(server.output(), 'store swapped').length > 0, 10_000);

  it('its time changed in place: served again, cold, once it read whole; warmed beside', async () => {
    const { server, targets } = await serverHoldingEveryone();
    try {
      const probes = sampleReadiness(server.url);
      const report = await underLoad(server.url, targets, async () => {
        await sleep(300);
        const later = new Date(Date.now() + 1_000);
        await utimes(path, later, later);
        expect(await swapped(server)()).toBe(true);
        await sleep(500);
      });
      expectHonest(report);
      await expectServedColdThenWarmed(server, probes);
      expect(errors(server.output())).toEqual(['store unreadable']);
      expectAlive(server);
    } finally {
      await stopServer(server);
    }
  }, 90_000);

  it('a good file renamed over it: served at once, cold; warmed beside', async () => {
    const { server, targets } = await serverHoldingEveryone();
    try {
      const probes = sampleReadiness(server.url);
      const report = await underLoad(server.url, targets, async () => {
        await sleep(300);
        await writeRandomBlocks(path, transactionBlocks);
        expect(
          await eventually(
            async () => errors(server.output()).includes('store file refused'),
            10_000,
          ),
        ).toBe(true);
        await copyFile(good, `${path}.incoming`);
        await rename(`${path}.incoming`, path);
        expect(await swapped(server)()).toBe(true);
        await sleep(500);
      });
      expectHonest(report);
      await expectServedColdThenWarmed(server, probes);
      expectAlive(server);
    } finally {
      await stopServer(server);
    }
  }, 90_000);
});

describe('a damaged store file', () => {
  let good: string;
  let path: string;
  let token: string;
  let targets: Target[];
  /** The blocks of the store file (3.5 MB, 256 KiB blocks) that hold the transactions. */
  let transactionBlocks: number[];

  beforeAll(async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 1));
    path = demo.path;
    token = demo.tokens[0] as string;
    good = join(makeTempDir('good'), 'finance.duckdb');
    await copyFile(path, good);
    transactionBlocks = await blocksOf(good, 'transactions');
  });

  /** Every deterministic answer, taken from the healthy server: the truth a 200 must carry. */
  async function truths(baseUrl: string): Promise<Target[]> {
    const paths = [
      '/v1/user',
      '/v1/users/balances',
      '/v1/accounts',
      '/v2/users/transactions?page=2&page_size=100',
      '/v2/users/transactions',
      '/v1/users/liabilities',
    ];
    const found: Target[] = [];
    for (const each of paths) {
      const answer = await get(`${baseUrl}${each}`, bearer(token));
      expect(answer.status, each).toBe(200);
      found.push({ path: each, headers: bearer(token), truth: answer.body });
    }
    return found;
  }

  const healthy = (baseUrl: string) =>
    eventually(async () => {
      if ((await readiness(baseUrl)) !== 200) return false;
      for (const target of targets) {
        if (judge(await get(`${baseUrl}${target.path}`, target.headers), target.truth) !== 'ok')
          return false;
      }
      return true;
    }, 15_000);

  it('truncated under load: 503 and not ready, then back by itself when the same file is published again', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    try {
      targets = await truths(server.url);
      let notReady = false;
      const report = await underLoad(server.url, targets, async () => {
        await sleep(500);
        await truncate(path, 1_000_000);
        notReady = await eventually(async () => (await readiness(server.url)) === 503, 5_000);
        // Every request fails now, quickly: a few seconds of it.
        await sleep(3_000);
      });
      expectHonest(report);
      expect(notReady).toBe(true);
      expect(report.verdicts.unavailable).toBeGreaterThan(20);
      const ready = await get(`${server.url}/readyz`);
      expect(judge(ready, '')).toBe('unavailable');

      // The identical good file, published as build-db does (a copy renamed into place).
      await copyFile(good, `${path}.incoming`);
      await rename(`${path}.incoming`, path);
      expect(await healthy(server.url)).toBe(true);
      expectAlive(server);
      expectBoundedLog(server.output(), 12);
      expect(
        logLines(server.output()).filter((line) => line.msg.startsWith('store unreadable')),
      ).toHaveLength(1);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  const readyWithin = (baseUrl: string, ms: number) =>
    eventually(async () => (await readiness(baseUrl)) === 200, ms);

  it('random blocks written in place under load: 503 and not ready throughout, opened twice, two error lines; back when a good file is published', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      ...LOG_DUCKDB_OPENS,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    try {
      targets = await truths(server.url);
      const probes = sampleReadiness(server.url);
      let writtenAt = 0;
      const report = await underLoad(server.url, targets, async () => {
        await sleep(500);
        writtenAt = Date.now();
        await writeRandomBlocks(path, transactionBlocks);
        await sleep(10_000);
      });
      const samples = await probes.stop();
      // Every 200 is the truth taken before the damage, every failure an honest 503.
      expectHonest(report);
      expect(report.verdicts.unavailable).toBeGreaterThan(100);
      const found = afterFound(samples, writtenAt);
      expect((found[0]?.at ?? Infinity) - writtenAt).toBeLessThan(3_000);
      // Once found, never ready again: one flip in ten seconds, none back.
      expect(found.filter((sample) => sample.status !== 503)).toEqual([]);
      expect(readinessFlips(samples)).toBe(1);
      // Opened when the server started, then once to read it whole: refused.
      expect(duckDbOpens(server.output(), path)).toBe(2);
      expect(errors(server.output())).toEqual(['store unreadable', 'store file refused']);
      expectBoundedLog(server.output(), 8);

      // A good file published (renamed into place, the same generation): served at once.
      await copyFile(good, `${path}.incoming`);
      await rename(`${path}.incoming`, path);
      expect(await readyWithin(server.url, 2_000)).toBe(true);
      expect(await healthy(server.url)).toBe(true);
      expect(duckDbOpens(server.output(), path)).toBe(3);
      expectAlive(server);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('random blocks written in place, then repaired in place: still refused (no publish), back on SIGHUP once it reads whole', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      ...LOG_DUCKDB_OPENS,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    try {
      targets = await truths(server.url);
      const report = await underLoad(server.url, targets, async () => {
        await sleep(300);
        await writeRandomBlocks(path, transactionBlocks);
        expect(
          await eventually(
            async () => errors(server.output()).includes('store file refused'),
            5_000,
          ),
        ).toBe(true);
        // The good file back, in place: the watcher sees it, and it is no publish.
        await copyFile(good, path);
        await sleep(1_500);
      });
      expectHonest(report);
      expect(await readiness(server.url)).toBe(503);
      expect(duckDbOpens(server.output(), path)).toBe(2);
      server.child.kill('SIGHUP');
      expect(await readyWithin(server.url, 2_000)).toBe(true);
      expect(await healthy(server.url)).toBe(true);
      // The third opening read it whole before it served.
      expect(duckDbOpens(server.output(), path)).toBe(3);
      expect(errors(server.output())).toEqual(['store unreadable', 'store file refused']);
      expectBoundedLog(server.output(), 8);
      expectAlive(server);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('a good file reported damaged (its time changed in place) under load: served again after it read whole, opened twice', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      ...LOG_DUCKDB_OPENS,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    try {
      targets = await truths(server.url);
      const probes = sampleReadiness(server.url);
      let touchedAt = 0;
      const report = await underLoad(server.url, targets, async () => {
        await sleep(500);
        touchedAt = Date.now();
        const later = new Date(touchedAt + 1_000);
        await utimes(path, later, later);
        await sleep(3_000);
      });
      const samples = await probes.stop();
      expectHonest(report);
      // Not ready while it is read whole (100 ms to 1 s under this load), then ready for good.
      expect(readinessFlips(samples)).toBeLessThanOrEqual(2);
      expect(await readyWithin(server.url, 5_000)).toBe(true);
      expect(await healthy(server.url)).toBe(true);
      expect(duckDbOpens(server.output(), path)).toBe(2);
      expect(errors(server.output())).toEqual(['store unreadable']);
      expectBoundedLog(server.output(), 6);
      expectAlive(server);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('a file found damaged again, unchanged, after it read whole is refused without reopening; SIGHUP reads it whole again', async () => {
    await copyFile(good, path);
    const server = await startServer(
      configOf({
        ...QUIET,
        DATABASE_PATH: path,
        PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
        STORE_WATCH: 'false',
      }),
    );
    const opens = vi.spyOn(DuckDbPool, 'open');
    const reloads = async () => {
      const text = await (await fetch(server.metricsUrl as string)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith('store_reloads_total{'))
        .sort();
    };
    // What a DuckDB instance that failed on a good file makes its pool report.
    const reportDamage = () =>
      (
        (server.store.current as DuckDbPort).pool as unknown as {
          damaged(reason: string): unknown;
        }
      ).damaged('FATAL Error: the instance failed (test)');
    try {
      const generation = server.store.current.generation;
      reportDamage();
      expect(await readyWithin(server.url, 2_000)).toBe(true);
      expect(opens).toHaveBeenCalledTimes(1);
      expect(server.store.current.generation).toBe(generation);
      expect(await reloads()).toEqual(['store_reloads_total{outcome="swapped"} 1']);
      // The same file, unchanged, fails again: refused, not reopened.
      reportDamage();
      await sleep(200);
      expect(await server.store.reload('test')).toBe('refused');
      expect(opens).toHaveBeenCalledTimes(1);
      expect(await readiness(server.url)).toBe(503);
      // The damage's own reload and the one above: both refused, counted as such.
      expect(await reloads()).toEqual([
        'store_reloads_total{outcome="refused"} 2',
        'store_reloads_total{outcome="swapped"} 1',
      ]);
      expect(await server.reload('SIGHUP')).toBe('swapped');
      expect(opens).toHaveBeenCalledTimes(2);
      expect(await readiness(server.url)).toBe(200);
    } finally {
      opens.mockRestore();
      await server.close();
    }
  });

  it('overwritten in place, not watched: back on SIGHUP once a good file is there', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH: 'false',
    });
    try {
      targets = await truths(server.url);
      // Garbage over the middle of the file, as a failing disk or a careless copy would.
      const report = await underLoad(server.url, targets, async () => {
        await sleep(300);
        await writeFile(path, Buffer.alloc(4096, 0x5a), { flag: 'r+' });
        expect(await eventually(async () => (await readiness(server.url)) === 503, 5_000)).toBe(
          true,
        );
        await sleep(1_500);
      });
      expectHonest(report);
      // The good file back, in place (the same inode): still failing until told.
      await copyFile(good, path);
      await sleep(500);
      expect(await readiness(server.url)).toBe(503);
      server.child.kill('SIGHUP');
      expect(await healthy(server.url)).toBe(true);
      expectAlive(server);
      expectBoundedLog(server.output(), 10);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('removed under a running server: the open file keeps serving; a new one is taken', async () => {
    await copyFile(good, path);
    const server = await startServerProcess({
      ...QUIET,
      DATABASE_PATH: path,
      LOG_LEVEL: 'info',
      STORE_WATCH_DEBOUNCE_MS: '100',
    });
    try {
      targets = await truths(server.url);
      const report = await underLoad(server.url, targets, async () => {
        await sleep(300);
        await rm(path);
        await sleep(1_500);
        await copyFile(good, `${path}.incoming`);
        await rename(`${path}.incoming`, path);
        await sleep(1_500);
      });
      expectHonest(report);
      expect(report.verdicts.ok).toBe(report.total);
      expect(await healthy(server.url)).toBe(true);
      expectAlive(server);
      expectBoundedLog(server.output(), 4);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it('missing at start: the process exits 1 with one line, no stack', async () => {
    const missing = join(makeTempDir('missing'), 'finance.duckdb');
    await expect(
      startServerProcess({ ...QUIET, DATABASE_PATH: missing, LOG_LEVEL: 'warn' }),
    ).rejects.toThrow(/exited before listening:\n(.*\n?){1,3}$/);
    // A server's start, as startServerProcess allows it: on two busy cores the process and the
    // one it replaces itself with (to size V8's heap) took 25 to 37 s to load.
  }, 60_000);
});
