/**
 * One load at a time per cluster: the load lock, and what a load finds in place once it holds
 * it (the coordinator's tables, the sync key, the shards, nothing a killed load left).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { COORDINATOR_META_DDL } from '../../engines/postgres/meta.ts';
import { type ShardServer, shardServers } from '../../engines/postgres/topology.ts';
import { clearAbandonedLoads } from './cleanup.ts';
import { connect, reachedThroughCoordinator, runAll } from './client.ts';

/** One loader at a time per cluster. */
const LOAD_LOCK_KEY = 727_001;

/**
 * Runs one load: holding the cluster's load lock, with the coordinator's tables up to date, the
 * sync key in place, the shards known, and what a killed load left behind cleared first.
 */
export async function withClusterLoad<T>(
  databaseUrl: string,
  work: (
    coordinator: pg.Client,
    shards: ShardServer[],
    progress: (line: string) => void,
  ) => Promise<T>,
  onProgress?: (line: string) => void,
): Promise<T> {
  const progress = onProgress ?? (() => {});
  const coordinator = await connect({ name: 'coordinator', url: databaseUrl });
  try {
    await coordinator.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK_KEY]);
    await runAll(coordinator, COORDINATOR_META_DDL);
    await coordinator.query(
      'INSERT INTO public.sync_key (key) VALUES ($1) ON CONFLICT (singleton) DO NOTHING',
      [randomBytes(32).toString('base64url')],
    );
    const shards = await shardServers(coordinator);
    if (shards.length === 0) {
      throw new Error(
        'the coordinator knows no shard servers (postgres_fdw servers shard_1..shard_N): see README, "Scale-out"',
      );
    }
    await clearAbandonedLoads(coordinator, shards, progress);
    return await work(coordinator, shards, progress).catch((error: unknown) => {
      throw reachedThroughCoordinator(error, shards);
    });
  } finally {
    await coordinator.end();
  }
}
