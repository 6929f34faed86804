/**
 * The demo store for a real server process, on the engine of this test run: a DuckDB file
 * (DATABASE_PATH) or a database of the test cluster (DATABASE_URL); tokens minted where that
 * server reads them; and new generations of the same data published while it serves (a new
 * file renamed into place, or a new generation loaded into the database).
 */
import { rename } from 'node:fs/promises';
import { mintClusterToken } from '../../src/engines/postgres/tokens.ts';
import { DEMO_DIR } from '../../tools/demo-data/demo.ts';
import { testEngine } from './engine.ts';
import { createTestDatabase, loadStoreFile } from './postgres.ts';
import { demoStoreCopy } from './server.ts';
import { buildDemoStore, buildStoreFromCsv, mintTestToken } from './store.ts';

export interface ServedStore {
  /** The server's settings that name the store. */
  env: Record<string, string>;
  /** A new token of `userId`, seen by a server reading this store. */
  mint(userId: string): Promise<string>;
  /**
   * Readies a new generation of the same data to publish; `publish` then publishes the one
   * readied longest ago (building a DuckDB file takes seconds, so it is done beforehand).
   */
  ready(): Promise<void>;
  publish(): Promise<void>;
}

export async function servedDemoStore(): Promise<ServedStore> {
  if (testEngine() === 'postgres') {
    const databaseUrl = await createTestDatabase();
    const demo = await buildDemoStore();
    await loadStoreFile(databaseUrl, demo);
    return {
      env: { DATABASE_URL: databaseUrl },
      mint: (userId) => mintClusterToken({ databaseUrl, userId }),
      ready: async () => {},
      publish: async () => {
        await loadStoreFile(databaseUrl, demo);
      },
    };
  }
  const { path } = await demoStoreCopy([]);
  const readied: string[] = [];
  return {
    env: { DATABASE_PATH: path },
    mint: (userId) => mintTestToken(path, userId),
    ready: async () => {
      readied.push(await buildStoreFromCsv(DEMO_DIR));
    },
    publish: async () => {
      const next = readied.shift();
      if (!next) throw new Error('no generation readied to publish');
      // As build-db publishes: a complete file renamed over the served one.
      await rename(next, path);
    },
  };
}
