/** Dropping the generations no request reads any more, and the lineages they leave unused. */
import type pg from 'pg';
import type { ShardServer } from '../../engines/postgres/topology.ts';
import { dropSchemaEverywhere } from './client.ts';

/** Generations kept: the current one and the one before (requests still running on it). */
export const KEPT_GENERATIONS = 2;

/**
 * Drops the generations older than the kept ones (their views), then the data schemas no kept
 * generation reads (a former lineage's), everywhere.
 */
export async function dropOldGenerations(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  progress: (line: string) => void,
): Promise<void> {
  const { rows } = await coordinator.query<{ schema_name: string; data_schema: string | null }>(
    `SELECT schema_name, data_schema FROM public.generations
     ORDER BY published_at DESC, schema_name OFFSET $1`,
    [KEPT_GENERATIONS],
  );
  for (const { schema_name: schema, data_schema: dataSchema } of rows) {
    progress(`dropping generation schema ${schema}`);
    // A generation loaded before lineages held its rows in its own schema, on every server.
    if (dataSchema === null) await dropSchemaEverywhere(coordinator, shards, schema);
    else await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await coordinator.query('DELETE FROM public.generations WHERE schema_name = $1', [schema]);
  }
  const { rows: unused } = await coordinator.query<{ data_schema: string }>(
    `SELECT DISTINCT data_schema FROM public.change_sets
     WHERE data_schema NOT IN (SELECT data_schema FROM public.generations WHERE data_schema IS NOT NULL)
     UNION
     SELECT nspname FROM pg_namespace WHERE nspname ~ '^d_[0-9a-f]{16}$'
       AND nspname NOT IN (SELECT data_schema FROM public.generations WHERE data_schema IS NOT NULL)`,
  );
  for (const { data_schema: dataSchema } of unused) {
    progress(`dropping lineage schema ${dataSchema}`);
    await dropSchemaEverywhere(coordinator, shards, dataSchema);
    await coordinator.query('DELETE FROM public.change_sets WHERE data_schema = $1', [dataSchema]);
  }
}
