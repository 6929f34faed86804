/**
 * GET /v2/users/events against the real server process, on the engine of this test run, with
 * change sets applied by build-db's own code while it serves (the file watch follows a DuckDB
 * store, the generation poll a cluster): a stream is told of a change set touching its user
 * within 2 s of its publication, with the sync feed's counts; a user the change set did not
 * touch is told nothing; every replica tells its own streams; a stream resumes from a
 * generation of the kept log, the current one or anything else; a rebuild and a restore (on
 * the cluster, its published generation put back) reset; the limits per token and per
 * process; a revoked token's stream ends; SIGTERM ends every stream and the process exits 0;
 * and what comes before a stream: 401 and 406.
 */
import { copyFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClusterToken, revokeClusterToken } from '../../src/engines/postgres/tokens.ts';
import type { LogSpan } from '../../src/ingest/changes.ts';
import { applyChanges } from '../../src/ingest/duckdb/apply.ts';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { applyPostgresChanges, buildPostgresStore } from '../../src/ingest/postgres/build.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { revokeToken } from '../../src/tokens/token-file.ts';
import { type ChangeSetFiles, writeChangeSet } from '../helpers/changing-store.ts';
import { testEngine } from '../helpers/engine.ts';
import { type OpenedStream, openEventStream } from '../helpers/event-stream.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { bearer, type ServerProcess, startServerProcess } from '../helpers/server.ts';
import { type FixtureRow, makeTempDir, mintTestToken, writeCsvFixture } from '../helpers/store.ts';

const TODAY = '2026-11-20';
const CREATED = '2025-01-01 00:00:00';
const USERS = ['u1', 'u2', 'u3', 'u4'];
const duckdb = testEngine() === 'duckdb';
/** The server's drain, the last test's bound (SIGTERM with streams open). */
const SHUTDOWN_GRACE_MS = 8_000;

const transaction = (id: string, user: string, amount: string): FixtureRow => ({
  id,
  user_id: user,
  account_id: `acc_${user}`,
  transacted_at: '2026-11-02',
  amount,
  direction: 'DEBIT',
  description: `SHOP ${id}`,
  category: 'General Merchandise',
});

const TABLES: Record<string, FixtureRow[]> = {
  users: USERS.map((id) => ({ id, name: id, email: `${id}@example.com`, created_at: CREATED })),
  links: USERS.map((user) => ({
    id: `lnk_${user}`,
    user_id: user,
    type: 'institution',
    name: 'Bank',
    status: 'active',
    created_at: CREATED,
  })),
  accounts: USERS.map((user) => ({
    id: `acc_${user}`,
    user_id: user,
    link_id: `lnk_${user}`,
    name: 'Checking',
    type: 'depository',
  })),
  transactions: USERS.flatMap((user) =>
    [1, 2, 3].map((k) => transaction(`t_${user}_${k}`, user, `${k}0.00`)),
  ),
};

/** The store the server reads, and how this test changes it (as build-db does). */
interface Store {
  env: Record<string, string>;
  token(user: string): Promise<string>;
  revoke(token: string): Promise<void>;
  apply(files: ChangeSetFiles, keepLog?: LogSpan): Promise<void>;
  rebuild(): Promise<void>;
  /** Keeps what is published now; the function returned publishes it again (a restore). */
  restorePoint(): Promise<() => Promise<void>>;
}

