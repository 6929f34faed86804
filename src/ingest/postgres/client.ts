/** Connections to the cluster's servers, and statements run on them. */
import pg from 'pg';
import type { ShardServer } from '../../engines/postgres/topology.ts';

export async function connect(url: string | URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

export async function runAll(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await client.query(statement);
}

/** Drops a schema on the coordinator and on every shard. */
export async function dropSchemaEverywhere(
  coordinator: pg.ClientBase,
  shards: readonly ShardServer[],
  schema: string,
): Promise<void> {
  await coordinator.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await Promise.all(
    shards.map(async (shard) => {
      const client = await connect(shard.url);
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    }),
  );
}
