/**
 * Hot swap of the store: a file published at DATABASE_PATH (or SIGHUP) is opened, checked and
 * switched to with no failed request; in-flight requests finish on the old store, which is
 * closed afterwards; a broken file is refused and the old store keeps serving.
 */
import { copyFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { openDuckDbPort } from '../../../src/engines/duckdb/port.ts';
import { SwappablePort } from '../../../src/port/hot-swap.ts';
import type { ReadPort } from '../../../src/port/read-port.ts';
import { type RunningServer, startServer } from '../../../src/server.ts';
import {
  bearer,
  configOf,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  startServerProcess,
} from '../../helpers/server.ts';
import {
  DelegatingPort,
  makeTempDir,
  NO_FILTERS,
  publishNewGeneration,
  testWorkingSet,
} from '../../helpers/store.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readyGeneration(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/readyz`);
  return ((await response.json()) as { store_generation: string }).store_generation;
}

/** A stand-in read port that records which reads it ran and whether it was closed. */
function fakePort(generation: string, options: { broken?: boolean } = {}) {
  const ran: string[] = [];
  let closed = false;
  const port = new (class extends DelegatingPort {
    override get generation() {
      return generation;
    }
    protected override async read<T>(method: string): Promise<T> {
      if (closed) throw new Error(`${generation} is closed`);
      if (options.broken) throw new Error('no such table');
      ran.push(method);
      await sleep(1);
      return null as T;
    }
    override async close() {
      closed = true;
    }
  })(undefined as unknown as ReadPort);
  return { port, ran, isClosed: () => closed };
}

describe('SwappablePort', () => {
  it('a lease keeps its port across a swap; the old port closes when the last one ends', async () => {
    const a = fakePort('a');
    const b = fakePort('b');
    const swappable = new SwappablePort(a.port, { open: async () => b.port });
    const lease = swappable.lease();
    await lease.port.profile('q1');
    expect(await swappable.reload('test')).toBe('swapped');
    await lease.port.accounts('q2');
    expect(lease.port.generation).toBe('a');
    // New leases get the new port.
    await swappable.lease().port.links('q3', { limit: null, offset: 0 });
    expect(swappable.current.generation).toBe('b');
    expect(a.ran).toEqual(['profile', 'accounts']);
    expect(b.ran.at(-1)).toBe('links');
    expect(a.isClosed()).toBe(false);
    lease.release();
    lease.release();
    await sleep(1);
    expect(a.isClosed()).toBe(true);
    expect(b.isClosed()).toBe(false);
  });

  it('refuses a store that cannot be opened or does not answer; keeps the same generation', async () => {
    const a = fakePort('a');
    const broken = fakePort('c', { broken: true });
    const same = fakePort('a');
    const outcomes: string[] = [];
    const opens = [
      async () => {
        throw new Error('not a valid DuckDB database file');
      },
      async () => broken.port,
      async () => same.port,
    ];
    const swappable = new SwappablePort(a.port, {
      open: () => (opens.shift() as () => Promise<ReadPort>)(),
      onReload: (outcome) => outcomes.push(outcome),
    });
    expect(await swappable.reload('garbage')).toBe('refused');
    expect(await swappable.reload('does not answer')).toBe('refused');
    expect(await swappable.reload('same file')).toBe('unchanged');
    expect(outcomes).toEqual(['refused', 'refused', 'unchanged']);
    expect(broken.isClosed()).toBe(true);
    expect(same.isClosed()).toBe(true);
    expect(swappable.current.generation).toBe('a');
    await swappable.lease().port.profile('still served');
    expect(a.ran.at(-1)).toBe('profile');
  });
});

describe('the store plugin pins each request to its store', () => {
  it('a swap during a request does not change the store under it', async () => {
    const a = fakePort('a');
    const b = fakePort('b');
    const swappable = new SwappablePort(a.port, { open: async () => b.port });
    const app = await buildApp({ store: swappable });
    app.get('/test/pinned', { config: { public: true } }, async (request) => {
      const before = request.store.generation;
      await request.store.profile('before swap');
      await swappable.reload('during the request');
      await request.store.accounts('after swap');
      return { before, after: request.store.generation };
    });
    const response = await app.inject({ url: '/test/pinned' });
    expect(response.json()).toEqual({ before: 'a', after: 'a' });
    expect(a.ran).toEqual(['profile', 'accounts']);
    await sleep(5);
    expect(a.isClosed()).toBe(true);
    const next = await app.inject({ url: '/readyz' });
    expect(next.json()).toEqual({ status: 'ready', store_generation: 'b' });
    await app.close();
  });
});

