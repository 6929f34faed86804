/**
 * The ingest side of the benchmark: a daily change set applied to the bench store
 * on an engine, beside a full rebuild of the same store, while a server answers requests; then
 * the sync feed's pages.
 *
 * The change set: 10,000 transactions over 2,000 users (the bench's token users first), 8,000
 * new (four per user), 1,500 modified, 500 removed, drawn from the store itself. It is applied
 * with the real CLI (`build-db --changes`) to a copy of the store (DuckDB) or to a database of
 * its own on the bench cluster, the wall time measured; the server (the real process) is read
 * all along by four clients, and the time from the CLI's return to the server answering from
 * the new generation is measured with the errors seen meanwhile.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { encodeCursor } from '../src/areas/transactions/sync.ts';
import { newGeneration } from '../src/contract/store-format.ts';
import { COLUMNS } from '../src/contract/tables.ts';
import { loadGeneration } from '../src/ingest/postgres/load.ts';
import { tokensPathFor } from '../src/tokens/path.ts';
import { loadTokens } from '../src/tokens/token-file.ts';
import type { ClusterInfo } from '../tools/cluster/cluster.ts';
import { clusterDatabase } from './cluster.ts';
import { measureHttp } from './load.ts';
import { startServer } from './process.ts';
import type { Scenario } from './scenarios.ts';
import type { Measured } from './stats.ts';
import { type BenchStore, type BenchUser, CACHE_DIR, ROOT } from './stores.ts';

export const CHANGE_SET = { users: 2_000, added: 8_000, modified: 1_500, removed: 500 };

export interface IngestResult {
  engine: string;
  store: string;
  /** Seconds of a full rebuild of the same store on this engine (the cluster: its load). */
  fullRebuildSeconds: number;
  /** Wall seconds of `build-db --changes`, as an operator runs it. */
  changeSetSeconds: number;
  /** From the CLI's return until the server answered from the new generation. */
  followSeconds: number;
  requestsDuringApply: number;
  errorsDuringApply: number;
  syncFirstPage: Measured;
  syncAfterChanges: Measured;
}

const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;
const elapsed = (since: number) => (performance.now() - since) / 1000;

