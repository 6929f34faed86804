/**
 * A server reads only stores of its own format: a store whose metadata records no format
 * version, another one, or other investment-platform rules is refused with the advice to
 * rebuild it, on every engine; the store already serving keeps serving when such a store is
 * published after it.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_FORMAT_VERSION } from '../../src/contract/store-format.ts';
import { openDuckDbPort } from '../../src/engines/duckdb/port.ts';
import { openPostgresPort } from '../../src/engines/postgres/port.ts';
import { SwappablePort } from '../../src/port/hot-swap.ts';
import { type ReadPort, StoreFormatError } from '../../src/port/read-port.ts';
import { testEngine } from '../helpers/engine.ts';
import { createTestDatabase, loadStoreFile } from '../helpers/postgres.ts';
import { demoStoreCopy } from '../helpers/server.ts';

/** How a test makes the metadata row of an otherwise good store say something else. */
type MetaChange = string;

const CHANGES: Record<string, MetaChange> = {
  'no format version (built before formats were recorded)': 'format_version = NULL',
  'an older format version': `format_version = ${STORE_FORMAT_VERSION - 1}`,
  'other platform rules': `platform_rules = 'rules of another build'`,
};

/** A store of this run's engine whose metadata had `change` applied; returns how to open it. */
async function storeWith(change: MetaChange | null): Promise<() => Promise<ReadPort>> {
  const { path: databasePath } = await demoStoreCopy([]);
  if (testEngine() === 'duckdb') {
    if (change) {
      const instance = await DuckDBInstance.create(databasePath);
      const conn = await instance.connect();
      try {
        // The column is NOT NULL in stores built now: an old store's row has none.
        await conn.run('ALTER TABLE store_meta ALTER format_version DROP NOT NULL');
        await conn.run(`UPDATE store_meta SET ${change}`);
      } finally {
        conn.closeSync();
        instance.closeSync();
      }
    }
    return () => openDuckDbPort(databasePath);
  }
  const databaseUrl = await createTestDatabase();
  await loadStoreFile(databaseUrl, databasePath);
  if (change) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`UPDATE public.store_meta SET ${change}`).finally(() => client.end());
  }
  return () => openPostgresPort(databaseUrl);
}

const opened: ReadPort[] = [];
afterAll(async () => {
  await Promise.all(opened.map((port) => port.close()));
});

describe('store formats', () => {
  it('serves a store built by this build-db', async () => {
    const port = await (await storeWith(null))();
    opened.push(port);
    await expect(port.ping()).resolves.toBeUndefined();
  });

  for (const [what, change] of Object.entries(CHANGES)) {
    it(`refuses a store with ${what}, saying to rebuild it`, async () => {
      const open = await storeWith(change);
      const refusal = await open().then(
        (port) => {
          opened.push(port);
          return null;
        },
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(StoreFormatError);
      expect((refusal as Error).message).toMatch(/rebuild it with npm run build-db$/);
    });
  }

  it('keeps serving the current store when the next one is of another format', async () => {
    const current = await (await storeWith(null))();
    const outdated = await storeWith(CHANGES['an older format version'] as MetaChange);
    const refusals: string[] = [];
    const store = new SwappablePort(current, {
      open: outdated,
      log: {
        info: () => {},
        warn: () => {},
        error: (object) => refusals.push(String((object as { error?: unknown }).error)),
      },
    });
    try {
      expect(await store.reload('test')).toBe('refused');
      expect(store.current.generation).toBe(current.generation);
      await expect(store.current.ping()).resolves.toBeUndefined();
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatch(/store format/);
    } finally {
      await store.close();
    }
  });
});
