/** Store fixtures for tests: build stores from CSV, the committed demo set, tokens. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { newGeneration } from '../../src/contract/store-format.ts';
import type { Window } from '../../src/domain/calendar.ts';
import type { RecurringScope, StreamTexts } from '../../src/domain/recurring/model.ts';
import type { SpendingQuery } from '../../src/domain/spending/model.ts';
import { openDuckDbPort } from '../../src/engines/duckdb/port.ts';
import { openPostgresPort } from '../../src/engines/postgres/port.ts';
import { isAlive } from '../../src/files/publish.ts';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import type {
  ChangeRange,
  PageWindow,
  ReadPort,
  TransactionFilters,
} from '../../src/port/read-port.ts';
import { WorkingSet } from '../../src/port/working-set/port.ts';
import { FollowedTokens } from '../../src/tokens/followed-tokens.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { mintToken } from '../../src/tokens/token-file.ts';
import { csvField } from '../../tools/demo-data/csv-writer.ts';
import { DEMO_DIR } from '../../tools/demo-data/demo.ts';
import { generateFixtures } from '../../tools/demo-data/generator.ts';
import { testEngine } from './engine.ts';
import { createTestDatabase, loadStoreFile } from './postgres.ts';

export type FixtureValue = string | number | boolean | null;
export type FixtureRow = Record<string, FixtureValue>;

// One scratch folder per test process, `<tmpdir>/finance-test-<pid>-*`, removed when it exits.
let scratchRoot: string | undefined;

/** A test process's scratch folder; its process id, when it is named with one. */
const SCRATCH_NAME = /^finance-test-(\d+)-/;

/**
 * Removes the scratch folders under `parent` of test processes that no longer run: vitest ends
 * its workers with a signal, so their exit handlers never remove theirs (a run left a gigabyte
 * or two behind, and on this machine the runs of a day filled the disk).
 */
