/**
 * Connections to the cluster's servers, and statements run on them. A server that goes away in
 * the middle of a load (stopped, crashed, cut off) or cannot be connected to is reported naming
 * it, `shard 2 (10.0.0.7:5432) went away: Connection terminated unexpectedly`, as a
 * ServerLostError.
 */
import { Buffer } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ShardServer } from '../../engines/postgres/topology.ts';
import { shardOfBucket } from './schema.ts';

/** A server a load connects to: the coordinator (`coordinator`) or a shard (`shard_<k>`). */
export interface ClusterServer {
  name: string;
  url: string | URL;
}

/** How messages name a server: `the coordinator (host:port)`, `shard 2 (host:port)`. */
export function serverLabel(server: ClusterServer): string {
  const url = new URL(server.url);
  const name =
    server.name === 'coordinator' ? 'the coordinator' : server.name.replace(/^shard_/, 'shard ');
  return `${name} (${url.hostname}:${url.port || '5432'})`;
}

/** A server of the cluster went away during a load (`reached`), or could not be connected to. */
export class ServerLostError extends Error {
  override readonly name = 'ServerLostError';
  constructor(
    readonly server: string,
    cause: unknown,
    reached = true,
    reason = cause instanceof Error ? cause.message : String(cause),
  ) {
    super(
      reached ? `${server} went away: ${reason}` : `could not connect to ${server}: ${reason}`,
      {
        cause,
      },
    );
  }
}

const SOCKET_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether a statement's error means the connection to its server is gone. */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: string; severity?: string };
  // The server's own error: only FATAL and PANIC end the session (a shutdown, a crash).
  if (severity !== undefined) return severity === 'FATAL' || severity === 'PANIC';
  return (
    SOCKET_ERRORS.has(code ?? '') || /^Connection terminated|is not queryable/.test(error.message)
  );
}

/**
 * Connects to a server of the cluster. Every statement run on the client that fails because
 * the connection is gone rejects with a ServerLostError naming the server; other errors are
 * the server's own.
 */
export async function connect(server: ClusterServer): Promise<pg.Client> {
  const label = serverLabel(server);
  const client = new pg.Client({
    connectionString: server.url.toString(),
    application_name: 'build-db',
  });
  let lost: Error | undefined;
  // A server going away emits 'error' on its clients, between statements too; unheard, that
  // event ends the process with a stack. The statement that fails says which server it was,
  // and why the connection ended (not pg's 'not queryable' of a statement after).
  client.on('error', (error) => {
    lost ??= error;
  });
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (error: unknown) =>
    lost || isConnectionLoss(error) ? new ServerLostError(label, lost ?? error) : error;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    const result = query(...args);
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw named(error);
        })
      : result;
  };
  serverErrors.set(client, named);
  try {
    await client.connect();
  } catch (error) {
    throw new ServerLostError(label, error, false);
  }
  return client;
}

/**
 * A coordinator's error about a shard its postgres_fdw could not reach or lost, as a
 * ServerLostError naming that shard: by its server's name (`could not connect to server
 * "shard_2"`), or by the bucket table of the remote command that failed (the connection lost
 * mid-query names no server). Other errors as they are.
 */
export function reachedThroughCoordinator(error: unknown, shards: readonly ShardServer[]): unknown {
  if (!(error instanceof Error)) return error;
  const { code, detail, where } = error as { code?: string; detail?: string; where?: string };
  if (!code?.startsWith('08')) return error;
  const named = /server "(shard_\d+)"/.exec(error.message)?.[1];
  const bucket = /remote SQL command: .*?_p(\d+)\b/.exec(where ?? '')?.[1];
  const name =
    named ??
    (bucket === undefined ? undefined : `shard_${shardOfBucket(Number(bucket), shards.length)}`);
  const shard = shards.find((candidate) => candidate.name === name);
  if (!shard) return error;
  const firstLine = (text: string) => text.split('\n', 1)[0] ?? text;
  const reached = !/could not connect/.test(error.message);
  return new ServerLostError(
    serverLabel(shard),
    error,
    reached,
    firstLine(!reached && detail ? detail : error.message),
  );
}

/** Connects to every shard; when one cannot be reached, closes the others' connections. */
export async function connectAll(shards: readonly ShardServer[]): Promise<pg.Client[]> {
  const connected = await Promise.allSettled(shards.map((shard) => connect(shard)));
  const clients = connected.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const failed = connected.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    throw failed.reason;
  }
  return clients;
}

/** Per client from connect: its errors in the words of connect (for COPY, not a promise). */
const serverErrors = new WeakMap<pg.Client, (error: unknown) => unknown>();

/** Copies a CSV file into `target (columns)` on the client; returns the rows copied. */
export async function copyCsv(
  client: pg.Client,
  target: string,
  columns: readonly string[],
  file: string,
): Promise<number> {
  const copy = client.query(
    copyFrom(`COPY ${target} (${columns.join(', ')}) FROM STDIN (FORMAT csv)`),
  );
  try {
    await pipeline(createReadStream(file), copy);
  } catch (error) {
    throw serverErrors.get(client)?.(error) ?? error;
  }
  return Number(copy.rowCount ?? 0);
}

/** A binary COPY's header (its signature, no flags, no extension) and trailer. */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/**
 * Copies rows in PostgreSQL's binary COPY format into `target (columns)`: `tuples` holds them
 * encoded, without the header and trailer. Returns the rows copied.
 */
export async function copyBinary(
  client: pg.Client,
  target: string,
  columns: readonly string[],
  tuples: readonly Uint8Array[],
): Promise<number> {
  const copy = client.query(
    copyFrom(`COPY ${target} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`),
  );
  try {
    await pipeline(Readable.from([BINARY_HEADER, ...tuples, BINARY_TRAILER]), copy);
  } catch (error) {
    throw serverErrors.get(client)?.(error) ?? error;
  }
  return Number(copy.rowCount ?? 0);
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
      const client = await connect(shard);
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    }),
  );
}
