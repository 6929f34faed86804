/**
 * build-db on the cluster when its input or its servers fail: a misspelled file and a NUL
 * character are refused at validation, before anything is written (as on DuckDB); a shard or
 * the coordinator that goes away while build-db writes ends it with exit 1 and a line naming
 * the server and saying that nothing was published, never a stack; the next load succeeds.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterInfo,
  controlInstance,
  removeCluster,
  startCluster,
} from '../../../tools/cluster/cluster.ts';
import { DEMO_DIR } from '../../../tools/demo-data/demo.ts';
import { type ChangeSetFiles, writeChangeSet } from '../../helpers/changing-store.ts';
import { csvToParquet } from '../../helpers/parquet.ts';
import { freePortRun } from '../../helpers/ports.ts';
import { createTestDatabase, runTool } from '../../helpers/postgres.ts';
import { REPO_ROOT } from '../../helpers/server.ts';
import { type FixtureRow, makeTempDir, writeCsvFixture } from '../../helpers/store.ts';

/** Tests that run the CLIs as processes and restart servers: seconds each on a busy machine. */
const SLOW_TEST_MS = 180_000;

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const generationOf = async (url: string) =>
  (await query<{ generation: string }>(url, 'SELECT generation FROM public.store_meta'))[0]
    ?.generation;

const transaction = (id: string, description = 'SHOP'): FixtureRow => ({
  id,
  user_id: 'usr_a',
  account_id: 'acc_a',
  transacted_at: '2024-02-01',
  amount: '1.00',
  direction: 'DEBIT',
  description,
  category: 'Other',
});

const SMALL: Record<string, FixtureRow[]> = {
  users: [{ id: 'usr_a', name: 'Ann', email: 'ann@example.com', created_at: '2024-01-01' }],
  links: [
    {
      id: 'lnk_a',
      user_id: 'usr_a',
      type: 'institution',
      name: 'Chase',
      status: 'active',
      created_at: '2024-01-01',
    },
  ],
  accounts: [
    { id: 'acc_a', user_id: 'usr_a', link_id: 'lnk_a', name: 'Checking', type: 'depository' },
  ],
  transactions: [transaction('t1')],
};

