/**
 * Loading a built store into the sharded cluster as a new lineage and generation, and
 * publishing it.
 *
 * build-db validates and derives exactly as for DuckDB (into a scratch DuckDB file); this
 * module copies that file's tables into a fresh data schema `d_<lineage>` on the coordinator
 * and the shards (each bucket's rows straight into its shard: copy.ts), indexes the shards and
 * derives the spending rollup there, analyzes both sides, creates the generation's views
 * (`g_<generation>`, schema.ts), then names them in `public.store_meta` in one transaction
 * (publish.ts): a reader sees the old generation or the new, never a mix. A failed load drops
 * its schemas and leaves the current generation serving; one that was killed is cleared by the
 * next load (cleanup.ts). The generation before the current one is kept, so requests already
 * running on it finish; older ones are dropped, and a lineage's data with the last of its
 * generations (old-generations.ts). Change sets add generations to a lineage (changes.ts).
 */
import type pg from 'pg';
import { LEDGERS_TABLE } from '../../contract/ledger.ts';
import {
  coordinatorProbeDdl,
  SHARD_PROBE_DDL,
  type ShardServer,
} from '../../engines/postgres/topology.ts';
import type { StoredToken } from '../../tokens/store.ts';
import { connectAll, dropSchemaEverywhere, runAll } from './client.ts';
import { copyRows } from './copy.ts';
import { withClusterLoad } from './lock.ts';
import { dropOldGenerations } from './old-generations.ts';
import {
  afterPublication,
  clusterState,
  PublishUnknownError,
  publish,
  unpublished,
} from './publish.ts';
import {
  coordinatorDdl,
  dataSchemaName,
  generationViewsDdl,
  type ShardedTable,
  schemaName,
  shardDdl,
  shardIndexDdl,
  type TextCollation,
  VERSIONED_TABLES,
} from './schema.ts';

export interface LoadOptions {
  /** A store built by build-db (validated, with derived columns). */
  duckdbPath: string;
  databaseUrl: string;
  generation: string;
  /** Where the store came from (store_meta.source). */
  source: string;
  /** A scratch folder for the per-table files. */
  scratchDir: string;
  /** Tokens to add to the coordinator's token table (existing tokens are kept). */
  tokens?: readonly StoredToken[];
  onProgress?: (line: string) => void;
}

/**
 * Loads the built store as a new lineage and publishes it; returns the row counts. A failure
 * before the publication says that nothing was published (publish.ts, unpublished).
 */
export async function loadGeneration(options: LoadOptions): Promise<Record<ShardedTable, number>> {
  let serving: string | null | undefined;
  return withClusterLoad(
    options.databaseUrl,
    async (coordinator, shards, progress) => {
      serving = (await clusterState(coordinator))?.generation ?? null;
      const dataSchema = dataSchemaName(options.generation);
      const schema = schemaName(options.generation);
      let counts: Record<ShardedTable, number>;
      try {
        counts = await loadSchema(coordinator, shards, dataSchema, options, progress);
        await runAll(coordinator, generationViewsDdl(schema, dataSchema, 0));
        await publish(coordinator, {
          generation: options.generation,
          schema,
          lineage: options.generation,
          dataSchema,
          seq: 0,
          logFloor: 0,
          source: options.source,
          shards: shards.length,
          tokens: options.tokens ?? [],
          revokedTokens: [],
        });
      } catch (error) {
        // Perhaps published: its schemas stay (the next load drops them if they were not).
        if (error instanceof PublishUnknownError) throw error;
        await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        await dropSchemaEverywhere(coordinator, shards, dataSchema).catch(() => {});
        throw error;
      }
      progress(`published generation ${options.generation} (schema ${schema})`);
      await dropOldGenerations(coordinator, shards, progress).catch((error: unknown) =>
        progress(afterPublication(options.generation, error)),
      );
      return counts;
    },
    options.onProgress,
  ).catch((error: unknown) => {
    throw unpublished(error, serving);
  });
}

async function loadSchema(
  coordinator: pg.Client,
  shards: readonly ShardServer[],
  schema: string,
  options: LoadOptions,
  progress: (line: string) => void,
): Promise<Record<ShardedTable, number>> {
  const shardClients = await connectAll(shards);
  try {
    const collation = await textCollation([coordinator, ...shardClients]);
    await Promise.all(
      shardClients.map((client, index) =>
        runAll(client, [SHARD_PROBE_DDL, ...shardDdl(schema, index + 1, shards.length, collation)]),
      ),
    );
    await runAll(coordinator, [
      ...shards.map((_, index) => coordinatorProbeDdl(index + 1)),
      ...coordinatorDdl(schema, shards.length, collation),
    ]);
    const counts = await copyRows(coordinator, shardClients, schema, options, progress);
    progress('indexing, summing per day and analyzing on the shards');
    await Promise.all(
      shardClients.map((client, index) =>
        runAll(client, shardIndexDdl(schema, index + 1, shards.length)),
      ),
    );
    // Statistics on the coordinator too (a sample of each bucket, read from its shard): with
    // the default guesses the planner may sum a user's rows on the coordinator instead. Not of
    // the ledgers: one point read by user, and a sample would bring their bytes over.
    progress('analyzing on the coordinator');
    await runAll(
      coordinator,
      VERSIONED_TABLES.filter((table) => table !== LEDGERS_TABLE).map(
        (table) => `ANALYZE ${schema}.${table}`,
      ),
    );
    return counts;
  } finally {
    await Promise.all(shardClients.map((client) => client.end()));
  }
}

/** pg_c_utf8 when every server has it (PostgreSQL 17+), else "C" (see schema.ts). */
export async function textCollation(clients: readonly pg.ClientBase[]): Promise<TextCollation> {
  const found = await Promise.all(
    clients.map((client) =>
      client
        .query(`SELECT 1 FROM pg_collation WHERE collname = 'pg_c_utf8'`)
        .then(({ rowCount }) => rowCount === 1),
    ),
  );
  return found.every(Boolean) ? 'pg_c_utf8' : 'C';
}
