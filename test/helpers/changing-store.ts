/**
 * A store that takes change sets, on the engine of this test run, served by an app that
 * follows it: built from CSV rows, then changed with `build-db --changes`'s own code
 * (applyChanges on the DuckDB file; applyPostgresChanges on a database of the test cluster),
 * each change set published as a new generation the app's swappable port reloads.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { openDuckDbPort } from '../../src/engines/duckdb/port.ts';
import { openPostgresPort } from '../../src/engines/postgres/port.ts';
import type { ApplyResult, LogSpan } from '../../src/ingest/changes.ts';
import { applyChanges } from '../../src/ingest/duckdb/apply.ts';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { applyPostgresChanges, buildPostgresStore } from '../../src/ingest/postgres/build.ts';
import { SwappablePort } from '../../src/port/hot-swap.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { FollowedTokens } from '../../src/tokens/followed-tokens.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { testEngine } from './engine.ts';
import { createTestDatabase } from './postgres.ts';
import { type FixtureRow, makeTempDir, mintTestToken, writeCsvFixture } from './store.ts';

export interface ChangeSetFiles {
  /** Rows to upsert, per table. */
  upserts?: Record<string, FixtureRow[]>;
  /** Keys to remove, per table. */
  deletes?: Record<string, FixtureRow[]>;
}

export interface ChangingStore {
  app: FastifyInstance;
  store: SwappablePort;
  /** Where build-db writes (a DuckDB file, or the cluster database's URL). */
  target: string;
  /**
   * Applies a change set and waits until the app serves the new generation; resolves with
   * whether one was published (a change set that changes nothing publishes none).
   */
  apply(files: ChangeSetFiles, keepLog?: LogSpan): Promise<boolean>;
  /** Writes a change set folder (for the CLI). */
  write(files: ChangeSetFiles): Promise<string>;
  /** Bearer headers of a user of the first store. */
  headers(userId: string): Record<string, string>;
  close(): Promise<void>;
}

export async function writeChangeSet(files: ChangeSetFiles): Promise<string> {
  const dir = makeTempDir('changes');
  await writeCsvFixture(dir, files.upserts ?? {});
  await writeCsvFixture(
    dir,
    Object.fromEntries(
      Object.entries(files.deletes ?? {}).map(([table, rows]) => [`${table}.deleted`, rows]),
    ),
  );
  return dir;
}

export async function openChangingStore(
  tables: Record<string, FixtureRow[]>,
  today = '2026-11-20',
): Promise<ChangingStore> {
  const sourceDir = makeTempDir('source');
  await writeCsvFixture(sourceDir, tables);
  // The DuckDB file: the store itself, or (on the cluster) where test tokens are minted.
  const databasePath = join(makeTempDir('store'), 'finance.duckdb');
  await buildStore({ sourceDir, databasePath });
  // Every user's token, minted before any port follows the token store.
  const minted = new Map<string, string>();
  for (const user of tables.users ?? []) {
    const userId = String(user.id);
    minted.set(userId, await mintTestToken(databasePath, userId));
  }
  let open: () => Promise<ReadPort>;
  let applyTo: (changesDir: string, keepLog?: LogSpan) => Promise<ApplyResult>;
  let target = databasePath;
  let tokens: FollowedTokens | undefined;
  if (testEngine() === 'postgres') {
    const databaseUrl = await createTestDatabase();
    target = databaseUrl;
    await buildPostgresStore({ sourceDir, databaseUrl });
    const followed = await FollowedTokens.open(tokensPathFor(databasePath));
    tokens = followed;
    open = () => openPostgresPort(databaseUrl, { tokens: followed, queryTimeoutMs: 20_000 });
    applyTo = (changesDir, keepLog) =>
      applyPostgresChanges({ changesDir, databaseUrl, ...(keepLog ? { keepLog } : {}) });
  } else {
    open = () => openDuckDbPort(databasePath);
    applyTo = (changesDir, keepLog) =>
      applyChanges({ changesDir, databasePath, ...(keepLog ? { keepLog } : {}) });
  }
  const store = new SwappablePort(await open(), { open });
  const app = await buildApp({ store, clock: createClock(today) });
  return {
    app,
    store,
    target,
    write: writeChangeSet,
    async apply(files, keepLog) {
      const result = await applyTo(await writeChangeSet(files), keepLog);
      if (!result.published) return false;
      const outcome = await store.reload('change set applied');
      if (outcome !== 'swapped') throw new Error(`the new generation was not served: ${outcome}`);
      return true;
    },
    headers(userId) {
      const token = minted.get(userId);
      if (!token) throw new Error(`no token for ${userId}: not a user of the first store`);
      return { authorization: `Bearer ${token}` };
    },
    async close() {
      await app.close();
      await store.close();
      tokens?.close();
    },
  };
}