/** Writes the change set (transactions.csv, transactions.deleted.csv) drawn from the store. */
async function writeChangeSet(store: BenchStore, dir: string): Promise<{ users: string[] }> {
  await mkdir(dir, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH ${quote(store.databasePath)} AS store (READ_ONLY)`);
    const heavy = store.heavy ? `'${store.heavy.userId}'` : "''";
    // Every typical user has a token (stores.ts), so every changed one can sync.
    await conn.run(`CREATE TABLE chosen AS SELECT id AS user_id FROM store.users
      WHERE id <> ${heavy} ORDER BY hash(id) LIMIT ${CHANGE_SET.users}`);
    const columns = COLUMNS.transactions.join(', ');
    await conn.run(`CREATE TABLE picked AS
      SELECT ${columns}, row_number() OVER (ORDER BY hash(id)) AS n,
        row_number() OVER (PARTITION BY user_id ORDER BY hash(id) DESC) AS r
      FROM store.transactions SEMI JOIN chosen USING (user_id)`);
    const modified = CHANGE_SET.modified;
    const removed = modified + CHANGE_SET.removed;
    const perUser = CHANGE_SET.added / CHANGE_SET.users;
    const changed = COLUMNS.transactions
      .map((column) =>
        column === 'amount'
          ? 'amount + 1.00 AS amount'
          : column === 'description'
            ? `description || ' (corrected)' AS description`
            : column,
      )
      .join(', ');
    const added = COLUMNS.transactions
      .map((column) =>
        column === 'id'
          ? `'cs' || left(md5(id), 22) AS id`
          : column === 'external_id'
            ? 'NULL AS external_id'
            : column === 'transacted_at'
              ? `DATE '2026-11-20' AS transacted_at`
              : column,
      )
      .join(', ');
    await conn.run(`COPY (
        SELECT ${changed} FROM picked WHERE n <= ${modified}
        UNION ALL SELECT ${added} FROM picked WHERE n > ${removed} AND r <= ${perUser}
      ) TO ${quote(join(dir, 'transactions.csv'))} (HEADER, QUOTE '"')`);
    await conn.run(`COPY (SELECT id FROM picked WHERE n > ${modified} AND n <= ${removed})
      TO ${quote(join(dir, 'transactions.deleted.csv'))} (HEADER)`);
    const users = (await conn.runAndReadAll('SELECT user_id FROM chosen')).getRowObjectsJson();
    return { users: users.map((row) => String(row.user_id)) };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Runs a CLI script to its end; its wall time, and its stderr. */
async function timedScript(
  name: string,
  args: string[],
): Promise<{ seconds: number; output: string }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join('scripts', `${name}.ts`), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`${name} ${args.join(' ')} failed (${code}):\n${output}`);
  return { seconds: elapsed(started), output };
}

/** Where the sync state of the store being changed stands (for cursors made here). */
async function syncState(target: string): Promise<{ lineage: string; key: string }> {
  if (target.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      const { rows } = await client.query<{ lineage: string; key: string }>(
        'SELECT m.lineage, k.key FROM public.store_meta m, public.sync_key k',
      );
      return rows[0] as { lineage: string; key: string };
    } finally {
      await client.end();
    }
  }
  const instance = await DuckDBInstance.create(target, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const [row] = (
      await conn.runAndReadAll('SELECT lineage, cursor_key AS key FROM store_meta')
    ).getRowObjectsJson();
    return { lineage: String(row?.lineage), key: String(row?.key) };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

export async function runIngest(options: {
  engine: 'duckdb' | 'postgres';
  store: BenchStore;
  cluster: ClusterInfo | null;
  env: Record<string, string>;
  seconds: number;
  progress: (line: string) => void;
}): Promise<IngestResult> {
  const { store, progress, engine } = options;
  const work = join(CACHE_DIR, `ingest-${engine}-${store.spec.label}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const changesDir = join(work, 'changes');
  progress(`[ingest ${engine}] drawing the change set from ${store.databasePath}`);
  const { users } = await writeChangeSet(store, changesDir);

  let target: string;
  let fullRebuildSeconds: number;
  if (engine === 'duckdb') {
    const inputDir = join(dirname(store.databasePath), 'input');
    progress(`[ingest ${engine}] full rebuild of the store, for comparison`);
    fullRebuildSeconds = (
      await timedScript('build-db', [
        '--source',
        inputDir,
        '--database',
        join(work, 'rebuilt.duckdb'),
      ])
    ).seconds;
    await rm(join(work, 'rebuilt.duckdb'), { force: true });
    await rm(join(work, 'rebuilt.tokens.duckdb'), { force: true });
    target = join(work, 'finance.duckdb');
    await copyFile(store.databasePath, target);
    await copyFile(tokensPathFor(store.databasePath), tokensPathFor(target));
  } else {
    if (!options.cluster) throw new Error('the ingest on postgres needs the bench cluster');
    target = await clusterDatabase(
      options.cluster,
      `ingest_${store.spec.label.toLowerCase().replace(/[^0-9a-z]/g, '_')}`,
    );
    progress(`[ingest ${engine}] full load of the store into ${target}, for comparison`);
    const started = performance.now();
    await mkdir(join(work, 'scratch'), { recursive: true });
    await loadGeneration({
      duckdbPath: store.databasePath,
      databaseUrl: target,
      generation: newGeneration(),
      source: store.databasePath,
      scratchDir: join(work, 'scratch'),
      tokens: await loadTokens(tokensPathFor(store.databasePath)),
    });
    fullRebuildSeconds = elapsed(started);
  }
  const state = await syncState(target);

  const server = await startServer({
    databasePath: engine === 'duckdb' ? target : store.databasePath,
    ...(engine === 'postgres' ? { databaseUrl: target } : {}),
    env: options.env,
    progress,
  });
  try {
    // Four clients read all along; every non-200 counts.
    let running = true;
    let requests = 0;
    let errors = 0;
    const readers = Array.from({ length: 4 }, async (_, k) => {
      let n = k;
      while (running) {
        const user = store.typical[n++ % store.typical.length] as BenchUser;
        try {
          const response = await fetch(`${server.url}/v2/users/transactions?page_size=10`, {
            headers: { authorization: `Bearer ${user.token}` },
          });
          await response.arrayBuffer();
          requests++;
          if (response.status !== 200) errors++;
        } catch {
          requests++;
          errors++;
        }
      }
    });
    progress(`[ingest ${engine}] applying the change set with build-db --changes`);
    const applied = await timedScript('build-db', ['--changes', changesDir, '--database', target]);
    const returned = performance.now();
    const generation = /published generation ([0-9a-f]{16})/.exec(applied.output)?.[1];
    let followSeconds = Number.NaN;
    for (;;) {
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as {
        store_generation?: string;
      };
      if (ready.store_generation === generation) {
        followSeconds = elapsed(returned);
        break;
      }
      if (elapsed(returned) > 30) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await Promise.all(readers);
    progress(
      `[ingest ${engine}] full rebuild ${fullRebuildSeconds.toFixed(1)} s, change set ${applied.seconds.toFixed(1)} s, served ${followSeconds.toFixed(2)} s after; ${errors} errors in ${requests} requests meanwhile`,
    );

    const tokenOf = new Map(store.typical.map((user) => [user.userId, user.token]));
    const changed = users.filter((user) => tokenOf.has(user));
    const sync = (
      name: string,
      path: (user: BenchUser, random: () => number) => string,
    ): Scenario => ({
      name,
      connections: 1,
      ceiling: 'engine',
      draw: (random, available) => {
        const user = pick(available.typical, random);
        return { path: path(user, random), token: user.token };
      },
    });
    const first = sync('sync: first page of 100', () => '/v2/users/transactions/sync?count=100');
    const cursors = new Map(
      changed.map((user) => [
        user,
        encodeCursor(state.key, user, {
          lineage: state.lineage,
          from: 0,
          fromGeneration: state.lineage,
          to: null,
          toGeneration: null,
          after: null,
        }),
      ]),
    );
    const after = sync(
      'sync: the change set (from the cursor before it)',
      (user) =>
        `/v2/users/transactions/sync?cursor=${encodeURIComponent(cursors.get(user.userId) ?? '')}`,
    );
    const measure = async (scenario: Scenario, typical: readonly BenchUser[], seed: number) => {
      progress(`[ingest ${engine}] HTTP: ${scenario.name} @1 (${options.seconds}s)`);
      const { measured } = await measureHttp({
        url: server.url,
        pid: server.pid,
        scenario,
        users: { typical, heavy: null },
        seconds: options.seconds,
        warmupSeconds: 1,
        seed,
        seen: new Set(),
        touched: new Set(),
      });
      progress(
        `  ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.p50.toFixed(2)} ms, p99 ${measured.p99.toFixed(2)} ms, ${measured.errors} errors`,
      );
      return measured;
    };
    const syncFirstPage = await measure(first, store.typical, 7_001);
    const syncAfterChanges = await measure(
      after,
      store.typical.filter((user) => cursors.has(user.userId)),
      7_002,
    );
    return {
      engine,
      store: store.spec.label,
      fullRebuildSeconds,
      changeSetSeconds: applied.seconds,
      followSeconds,
      requestsDuringApply: requests,
      errorsDuringApply: errors,
      syncFirstPage,
      syncAfterChanges,
    };
  } finally {
    await server.stop();
  }
}

/** The targets for the ingest figures (docs/performance.md, "The daily feed"). */
export function judgeIngest(result: IngestResult) {
  const fixed = (value: number, digits: number) => value.toFixed(digits);
  return [
    {
      name: `${result.engine}-changes-apply`,
      met: result.changeSetSeconds <= 10,
      text: `${result.engine}: change set of ${CHANGE_SET.added + CHANGE_SET.modified + CHANGE_SET.removed} transactions onto ${result.store}: ${fixed(result.changeSetSeconds, 1)} s (<= 10; full rebuild ${fixed(result.fullRebuildSeconds, 1)} s)`,
    },
    {
      name: `${result.engine}-changes-follow`,
      met: result.followSeconds <= 1 && result.errorsDuringApply === 0,
      text: `${result.engine}: server on the new generation ${fixed(result.followSeconds, 2)} s after the load returned (<= 1), ${result.errorsDuringApply} failed of ${result.requestsDuringApply} requests meanwhile (0)`,
    },
    {
      name: `${result.engine}-sync-page`,
      met: result.syncFirstPage.p50 <= 5,
      text: `${result.engine}: sync page of 100 changes @1: p50 ${fixed(result.syncFirstPage.p50, 2)} ms (<= 5), p99 ${fixed(result.syncFirstPage.p99, 2)} ms, ${fixed(result.syncFirstPage.requestsPerSecond, 0)} req/s`,
    },
  ];
}