/** A log that keeps its info lines' messages and details. */
function keptLog() {
  const lines: { message: string; details: Record<string, unknown> }[] = [];
  const log = {
    info: (details: object, message: string) =>
      lines.push({ message, details: details as Record<string, unknown> }),
    warn() {},
    error() {},
  };
  const warmed = async () => {
    for (let i = 0; i < 400 && !lines.some((l) => l.message.startsWith('store warmed')); i++) {
      await sleep(5);
    }
    return lines.find((l) => l.message.startsWith('store warmed'))?.details;
  };
  return { lines, log, warmed };
}

/**
 * A stand-in port holding `held` in memory, whose warming reads one user each time the test
 * lets it (`step`), asking `stop` before each, as the working set's does.
 */
function warmablePort(
  generation: string,
  held: readonly string[],
  options: { broken?: boolean } = {},
) {
  const fake = fakePort(generation, options);
  const warmed: string[] = [];
  const steps: (() => void)[] = [];
  const port: ReadPort = Object.assign(fake.port, {
    heldUsers: (limit: number) => held.slice(0, limit),
    async warm(userIds: readonly string[], stop: () => boolean) {
      for (const user of userIds) {
        await new Promise<void>((resolve) => steps.push(resolve));
        if (stop()) break;
        warmed.push(user);
      }
      return warmed.length;
    },
  });
  const step = async () => {
    while (steps.length === 0) await sleep(1);
    steps.shift()?.();
    await sleep(1);
  };
  return { ...fake, port, warmed, step };
}

describe('warming a new generation', () => {
  it('serves it at once, then reads in the ledgers of the users the one before answered lately', async () => {
    const demo = await demoStoreCopy([]);
    const set = testWorkingSet();
    const first = await openDuckDbPort(demo.path, { workingSet: set });
    const [a, b, other] = DEMO_USERS as unknown as [string, string, string];
    const page = { offset: 0, limit: 5 };
    for (const user of [a, b]) await first.transactions(user, NO_FILTERS, page);
    expect(first.heldUsers?.(10)).toEqual([b, a]);
    await publishNewGeneration(demo.path);
    const { lines, log, warmed } = keptLog();
    const source = new SwappablePort(first, {
      open: () => openDuckDbPort(demo.path, { workingSet: set }),
      log,
    });
    expect(await source.reload('published')).toBe('swapped');
    const next = source.current;
    expect(next.generation).not.toBe(first.generation);
    // The swap's line says nothing of warming: it did not wait for it.
    expect(lines[0]?.details).not.toHaveProperty('warmedUsers');
    expect(await warmed()).toMatchObject({ generation: next.generation, warmedUsers: 2 });
    expect([...(next.heldUsers?.(10) ?? [])].sort()).toEqual([a, b].sort());
    const before = set.stats();
    for (const user of [a, b]) await next.transactions(user, NO_FILTERS, page);
    expect(set.stats().misses).toBe(before.misses);
    await next.transactions(other, NO_FILTERS, page);
    expect(set.stats().misses).toBe(before.misses + 1);
    await source.close();
  });

  it('replaces a port that cannot serve at once, and warms the new one while it serves', async () => {
    const damaged = warmablePort('a', ['u1', 'u2', 'u3'], { broken: true });
    const next = warmablePort('a', []);
    const { log, warmed } = keptLog();
    const source = new SwappablePort(damaged.port, { open: async () => next.port, log });
    // The same generation, published again while the current port fails: taken, unwarmed.
    expect(await source.reload('store unreadable')).toBe('swapped');
    expect(next.warmed).toEqual([]);
    await source.lease().port.profile('served cold');
    expect(next.ran).toContain('profile');
    for (let i = 0; i < 3; i++) await next.step();
    expect(next.warmed).toEqual(['u1', 'u2', 'u3']);
    expect(await warmed()).toMatchObject({ generation: 'a', warmedUsers: 3 });
    await source.close();
  });

  it('stops warming a port once it is retired (another swap, or the close)', async () => {
    const first = warmablePort('a', ['u1', 'u2', 'u3']);
    const second = warmablePort('b', ['u1', 'u2']);
    const third = warmablePort('c', []);
    const opens = [second.port, third.port];
    const source = new SwappablePort(first.port, {
      open: async () => opens.shift() as ReadPort,
    });
    expect(await source.reload('published')).toBe('swapped');
    await second.step();
    expect(second.warmed).toEqual(['u1']);
    expect(await source.reload('published again')).toBe('swapped');
    // Its next read finds it retired: nothing more is read into it.
    await second.step();
    expect(second.warmed).toEqual(['u1']);
    // The newest port is warmed with what the retired one held, until the close.
    await third.step();
    expect(third.warmed).toEqual(['u1']);
    await source.close();
    await third.step();
    expect(third.warmed).toEqual(['u1']);
    expect(third.isClosed()).toBe(true);
  });
});

