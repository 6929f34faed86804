/**
 * The cluster's shape as the coordinator records it: one `postgres_fdw` server per shard,
 * named `shard_<k>` (k from 1), with a user mapping for the account that loads and reads.
 * The loader finds the shards here; the operator of a production cluster creates the same
 * servers (docs/scale-out.md, "What operators configure").
 */
import type pg from 'pg';

const SHARD_SERVER_PREFIX = 'shard_';

/**
 * A one-row view on each shard, seen on the coordinator as `public.shard_probe_<k>`: reading it
 * tells whether shard k answers (readiness names the shard that does not).
 */
export const SHARD_PROBE_PREFIX = 'shard_probe_';
export const SHARD_PROBE_DDL = 'CREATE OR REPLACE VIEW public.shard_probe AS SELECT 1 AS ok';
export const coordinatorProbeDdl = (shard: number) =>
  `CREATE FOREIGN TABLE IF NOT EXISTS public.${SHARD_PROBE_PREFIX}${shard} (ok integer)
   SERVER ${SHARD_SERVER_PREFIX}${shard} OPTIONS (schema_name 'public', table_name 'shard_probe')`;

/** Seconds a coordinator waits to reach a shard before the query fails (a down shard: 503). */
const SHARD_CONNECT_TIMEOUT_SECONDS = '2';

/**
 * Options that keep a user's query on its shard: fetch and insert in large batches, and a
 * foreign row costed high enough that PostgreSQL 15 also pushes aggregates down.
 */
const SERVER_OPTIONS = {
  fetch_size: '10000',
  batch_size: '1000',
  fdw_tuple_cost: '0.2',
  connect_timeout: SHARD_CONNECT_TIMEOUT_SECONDS,
};

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const identifier = (value: string) => `"${value.replaceAll('"', '""')}"`;

export interface ShardServer {
  /** `shard_<k>`. */
  name: string;
  /** How to reach it directly (DDL and bulk loads go straight to the shard). */
  url: URL;
}

/**
 * Registers (or updates) `shard_1..N` on the coordinator; idempotent. One transaction: queries
 * running meanwhile (a cluster restarted under load) see the servers and user mappings before
 * or after, never a mapping dropped and not yet created again (`user mapping not found`).
 */
export async function configureShardServers(
  coordinator: pg.ClientBase,
  shards: readonly URL[],
): Promise<void> {
  await coordinator.query('BEGIN');
  try {
    await registerShardServers(coordinator, shards);
    await coordinator.query('COMMIT');
  } catch (error) {
    await coordinator.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function registerShardServers(
  coordinator: pg.ClientBase,
  shards: readonly URL[],
): Promise<void> {
  await coordinator.query('CREATE EXTENSION IF NOT EXISTS postgres_fdw');
  for (const [index, url] of shards.entries()) {
    const name = identifier(`${SHARD_SERVER_PREFIX}${index + 1}`);
    const options: Record<string, string> = {
      host: url.hostname,
      port: url.port || '5432',
      dbname: decodeURIComponent(url.pathname.slice(1)) || 'postgres',
      ...SERVER_OPTIONS,
    };
    const { rowCount } = await coordinator.query(
      'SELECT 1 FROM pg_foreign_server WHERE srvname = $1',
      [`${SHARD_SERVER_PREFIX}${index + 1}`],
    );
    if (rowCount === 0) {
      const list = Object.entries(options).map(([key, value]) => `${key} ${literal(value)}`);
      await coordinator.query(
        `CREATE SERVER ${name} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (${list.join(', ')})`,
      );
    } else {
      const list = Object.entries(options).map(([key, value]) => `SET ${key} ${literal(value)}`);
      await coordinator.query(`ALTER SERVER ${name} OPTIONS (${list.join(', ')})`);
    }
    const user = decodeURIComponent(url.username) || 'postgres';
    const password = decodeURIComponent(url.password);
    await coordinator.query(`DROP USER MAPPING IF EXISTS FOR CURRENT_USER SERVER ${name}`);
    await coordinator.query(
      `CREATE USER MAPPING FOR CURRENT_USER SERVER ${name} OPTIONS (user ${literal(user)}${
        password ? `, password ${literal(password)}` : ''
      })`,
    );
  }
}

/** The shards the coordinator knows, by number, with how to reach each directly. */
export async function shardServers(coordinator: pg.ClientBase): Promise<ShardServer[]> {
  const { rows } = await coordinator.query<{
    name: string;
    server_options: string[] | null;
    user_options: string[] | null;
  }>(
    `SELECT s.srvname AS name, s.srvoptions AS server_options, m.umoptions AS user_options
     FROM pg_foreign_server s
     LEFT JOIN pg_user_mappings m ON m.srvid = s.oid AND m.usename = current_user
     WHERE s.srvname LIKE '${SHARD_SERVER_PREFIX}%'`,
  );
  const optionsOf = (list: string[] | null) =>
    new Map(
      (list ?? []).map((entry) => {
        const at = entry.indexOf('=');
        return [entry.slice(0, at), entry.slice(at + 1)] as const;
      }),
    );
  return rows
    .map((row) => {
      const server = optionsOf(row.server_options);
      const user = optionsOf(row.user_options);
      const url = new URL('postgres://localhost');
      url.hostname = server.get('host') ?? 'localhost';
      url.port = server.get('port') ?? '5432';
      url.pathname = `/${encodeURIComponent(server.get('dbname') ?? 'postgres')}`;
      url.username = encodeURIComponent(user.get('user') ?? 'postgres');
      if (user.get('password')) url.password = encodeURIComponent(user.get('password') as string);
      return { name: row.name, url };
    })
    .filter((shard) => /^\d+$/.test(shard.name.slice(SHARD_SERVER_PREFIX.length)))
    .sort(
      (a, b) =>
        Number(a.name.slice(SHARD_SERVER_PREFIX.length)) -
        Number(b.name.slice(SHARD_SERVER_PREFIX.length)),
    );
}