describe('input the cluster is given is refused before anything is written', () => {
  let databaseUrl: string;
  let generation: string | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const source = makeTempDir('small');
    await writeCsvFixture(source, SMALL);
    const built = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
    expect(built.code, built.stderr).toBe(0);
    generation = await generationOf(databaseUrl);
  }, SLOW_TEST_MS);

  const changes = async (files: ChangeSetFiles) =>
    runTool('build-db', ['--changes', await writeChangeSet(files), '--database', databaseUrl]);

  it(
    'a misspelled table file, in a change set or a source folder',
    async () => {
      const refused = await changes({
        upserts: {
          transactions: [transaction('t2')],
          transaction: [transaction('t3')],
          acounts: [{ id: 'acc_a' }],
        },
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'acounts.csv: not a table of the data contract; did you mean accounts.csv?\n' +
          'transaction.csv: not a table of the data contract; did you mean transactions.csv?\n',
      );
      expect(refused.stderr).toContain('change set refused');

      const source = makeTempDir('misspelled');
      await writeCsvFixture(source, { ...SMALL, transaction: [transaction('t3')] });
      const build = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
      expect(build.code).toBe(1);
      expect(build.stderr).toContain(
        'transaction.csv: not a table of the data contract; did you mean transactions.csv?',
      );
      expect(await generationOf(databaseUrl)).toBe(generation);
    },
    SLOW_TEST_MS,
  );

  it(
    'a column named twice in a header, a table file that is a folder',
    async () => {
      const repeated = await changes({
        // DuckDB compares names trimmed: 'amount ' repeats 'amount'.
        upserts: { transactions: [{ ...transaction('t2'), 'amount ': '2.00' }] },
      });
      expect(repeated.code).toBe(1);
      expect(repeated.stderr).toContain(
        "transactions.csv:1: duplicate column 'amount' in the header",
      );
      const source = makeTempDir('folder');
      const { transactions: _, ...others } = SMALL;
      await writeCsvFixture(source, others);
      await mkdir(join(source, 'transactions.csv'));
      const build = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
      expect(build.code).toBe(1);
      expect(build.stderr).toContain('transactions.csv: is a folder, not a file\n');
      expect(build.stderr).not.toMatch(/EISDIR/);
      expect(await generationOf(databaseUrl)).toBe(generation);
    },
    SLOW_TEST_MS,
  );

  it(
    'a NUL character, in a change set (CSV and Parquet) or a source folder, at its line',
    async () => {
      const reason =
        'description contains a NUL character (U+0000), which the data contract does not allow';
      const csv = await changes({
        upserts: { transactions: [transaction('t2'), transaction('t3', 'SH\u0000OP')] },
      });
      expect(csv.code).toBe(1);
      expect(csv.stderr).toContain(`transactions.csv:3: ${reason}`);

      const parquetDir = await writeChangeSet({
        upserts: { transactions: [transaction('t3', 'SH\u0000OP')] },
      });
      await csvToParquet(join(parquetDir, 'transactions.csv'));
      const parquet = await runTool('build-db', [
        '--changes',
        parquetDir,
        '--database',
        databaseUrl,
      ]);
      expect(parquet.code).toBe(1);
      expect(parquet.stderr).toContain(`transactions.parquet:row 1: ${reason}`);

      const source = makeTempDir('nul');
      await writeCsvFixture(source, {
        ...SMALL,
        transactions: [transaction('t1'), transaction('t2', 'SH\u0000OP')],
      });
      const build = await runTool('build-db', ['--source', source, '--database', databaseUrl]);
      expect(build.code).toBe(1);
      expect(build.stderr).toContain(`transactions.csv:3: ${reason}`);
      for (const run of [csv, parquet, build]) expect(run.stderr).not.toMatch(/invalid byte/);
      expect(await generationOf(databaseUrl)).toBe(generation);
    },
    SLOW_TEST_MS,
  );
});

/** Runs build-db as one process (so stopping a server reaches the writer, not a launcher). */
function buildDb(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-db.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  return { exited };
}

/**
 * A transaction on `url` that holds `tables` in `mode`, until the server is stopped: in
 * EXCLUSIVE mode, writes to them wait (reads do not); in ACCESS EXCLUSIVE mode, reads too.
 */
async function hold(url: string, tables: string[], mode: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // The server is stopped under it: its 'error' event is expected.
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${tables.join(', ')} IN ${mode} MODE`);
  return client;
}

/** Waits until a statement waits for a lock on the server at `url`: build-db's, held up. */
async function buildDbWaitsOn(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [row] = await query<{ n: string }>(
      url,
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND wait_event_type = 'Lock'`,
    );
    if (Number(row?.n) > 0) return;
    await sleep(50);
  }
  throw new Error(`build-db never waited on ${url}`);
}

