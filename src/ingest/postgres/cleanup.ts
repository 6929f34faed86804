/**
 * What a killed load left behind, cleared by the next load before it starts: a full load's
 * schemas, a change set's unpublished rows on the shards.
 */
import type pg from 'pg';
import { CHANGE_LOG_TABLE, CHANGED_TABLES_TABLE } from '../../contract/tables.ts';
import type { ShardServer } from '../../engines/postgres/topology.ts';
import { connect, runAll } from './client.ts';
import { BUCKETS, shardOfBucket, VERSIONED_TABLES } from './schema.ts';

/**
 * What a killed load left: schemas no generation names (a full load's), and the rows of a change
 * set written to the shards but never published (public.loading names it).
 */
export async function clearAbandonedLoads(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const kept = new Set<string>();
  const { rows } = await coordinator.query<{ schema_name: string; data_schema: string | null }>(
    'SELECT schema_name, data_schema FROM public.generations',
  );
  for (const row of rows) {
    kept.add(row.schema_name);
    if (row.data_schema) kept.add(row.data_schema);
  }
  const orphans = async (client: pg.ClientBase) =>
    (
      await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname ~ '^[gd]_[0-9a-f]{16}$'`,
      )
    ).rows
      .map((row) => row.nspname)
      .filter((name) => !kept.has(name));
  for (const schema of await orphans(coordinator)) {
    progress(`dropping ${schema}, left by a load that did not finish`);
    await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  await Promise.all(
    shards.map(async (shard) => {
      const client = await connect(shard);
      try {
        for (const schema of await orphans(client)) {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        }
      } finally {
        await client.end();
      }
    }),
  );
  const { rows: loading } = await coordinator.query<{ data_schema: string; seq: number }>(
    'SELECT data_schema, seq FROM public.loading',
  );
  const abandoned = loading[0];
  if (!abandoned) return;
  if (kept.has(abandoned.data_schema)) {
    progress(`clearing change set ${abandoned.seq}, written by a load that did not finish`);
    await Promise.all(
      shards.map(async (shard, index) => {
        const client = await connect(shard);
        try {
          await runAll(client, [
            'BEGIN',
            ...unpublishedRowsSql(abandoned.data_schema, index + 1, shards.length, abandoned.seq),
            'COMMIT',
          ]);
        } finally {
          await client.end();
        }
      }),
    );
  }
  await coordinator.query('DELETE FROM public.loading');
}

/** Removes the rows change set `seq` wrote on one shard, and reopens those it closed. */
export function unpublishedRowsSql(
  dataSchema: string,
  shard: number,
  shards: number,
  seq: number,
): string[] {
  const statements: string[] = [];
  for (let bucket = 0; bucket < BUCKETS; bucket++) {
    if (shardOfBucket(bucket, shards) !== shard) continue;
    for (const table of VERSIONED_TABLES) {
      const name = `${dataSchema}.${table}_p${bucket}`;
      statements.push(
        `DELETE FROM ${name} WHERE gen_from >= ${seq}`,
        `UPDATE ${name} SET gen_to = NULL WHERE gen_to >= ${seq}`,
      );
    }
    for (const table of [CHANGE_LOG_TABLE, CHANGED_TABLES_TABLE]) {
      statements.push(`DELETE FROM ${dataSchema}.${table}_p${bucket} WHERE seq >= ${seq}`);
    }
  }
  return statements;
}
