/** Store fixtures for tests: build stores from CSV, the committed demo set, tokens. */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildStore } from '../../src/build/build.ts';
import { csvField } from '../../src/demo-data/csv-writer.ts';
import { DEMO_DIR } from '../../src/demo-data/demo.ts';
import type { Store } from '../../src/port/store.ts';
import { mintToken } from '../../src/tokens/store.ts';

export type FixtureValue = string | number | boolean | null;
export type FixtureRow = Record<string, FixtureValue>;

// One scratch folder per test process, removed when it exits.
let scratchRoot: string | undefined;

/** A fresh empty directory, removed when the test process exits. */
export function makeTempDir(prefix = 'dir'): string {
  if (!scratchRoot) {
    const root = mkdtempSync(join(tmpdir(), 'finance-test-'));
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

/** A store that hands every call to another: tests override what they count or break. */
export class DelegatingStore implements Store {
  constructor(protected readonly inner: Store) {}
  get generation(): string {
    return this.inner.generation;
  }
  query: Store['query'] = (sql, params) => this.inner.query(sql, params);
  ping(): Promise<void> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
