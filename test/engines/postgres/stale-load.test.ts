/**
 * A cluster load killed mid-way leaves its generation schema on the coordinator and
 * on every shard; the next load drops those (never a published generation) before its own.
 */
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { newGeneration } from '../../../src/contract/store-format.ts';
import { createTestDatabase, loadStoreFile } from '../../helpers/postgres.ts';
import { buildDemoStore } from '../../helpers/store.ts';

async function schemas(url: string | URL): Promise<string[]> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'g\\_%' ORDER BY nspname`,
    );
    return rows.map((row) => row.nspname);
  } finally {
    await client.end();
  }
}

async function run(url: string | URL, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('a killed load’s leftovers', () => {
  it('are dropped on the coordinator and every shard by the next load; published generations stay', async () => {
    const coordinator = await createTestDatabase();
    const store = await buildDemoStore();
    const first = await loadStoreFile(coordinator, store);
    const database = new URL(coordinator).pathname;
    const shardUrls = inject('postgresCluster').shardUrls.map((url) => {
      const shard = new URL(url);
      shard.pathname = database;
      return shard;
    });
    // What a load killed after creating its schema everywhere leaves behind.
    const orphan = `g_${newGeneration()}`;
    for (const url of [coordinator, ...shardUrls]) {
      await run(url, `CREATE SCHEMA ${orphan}; CREATE TABLE ${orphan}.users (id text)`);
      await run(url, 'CREATE SCHEMA g_not_a_generation');
    }
    const second = await loadStoreFile(coordinator, store);
    for (const url of [coordinator, ...shardUrls]) {
      const left = await schemas(url);
      expect(left).not.toContain(orphan);
      // Not named like a generation schema: not ours to drop.
      expect(left).toContain('g_not_a_generation');
    }
    const onCoordinator = await schemas(coordinator);
    expect(onCoordinator).toContain(`g_${first}`);
    expect(onCoordinator).toContain(`g_${second}`);
  }, 120_000);
});
