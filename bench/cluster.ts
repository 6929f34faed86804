/**
 * The PostgreSQL side of the benchmark: a local sharded cluster (a coordinator and two
 * shards, from the pinned binaries) kept under bench/cache/cluster, with one database per
 * bench store, loaded from the same built DuckDB store file as the DuckDB side (same rows,
 * same tokens). A store already loaded (same file, same size and time) is reused.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { newGeneration } from '../src/contract/store-format.ts';
import { configureShardServers } from '../src/engines/postgres/topology.ts';
import { loadGeneration } from '../src/ingest/postgres/load.ts';
import { tokensPathFor } from '../src/tokens/path.ts';
import { loadTokens } from '../src/tokens/token-file.ts';
import { type ClusterInfo, startCluster, stopCluster } from '../tools/cluster/cluster.ts';
import { type BenchStore, CACHE_DIR, codeHash } from './stores.ts';

const CLUSTER_DIR = join(CACHE_DIR, 'cluster');
/** The coordinator's port unless --cluster-port says otherwise; the shards take the next ones. */
export const CLUSTER_PORT = 54_400;

export function startBenchCluster(
  progress: (line: string) => void,
  port = CLUSTER_PORT,
): Promise<ClusterInfo> {
  return startCluster({
    dir: CLUSTER_DIR,
    shards: 2,
    port,
    fast: true,
    onProgress: progress,
  });
}

export function stopBenchCluster(): Promise<void> {
  return stopCluster(CLUSTER_DIR);
}

const withDatabase = (url: string, database: string) => {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
};

async function run<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database of this name on the coordinator and on each shard (created when missing), its shard servers configured; its URL. */
export async function clusterDatabase(cluster: ClusterInfo, database: string): Promise<string> {
  for (const url of [cluster.databaseUrl, ...cluster.shardUrls]) {
    await run(url, async (client) => {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        database,
      ]);
      if (rowCount === 0) await client.query(`CREATE DATABASE ${database}`);
    });
  }
  const databaseUrl = withDatabase(cluster.databaseUrl, database);
  await run(databaseUrl, (client) =>
    configureShardServers(
      client,
      cluster.shardUrls.map((url) => new URL(withDatabase(url, database))),
    ),
  );
  return databaseUrl;
}

/** The store's database on the cluster (created and loaded when missing or stale); its URL. */
export async function ensureClusterStore(
  cluster: ClusterInfo,
  store: BenchStore,
  progress: (line: string) => void,
): Promise<string> {
  const database = `bench_${store.spec.label.toLowerCase().replace(/[^0-9a-z]/g, '_')}`;
  const databaseUrl = await clusterDatabase(cluster, database);
  const file = await stat(store.databasePath);
  // The store file and the code that lays it out on the cluster: either changing reloads it.
  const layout = await codeHash(['src/ingest/postgres', 'src/contract']);
  const source = `${store.databasePath}@${file.size}:${file.mtimeMs}#${layout}`;
  const loaded = await run(databaseUrl, async (client) => {
    const meta = await client
      .query<{ source: string }>('SELECT source FROM public.store_meta')
      .catch(() => ({ rows: [] as { source: string }[] }));
    return meta.rows[0]?.source;
  });
  if (loaded === source) {
    progress(`[${store.spec.label}] reusing cluster database ${database}`);
    return databaseUrl;
  }
  progress(`[${store.spec.label}] loading ${store.databasePath} into cluster database ${database}`);
  await mkdir(join(CACHE_DIR, 'cluster-scratch'), { recursive: true });
  await loadGeneration({
    duckdbPath: store.databasePath,
    databaseUrl,
    generation: newGeneration(),
    source,
    scratchDir: join(CACHE_DIR, 'cluster-scratch'),
    tokens: await loadTokens(tokensPathFor(store.databasePath)),
    onProgress: (line) => progress(`  load: ${line}`),
  });
  return databaseUrl;
}