async function openStore(): Promise<Store> {
  const sourceDir = makeTempDir('events-source');
  await writeCsvFixture(sourceDir, TABLES);
  if (duckdb) {
    const databasePath = join(makeTempDir('events-store'), 'finance.duckdb');
    await buildStore({ sourceDir, databasePath });
    return {
      env: { DATABASE_PATH: databasePath, STORE_WATCH_DEBOUNCE_MS: '50' },
      token: (user) => mintTestToken(databasePath, user),
      revoke: async (token) => {
        await revokeToken({ tokensPath: tokensPathFor(databasePath), idOrToken: token });
      },
      apply: async (files, keepLog) => {
        const changesDir = await writeChangeSet(files);
        await applyChanges({ changesDir, databasePath, ...(keepLog ? { keepLog } : {}) });
      },
      rebuild: async () => {
        await buildStore({ sourceDir, databasePath });
      },
      restorePoint: async () => {
        // A copy of the file, published again over it later.
        const copy = `${databasePath}.earlier`;
        await copyFile(databasePath, copy);
        return () => rename(copy, databasePath);
      },
    };
  }
  const databaseUrl = await createTestDatabase();
  await buildPostgresStore({ sourceDir, databaseUrl });
  return {
    env: { DATABASE_URL: databaseUrl, STORE_POLL_MS: '100' },
    token: (userId) => mintClusterToken({ databaseUrl, userId }),
    revoke: async (token) => {
      await revokeClusterToken({ databaseUrl, idOrToken: token });
    },
    apply: async (files, keepLog) => {
      const changesDir = await writeChangeSet(files);
      await applyPostgresChanges({ changesDir, databaseUrl, ...(keepLog ? { keepLog } : {}) });
    },
    rebuild: async () => {
      await buildPostgresStore({ sourceDir, databaseUrl });
    },
    restorePoint: async () => {
      // The coordinator's record of the generation it publishes, put back as it was (what a
      // replica sees of a cluster restored from a backup taken then; that generation's schema
      // is still kept, as the one before the current).
      const [kept] = await coordinatorQuery(databaseUrl, 'SELECT * FROM public.store_meta');
      return async () => {
        const columns = Object.keys(kept as object);
        await coordinatorQuery(
          databaseUrl,
          `UPDATE public.store_meta SET ${columns.map((column, k) => `${column} = $${k + 1}`).join(', ')}`,
          Object.values(kept as object),
        );
      };
    },
  };
}