describe('hot swap under concurrent load', () => {
  let server: RunningServer;
  let path: string;
  let token: string;
  beforeAll(async () => {
    const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
    path = demo.path;
    token = demo.tokens[0] as string;
    server = await startServer(
      configOf({
        DATABASE_PATH: path,
        PORT: '0',
        LOG_LEVEL: 'silent',
        TODAY: DEMO_TODAY,
        STORE_WATCH_DEBOUNCE_MS: '100',
        RATE_LIMIT_MAX: '0',
        // The load comes from this very process: shedding is not what is tested here.
        SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      }),
    );
  });
  afterAll(() => server?.close());

  const generation = () => readyGeneration(server.url);

  async function waitForGeneration(not: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const now = await generation();
      if (now !== not) return now;
      await sleep(50);
    }
    throw new Error('the server did not switch to the published store');
  }

  it('publishing new files (and a broken one) fails no request', async () => {
    const urls = [
      '/v1/user',
      '/v2/users/spending?group_by=category&time_period=month',
      '/v2/users/transactions?page=1&page_size=50',
      '/v1/users/balances',
    ];
    const failures: string[] = [];
    let served = 0;
    let running = true;
    const worker = async (w: number) => {
      for (let i = w; running; i++) {
        const url = urls[i % urls.length] as string;
        try {
          const response = await fetch(`${server.url}${url}`, { headers: bearer(token) });
          await response.arrayBuffer();
          if (response.status === 200) served++;
          else failures.push(`${url} -> ${response.status}`);
        } catch (error) {
          failures.push(`${url} -> ${String(error)}`);
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    const generations = [await generation()];
    for (let i = 0; i < 3; i++) {
      await sleep(150);
      await publishNewGeneration(path);
      generations.push(await waitForGeneration(generations.at(-1) as string));
    }

    // A broken file is refused; the current store keeps serving.
    const spare = join(makeTempDir('spare'), 'finance.duckdb');
    await copyFile(path, spare);
    const garbage = join(makeTempDir('garbage'), 'x');
    await writeFile(garbage, 'this is not a DuckDB file'.repeat(1000));
    await copyFile(garbage, `${path}.incoming`);
    await rename(`${path}.incoming`, path);
    await sleep(600);
    expect(await generation()).toBe(generations.at(-1));

    // A good file published after it is taken.
    await publishNewGeneration(spare);
    await copyFile(spare, `${path}.incoming`);
    await rename(`${path}.incoming`, path);
    generations.push(await waitForGeneration(generations.at(-1) as string));
    await sleep(150);
    running = false;
    await Promise.all(workers);

    expect(new Set(generations).size).toBe(5);
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(50);
  });
});

describe('SIGHUP', () => {
  it('reopens the store file in the real process', async () => {
    const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
    const server = await startServerProcess({
      DATABASE_PATH: demo.path,
      STORE_WATCH: 'false',
      TODAY: DEMO_TODAY,
    });
    try {
      const before = await readyGeneration(server.url);
      await publishNewGeneration(demo.path);
      await sleep(300);
      // Watching is off: nothing changes until the signal.
      expect(await readyGeneration(server.url)).toBe(before);
      server.child.kill('SIGHUP');
      let after = before;
      for (let i = 0; i < 200 && after === before; i++) {
        await sleep(50);
        after = await readyGeneration(server.url);
      }
      expect(after).not.toBe(before);
      const token = demo.tokens[0] as string;
      expect((await fetch(`${server.url}/v1/user`, { headers: bearer(token) })).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  });
});