describe('a server that goes away while build-db writes', () => {
  let cluster: ClusterInfo;
  let dir: string;
  let demoTotals: Totals;
  const shard2 = () => cluster.shardUrls[1] as string;
  const address = (url: string) => new URL(url).host;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finance-ingest-faults-'));
    cluster = await startCluster({ dir, shards: 2, port: await freePortRun(3), fast: true });
    const built = await runTool('build-db', [
      '--source',
      DEMO_DIR,
      '--database',
      cluster.databaseUrl,
    ]);
    expect(built.code, built.stderr).toBe(0);
    demoTotals = await transactionTotals();
  }, SLOW_TEST_MS);

  afterAll(async () => {
    if (dir) await removeCluster(dir);
  });

  interface Totals {
    n: string;
    total: string;
  }

  /** The current generation's transactions: how many, and the sum of their amounts. */
  async function transactionTotals(): Promise<Totals> {
    const [meta] = await query<{ schema_name: string }>(
      cluster.databaseUrl,
      'SELECT schema_name FROM public.store_meta',
    );
    const [row] = await query<Totals>(
      cluster.databaseUrl,
      `SELECT count(*) AS n, sum(amount)::text AS total FROM ${meta?.schema_name}.transactions`,
    );
    return row as Totals;
  }

  /** A change set raising every demo transaction's amount by `by`: rows on every shard. */
  async function everyAmountRaised(by: number): Promise<string> {
    const changesDir = makeTempDir('raised');
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run(
        `COPY (SELECT * REPLACE (CAST(CAST(amount AS DECIMAL(18,2)) + ${by} AS VARCHAR) AS amount)
               FROM read_csv('${join(DEMO_DIR, 'transactions.csv')}', all_varchar = true))
         TO '${join(changesDir, 'transactions.csv')}' (HEADER)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    return changesDir;
  }

  /** The demo's totals with every amount raised by `by`. */
  const demoRaised = (by: number): Totals => ({
    n: demoTotals.n,
    total: (Number(demoTotals.total) + by * Number(demoTotals.n)).toFixed(2),
  });

  /**
   * Runs build-db until it waits on `tables` of the server `url`, stops that server (`name`),
   * and returns what build-db said; then starts the server again.
   */
  async function stoppedMidway(
    args: string[],
    server: { name: string; url: string; tables: string[]; mode?: string },
  ): Promise<{ code: number | null; stderr: string }> {
    const holder = await hold(server.url, server.tables, server.mode ?? 'EXCLUSIVE');
    const run = buildDb([...args, '--database', cluster.databaseUrl]);
    try {
      await buildDbWaitsOn(server.url);
      // The coordinator shuts down cleanly: this cluster commits without waiting for its
      // log (synchronous_commit=off), so a crash would also lose what build-db committed.
      await controlInstance(
        dir,
        server.name,
        'stop',
        server.name === 'coordinator' ? 'fast' : 'immediate',
      );
      return await run.exited;
    } finally {
      await holder.end().catch(() => {});
      await controlInstance(dir, server.name, 'start');
    }
  }

  /** The tables of the current lineage on shard 2. */
  async function shard2Tables(): Promise<string[]> {
    const [meta] = await query<{ data_schema: string }>(
      cluster.databaseUrl,
      'SELECT data_schema FROM public.store_meta',
    );
    const tables = await query<{ name: string }>(
      shard2(),
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
       WHERE schemaname = '${meta?.data_schema}'`,
    );
    return tables.map((table) => table.name);
  }

  it(
    'a shard stopped while read through the coordinator: exit 1 naming it, nothing published',
    async () => {
      const before = await generationOf(cluster.databaseUrl);
      const totals = await transactionTotals();
      // The coordinator reads the stored rows the change set touches from shard 2: it waits.
      const { code, stderr } = await stoppedMidway(['--changes', await everyAmountRaised(3)], {
        name: 'shard2',
        url: shard2(),
        tables: await shard2Tables(),
        mode: 'ACCESS EXCLUSIVE',
      });
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(
        `build-db: shard 2 (${address(shard2())}) went away: server closed the connection unexpectedly. Nothing was published: the cluster still serves generation ${before}`,
      );
      expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
      expect(await generationOf(cluster.databaseUrl)).toBe(before);
      expect(await transactionTotals()).toEqual(totals);
    },
    SLOW_TEST_MS,
  );

  it(
    'a shard stopped mid change set: exit 1 naming it, nothing published; applied again, whole',
    async () => {
      const before = await generationOf(cluster.databaseUrl);
      const totals = await transactionTotals();
      const changesDir = await everyAmountRaised(1);
      // Its writes on shard 2 (every bucket's, whatever the change set) wait on these.
      const { code, stderr } = await stoppedMidway(['--changes', changesDir], {
        name: 'shard2',
        url: shard2(),
        tables: await shard2Tables(),
      });
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(`build-db: shard 2 (${address(shard2())}) went away: `);
      expect(stderr).toContain(
        `Nothing was published: the cluster still serves generation ${before} (the next load clears what this one wrote)\n`,
      );
      expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
      expect(await generationOf(cluster.databaseUrl)).toBe(before);
      expect(await transactionTotals()).toEqual(totals);

      const again = await buildDb(['--changes', changesDir, '--database', cluster.databaseUrl])
        .exited;
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(
        /clearing change set \d+, written by a load that did not finish/,
      );
      expect(await transactionTotals()).toEqual(demoRaised(1));
    },
    SLOW_TEST_MS,
  );

  it(
    'the coordinator stopped while publishing: exit 1 naming it, nothing published; applied again, whole',
    async () => {
      const before = await generationOf(cluster.databaseUrl);
      const totals = await transactionTotals();
      const changesDir = await everyAmountRaised(2);
      // The shards are written; the publication's transaction waits on this table.
      const { code, stderr } = await stoppedMidway(['--changes', changesDir], {
        name: 'coordinator',
        url: cluster.databaseUrl,
        tables: ['public.change_sets'],
      });
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(
        `build-db: the coordinator (${address(cluster.databaseUrl)}) went away: `,
      );
      expect(stderr).toContain(
        `Nothing was published: the cluster still serves generation ${before}`,
      );
      expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
      expect(await generationOf(cluster.databaseUrl)).toBe(before);
      expect(await transactionTotals()).toEqual(totals);

      const again = await buildDb(['--changes', changesDir, '--database', cluster.databaseUrl])
        .exited;
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(
        /clearing change set \d+, written by a load that did not finish/,
      );
      expect(await transactionTotals()).toEqual(demoRaised(2));
    },
    SLOW_TEST_MS,
  );

  it(
    'a shard stopped mid full load: exit 1 naming it, nothing published; loaded again',
    async () => {
      const before = await generationOf(cluster.databaseUrl);
      const totals = await transactionTotals();
      // A load first replaces this view on every shard: on shard 2 it waits.
      const { code, stderr } = await stoppedMidway(['--source', DEMO_DIR], {
        name: 'shard2',
        url: shard2(),
        tables: ['public.shard_probe'],
      });
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(`build-db: shard 2 (${address(shard2())}) went away: `);
      expect(stderr).toContain(
        `Nothing was published: the cluster still serves generation ${before}`,
      );
      expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
      expect(await generationOf(cluster.databaseUrl)).toBe(before);
      expect(await transactionTotals()).toEqual(totals);

      const again = await buildDb(['--source', DEMO_DIR, '--database', cluster.databaseUrl]).exited;
      expect(again.code, again.stderr).toBe(0);
      expect(await generationOf(cluster.databaseUrl)).not.toBe(before);
      expect(await transactionTotals()).toEqual(demoTotals);
    },
    SLOW_TEST_MS,
  );

  it(
    'the coordinator stopped after publishing: exit 0, published, and the rest left to the next load',
    async () => {
      const url = cluster.databaseUrl;
      const [previous] = await query<{ schema_name: string }>(
        url,
        'SELECT schema_name FROM public.generations ORDER BY published_at DESC, schema_name OFFSET 1',
      );
      const oldest = previous?.schema_name as string;
      // Once the new generation is published, this one is dropped: its views wait on the lock.
      const { code, stderr } = await stoppedMidway(['--changes', await everyAmountRaised(4)], {
        name: 'coordinator',
        url,
        tables: [`${oldest}.users`],
        mode: 'ACCESS SHARE',
      });
      expect(code, stderr).toBe(0);
      const published = /published generation ([0-9a-f]{16})/.exec(stderr)?.[1];
      expect(stderr).toContain(
        `generation ${published} is published, but dropping the generations before it failed (the coordinator (${address(url)}) went away: `,
      );
      expect(stderr).toContain('); the next load drops them\n');
      expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
      expect(await generationOf(url)).toBe(published);
      expect(await transactionTotals()).toEqual(demoRaised(4));

      const next = await buildDb(['--changes', await everyAmountRaised(5), '--database', url])
        .exited;
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toContain(`dropping generation schema ${oldest}`);
    },
    SLOW_TEST_MS,
  );
});