async function coordinatorQuery(
  databaseUrl: string,
  sql: string,
  values: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

let store: Store;
let server: ServerProcess;
const tokens = new Map<string, string>();
const streams: OpenedStream[] = [];

const headersOf = (user: string) => bearer(tokens.get(user) as string);

async function open(user: string, headers: Record<string, string> = {}) {
  const stream = await openEventStream(`${server.url}/v2/users/events`, {
    ...headersOf(user),
    ...headers,
  });
  streams.push(stream);
  return stream;
}

/**
 * Opens a stream, once the places of the streams closed before are free again: the server
 * counts a stream until it has seen its client go.
 */
async function openOk(user: string, headers: Record<string, string> = {}) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const stream = await open(user, headers);
    if (stream.status === 200) return stream;
    expect([429, 503]).toContain(stream.status);
    await stream.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no stream opened for ${user}`);
}

/** Opens a stream and reads up to its `ready`: the generation it names. */
async function opened(user: string): Promise<{ stream: OpenedStream; generation: string }> {
  const stream = await openOk(user);
  const ready = await stream.nextEvent();
  expect(ready.event).toBe('ready');
  return { stream, generation: ready.id as string };
}

interface SyncTotals {
  added: number;
  modified: number;
  removed: number;
  cursor: string;
  generation: string | null;
}

/** A whole sync from `cursor` (none: from nothing): its counts and the cursor to keep. */
async function sync(user: string, cursor: string | null): Promise<SyncTotals> {
  const totals: SyncTotals = { added: 0, modified: 0, removed: 0, cursor: '', generation: null };
  let next = cursor;
  for (;;) {
    const query = next === null ? '' : `&cursor=${encodeURIComponent(next)}`;
    const response = await fetch(`${server.url}/v2/users/transactions/sync?count=500${query}`, {
      headers: headersOf(user),
    });
    expect(response.status).toBe(200);
    totals.generation ??= response.headers.get('x-store-generation');
    const body = (await response.json()) as {
      added: unknown[];
      modified: unknown[];
      removed: unknown[];
      next_cursor: string;
      has_more: boolean;
    };
    totals.added += body.added.length;
    totals.modified += body.modified.length;
    totals.removed += body.removed.length;
    next = body.next_cursor;
    if (!body.has_more) return { ...totals, cursor: next };
  }
}

const closeAll = () => {
  for (const stream of streams.splice(0)) stream.close();
};

/** Generations in the order the server served them, as the streams named them. */
const served: string[] = [];

beforeAll(async () => {
  store = await openStore();
  for (const user of USERS) tokens.set(user, await store.token(user));
  server = await startServerProcess({
    ...store.env,
    TODAY,
    RATE_LIMIT_MAX: '0',
    EVENT_KEEP_ALIVE_MS: '300',
    EVENT_STREAMS_MAX: '9',
    MAX_RUNNING_REQUESTS: '8',
    SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
  });
}, 180_000);

afterAll(async () => {
  closeAll();
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
});

describe('GET /v2/users/events', () => {
  it('answers 401 without a token and 406 to an Accept that admits no event stream', async () => {
    const anonymous = await fetch(`${server.url}/v2/users/events`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(await anonymous.json()).toEqual({ detail: 'Not authenticated' });
    for (const accept of ['application/json', 'text/html', 'text/event-stream;q=0, */*;q=0.1']) {
      const refused = await open('u1', { accept });
      expect([accept, refused.status]).toEqual([accept, 406]);
      expect(JSON.parse(await refused.text())).toEqual({
        detail: 'Not Acceptable: events are served as text/event-stream (Accept)',
      });
    }
    for (const accept of ['text/event-stream', 'text/*', '*/*', 'application/json, */*;q=0.5']) {
      const accepted = await openOk('u1', { accept });
      expect((await accepted.nextEvent()).event).toBe('ready');
      accepted.close();
    }
    closeAll();
  });

  it('opens with retry, then ready naming the generation served; never compressed or cached; keep-alive comments', async () => {
    const stream = await openOk('u1', { 'accept-encoding': 'br, gzip' });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // The connection ends with the stream (a reconnect may reach another replica).
    expect(stream.headers.get('connection')).toBe('close');
    expect(stream.headers.get('content-encoding')).toBeNull();
    expect(stream.headers.get('etag')).toBeNull();
    const generation = stream.headers.get('x-store-generation') as string;
    expect(await stream.nextFrame()).toEqual({ retry: 5000 });
    expect(await stream.nextFrame()).toEqual({
      event: 'ready',
      id: generation,
      data: { generation },
    });
    // EVENT_KEEP_ALIVE_MS is 300 here: a silent stream gets comments.
    expect(await stream.nextFrame()).toEqual({ comment: 'keep-alive' });
    served.push(generation);
    closeAll();
  });

  it('tells the streams of the users a change set touched, once served, with the sync feed’s counts; others nothing', async () => {
    const [first, second] = [await opened('u1'), await opened('u1')];
    const other = await opened('u2');
    expect(first.generation).toBe(served[0]);
    const before = await sync('u1', null);
    const otherBefore = await sync('u2', null);

    await store.apply({
      upserts: {
        transactions: [
          transaction('t_u1_new1', 'u1', '5.00'),
          transaction('t_u1_new2', 'u1', '6.00'),
          transaction('t_u1_1', 'u1', '11.00'),
        ],
        balances: [{ account_id: 'acc_u1', as_of: '2026-11-19', current: '120.00' }],
      },
      deletes: { transactions: [{ id: 't_u1_2' }] },
    });
    // build-db has published (its own time is the ingest's, not the streams').
    const published = Date.now();
    const events = [await first.stream.nextEvent(), await second.stream.nextEvent()];
    const elapsed = Date.now() - published;
    const generation = events[0]?.id as string;
    expect(generation).not.toBe(served[0]);
    for (const event of events) {
      expect(event).toEqual({
        event: 'changed',
        id: generation,
        data: {
          generation,
          previous_generation: served[0],
          transactions: { added: 2, modified: 1, removed: 1 },
          tables: ['transactions', 'balances'],
        },
      });
    }
    // Written once served: a sync sent on receipt reads that generation, and counts the same.
    const after = await sync('u1', before.cursor);
    expect(after).toMatchObject({ added: 2, modified: 1, removed: 1, generation });
    // Within 2 s of the publication: the watch (or the poll), the swap, the read and the write.
    // 0 to 270 ms on a two-core machine at load 7.5; the benchmark measures it at scale
    // (docs/performance.md).
    expect(elapsed).toBeLessThan(2_000);
    served.push(generation);

    // The next change set touches u2 alone: u2's stream is told of it, and of nothing before.
    await store.apply({ upserts: { transactions: [transaction('t_u2_new', 'u2', '7.00')] } });
    const told = await other.stream.nextEvent();
    const next = told.id as string;
    expect(told).toEqual({
      event: 'changed',
      id: next,
      data: {
        generation: next,
        previous_generation: generation,
        transactions: { added: 1, modified: 0, removed: 0 },
        tables: ['transactions'],
      },
    });
    expect(await sync('u2', otherBefore.cursor)).toMatchObject({ added: 1, generation: next });
    served.push(next);
    // u1's streams were told nothing of it: the next thing they get is a later generation's.
    await store.apply({ upserts: { transactions: [transaction('t_u1_new3', 'u1', '8.00')] } });
    const later = await first.stream.nextEvent();
    expect(later.data).toMatchObject({ previous_generation: next });
    expect(later.id).not.toBe(next);
    served.push(later.id as string);
    closeAll();
  });

  it('resumes from Last-Event-ID: changed from a kept generation, ready alone from the current one, reset from anything else', async () => {
    const [g0, g1, g2, g3] = served as [string, string, string, string];
    const fromStart = await sync('u1', null);
    const resumed = await openOk('u1', { 'last-event-id': g0 });
    const caughtUp = await resumed.nextEvent();
    expect(caughtUp).toEqual({
      event: 'changed',
      id: g3,
      data: {
        generation: g3,
        previous_generation: g0,
        transactions: { added: 3, modified: 1, removed: 1 },
        tables: ['transactions', 'balances'],
      },
    });
    expect(await resumed.nextEvent()).toEqual({ event: 'ready', id: g3, data: { generation: g3 } });
    expect(fromStart.generation).toBe(g3);
    resumed.close();
    // Nothing of u2's changed since g2: ready alone; likewise from the generation served.
    for (const [user, from] of [
      ['u2', g2],
      ['u1', g3],
    ] as const) {
      const stream = await openOk(user, { 'last-event-id': from });
      expect(await stream.nextEvent()).toEqual({
        event: 'ready',
        id: g3,
        data: { generation: g3 },
      });
      stream.close();
    }
    for (const garbage of ['not-a-generation', `${g1}x`, ' ']) {
      const stream = await openOk('u1', { 'last-event-id': garbage });
      const first = await stream.nextEvent();
      if (garbage.trim() === '') {
        // An empty Last-Event-ID asks for no resume (EventSource sends none such).
        expect(first.event).toBe('ready');
        stream.close();
        continue;
      }
      expect(first).toEqual({
        event: 'reset',
        id: g3,
        data: { generation: g3, reason: 'unknown' },
      });
      expect((await stream.nextEvent()).event).toBe('ready');
      stream.close();
    }
    closeAll();
  });

  it('resets from a generation older than the kept change log', async () => {
    const { stream, generation } = await opened('u1');
    await store.apply(
      { upserts: { transactions: [transaction('t_u1_new4', 'u1', '9.00')] } },
      { changeSets: 1 },
    );
    // The live stream stands at the generation before: the log still leads from it.
    const changed = await stream.nextEvent();
    expect(changed.data).toMatchObject({ previous_generation: generation });
    const current = changed.id as string;
    served.push(current);
    const old = await openOk('u1', { 'last-event-id': served[0] as string });
    expect(await old.nextEvent()).toEqual({
      event: 'reset',
      id: current,
      data: { generation: current, reason: 'expired' },
    });
    closeAll();
  });

  // A second server process to start: over 30 s on a busy two-core machine.
  it('every replica tells its own streams: two servers on one store', async () => {
    const replica = await startServerProcess({ ...store.env, TODAY, RATE_LIMIT_MAX: '0' });
    try {
      const here = await opened('u3');
      const there = await openEventStream(`${replica.url}/v2/users/events`, headersOf('u3'));
      streams.push(there);
      expect(await there.nextEvent()).toEqual({
        event: 'ready',
        id: here.generation,
        data: { generation: here.generation },
      });
      await store.apply({ upserts: { transactions: [transaction('t_u3_new', 'u3', '4.00')] } });
      const told = await here.stream.nextEvent();
      expect(told).toEqual({
        event: 'changed',
        id: told.id,
        data: {
          generation: told.id,
          previous_generation: here.generation,
          transactions: { added: 1, modified: 0, removed: 0 },
          tables: ['transactions'],
        },
      });
      // The other replica follows the store on its own (its watch, or its poll) and writes the
      // same event to its own stream.
      expect(await there.nextEvent()).toEqual(told);
      served.push(told.id as string);
    } finally {
      closeAll();
      replica.child.kill('SIGTERM');
      await replica.exited;
    }
  }, 120_000);

  it('resets after a restore: an earlier generation published again', async () => {
    const restore = await store.restorePoint();
    const { stream } = await opened('u2');
    await store.apply({ upserts: { transactions: [transaction('t_u2_new2', 'u2', '3.00')] } });
    const changed = await stream.nextEvent();
    expect(changed.event).toBe('changed');
    // What was published before that change set, published again.
    await restore();
    const restored = served.at(-1) as string;
    expect(await stream.nextEvent()).toEqual({
      event: 'reset',
      id: restored,
      data: { generation: restored, reason: 'restore' },
    });
    closeAll();
  });

  it('resets after a full rebuild; the old cursors answer 410', async () => {
    const cursor = (await sync('u1', null)).cursor;
    const { stream } = await opened('u1');
    const other = await opened('u3');
    await store.rebuild();
    const reset = await stream.nextEvent();
    expect(reset.event).toBe('reset');
    expect(reset.data).toEqual({ generation: reset.id, reason: 'rebuild' });
    expect(await other.stream.nextEvent()).toEqual(reset);
    const gone = await fetch(
      `${server.url}/v2/users/transactions/sync?cursor=${encodeURIComponent(cursor)}`,
      { headers: headersOf('u1') },
    );
    expect(gone.status).toBe(410);
    expect(gone.headers.get('x-store-generation')).toBe(reset.id);
    closeAll();
  });

  it('holds 4 streams a token (429 for a fifth) and EVENT_STREAMS_MAX a process (503 past it), none of them a running place', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => opened('u3')));
    const fifth = await open('u3');
    expect([fifth.status, fifth.headers.get('retry-after')]).toEqual([429, '5']);
    expect(JSON.parse(await fifth.text())).toEqual({ detail: 'Too Many Requests' });
    // One closed, a place is free again (once the server has seen it go).
    held[0]?.stream.close();
    expect((await (await openOk('u3')).nextEvent()).event).toBe('ready');
    // EVENT_STREAMS_MAX is 9 here: 4 of u3's, 4 of u1's, one of u2's, then none.
    await Promise.all([1, 2, 3, 4].map(() => opened('u1')));
    await opened('u2');
    const past = await open('u2');
    expect([past.status, past.headers.get('retry-after')]).toEqual([503, '5']);
    expect(JSON.parse(await past.text())).toEqual({ detail: 'Service Unavailable' });
    // Nine streams open, eight running places (MAX_RUNNING_REQUESTS): an open stream holds none.
    const profile = await fetch(`${server.url}/v1/user`, { headers: headersOf('u2') });
    expect(profile.status).toBe(200);
    closeAll();
  });

  it('ends the stream of a revoked token, cleanly; the token then answers 401', async () => {
    const { stream } = await opened('u4');
    await store.revoke(tokens.get('u4') as string);
    expect(await stream.ended).toBe('clean');
    expect((await open('u4')).status).toBe(401);
    closeAll();
  });

  it('ends every stream on SIGTERM, cleanly; the process exits 0 within its grace', async () => {
    const open = await Promise.all(['u1', 'u1', 'u2', 'u3'].map((user) => opened(user)));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    for (const { stream } of open) expect(await stream.ended).toBe('clean');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_GRACE_MS);
  });
});