export function sweepScratchFolders(parent: string = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    const pid = Number(SCRATCH_NAME.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** A fresh empty directory, removed when the test process exits (or by a later sweep). */
export function makeTempDir(prefix = 'dir'): string {
  if (!scratchRoot) {
    sweepScratchFolders();
    const root = mkdtempSync(join(tmpdir(), `finance-test-${process.pid}-`));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    scratchRoot = root;
  }
  return mkdtempSync(join(scratchRoot, `${prefix}-`));
}

/** Builds a store from a folder of CSV/Parquet files; returns the new store's path. */
export async function buildStoreFromCsv(sourceDir: string): Promise<string> {
  const databasePath = join(makeTempDir('store'), 'finance.duckdb');
  await buildStore({ sourceDir, databasePath });
  return databasePath;
}

/**
 * A store of two generated users and a heavy one with `transactions` transactions (40,000: a
 * sort of them outgrows a 24 MB memory limit), built in 2 to 3 s.
 */
export async function buildHeavyStore(
  transactions: number,
): Promise<{ path: string; heavyUserId: string }> {
  const source = makeTempDir('heavy-source');
  const summary = await generateFixtures({
    users: 2,
    months: 12,
    seed: 'faults',
    outDir: source,
    heavyUserTransactions: transactions,
  });
  const path = join(makeTempDir('heavy-store'), 'finance.duckdb');
  await buildStore({ sourceDir: source, databasePath: path });
  return { path, heavyUserId: summary.heavyUserId as string };
}

let demoStore: Promise<string> | undefined;

/** The store built from fixtures/demo, built once per test file. Treat it as read-only. */
export function buildDemoStore(): Promise<string> {
  demoStore ??= buildStoreFromCsv(DEMO_DIR);
  return demoStore;
}

/**
 * Writes `<table>.csv` per entry. Columns are the union of the rows' keys (first seen
 * first), so a column left out of every row is absent from the file. `null` is empty.
 */
export async function writeCsvFixture(
  dir: string,
  tables: Record<string, FixtureRow[]>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [table, rows] of Object.entries(tables)) {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const lines = [
      columns.join(','),
      ...rows.map((row) => columns.map((column) => csvField(row[column] ?? null)).join(',')),
    ];
    await writeFile(join(dir, `${table}.csv`), `${lines.join('\n')}\n`);
  }
}

/** Mints a token for `userId` in the store (via the token CLI's code); returns the token. */
export function mintTestToken(
  databasePath: string,
  userId: string,
  options: { name?: string; expiresAt?: Date } = {},
): Promise<string> {
  return mintToken({ databasePath, userId, ...options });
}

/** Runs one query on a store file opened read-only; values as exact JSON (DECIMAL as string). */
export async function queryStoreFile<T = Record<string, unknown>>(
  databasePath: string,
  sql: string,
  params: (string | number | boolean | null)[] = [],
): Promise<T[]> {
  const instance = await DuckDBInstance.create(databasePath, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql, params)).getRowObjectsJson() as T[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Filters that keep every transaction of the user. */
export const NO_FILTERS: TransactionFilters = {
  from: null,
  to: null,
  accountIds: [],
  linkId: null,
  categories: [],
  direction: null,
  minAmount: null,
  maxAmount: null,
  text: null,
};

/** The working set a test port gets by default: the server's defaults. */
export const testWorkingSet = () =>
  new WorkingSet({ maxBytes: 128 * 1024 * 1024, maxRows: 50_000 });

/**
 * Opens a read port on the store built at `databasePath`, on the engine of this test run
 * (helpers/engine.ts): the behaviour suites' one way in. It answers from a working set as the
 * server does, unless `workingSet` is null (every answer from the engine).
 */
export async function openStore(
  databasePath: string,
  { workingSet = testWorkingSet() }: { workingSet?: WorkingSet | null } = {},
): Promise<ReadPort> {
  const withSet = workingSet === null ? {} : { workingSet };
  switch (testEngine()) {
    case 'duckdb':
      return openDuckDbPort(databasePath, withSet);
    case 'postgres': {
      // The same built store, loaded into databases of its own on the test cluster; tokens
      // minted by the tests (beside the store file) are followed as the DuckDB port does.
      const databaseUrl = await createTestDatabase();
      await loadStoreFile(databaseUrl, databasePath);
      const tokens = await FollowedTokens.open(tokensPathFor(databasePath));
      const port = await openPostgresPort(databaseUrl, {
        tokens,
        queryTimeoutMs: 10_000,
        ...withSet,
      });
      return new (class extends DelegatingPort {
        override async close() {
          tokens.close();
          await port.close();
        }
      })(port);
    }
  }
}

/**
 * A read port that hands every call to another. Every read goes through `read`, named after
 * the port method: tests override it to count, delay or break reads.
 */
export class DelegatingPort implements ReadPort {
  constructor(protected readonly inner: ReadPort) {}
  protected read<T>(_method: keyof ReadPort, run: () => Promise<T>): Promise<T> {
    return run();
  }
  get generation(): string {
    return this.inner.generation;
  }
  get sync() {
    return this.inner.sync;
  }
  ping() {
    return this.read('ping', () => this.inner.ping());
  }
  close() {
    return this.inner.close();
  }
  publishedSync() {
    return this.read('publishedSync', () => this.inner.publishedSync());
  }
  tokenOwner(tokenHash: string) {
    return this.read('tokenOwner', () => this.inner.tokenOwner(tokenHash));
  }
  profile(userId: string) {
    return this.read('profile', () => this.inner.profile(userId));
  }
  accounts(userId: string) {
    return this.read('accounts', () => this.inner.accounts(userId));
  }
  transactions(userId: string, filters: TransactionFilters, page: PageWindow) {
    return this.read('transactions', () => this.inner.transactions(userId, filters, page));
  }
  transactionCount(userId: string, filters: TransactionFilters) {
    return this.read('transactionCount', () => this.inner.transactionCount(userId, filters));
  }
  /** A stream's reads are not counted or broken: its first chunk is read like any query. */
  transactionChunks(userId: string, filters: TransactionFilters) {
    return this.inner.transactionChunks(userId, filters);
  }
  transaction(userId: string, id: string) {
    return this.read('transaction', () => this.inner.transaction(userId, id));
  }
  transactionsById(userId: string, after: string | null, limit: number) {
    return this.read('transactionsById', () => this.inner.transactionsById(userId, after, limit));
  }
  transactionChanges(userId: string, range: ChangeRange) {
    return this.read('transactionChanges', () => this.inner.transactionChanges(userId, range));
  }
  userChanges(userIds: readonly string[], from: number, to: number) {
    return this.read('userChanges', () => this.inner.userChanges(userIds, from, to));
  }
  links(userId: string, page: PageWindow) {
    return this.read('links', () => this.inner.links(userId, page));
  }
  latestBalances(userId: string) {
    return this.read('latestBalances', () => this.inner.latestBalances(userId));
  }
  balanceHistory(userId: string, days: readonly string[]) {
    return this.read('balanceHistory', () => this.inner.balanceHistory(userId, days));
  }
  payStatements(userId: string, window: Window) {
    return this.read('payStatements', () => this.inner.payStatements(userId, window));
  }
  monthlyIncome(userId: string, window: Window) {
    return this.read('monthlyIncome', () => this.inner.monthlyIncome(userId, window));
  }
  liabilities(userId: string) {
    return this.read('liabilities', () => this.inner.liabilities(userId));
  }
  spendingAggregates(query: SpendingQuery) {
    return this.read('spendingAggregates', () => this.inner.spendingAggregates(query));
  }
  recurringKeyDays(scope: RecurringScope) {
    return this.read('recurringKeyDays', () => this.inner.recurringKeyDays(scope));
  }
  recurringRows(scope: RecurringScope, texts: StreamTexts) {
    return this.read('recurringRows', () => this.inner.recurringRows(scope, texts));
  }
}

/** A read port for apps whose tests never reach the store: every read fails. */
export function unusedPort(): ReadPort {
  return new (class extends DelegatingPort {
    override get generation() {
      return 'unused';
    }
    protected override read<T>(method: string): Promise<T> {
      return Promise.reject(new Error(`the store was not expected to be read (${method})`));
    }
    override async close() {}
  })(undefined as unknown as ReadPort);
}

/**
 * Publishes the same data again as a new generation at `databasePath`, the way build-db
 * publishes (a copy renamed over the file): what a server following the store must pick up.
 */
export async function publishNewGeneration(databasePath: string): Promise<void> {
  const copy = `${databasePath}.republish.tmp`;
  await copyFile(databasePath, copy);
  const instance = await DuckDBInstance.create(copy);
  const conn = await instance.connect();
  try {
    await conn.run('UPDATE store_meta SET generation = $1', [newGeneration()]);
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  await rename(copy, databasePath);
}
