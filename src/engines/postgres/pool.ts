/**
 * Connections to the coordinator, set for single-shard plans: every statement is planned for
 * its parameters (a generic plan does not prune partitions, so it would query every bucket),
 * aggregates and joins are pushed down per partition, and a statement running past the time
 * limit is cancelled. Values keep their exact text: numeric, bigint, date and timestamp are
 * not turned into JS numbers or Dates.
 */
import type { Buffer } from 'node:buffer';
import pg from 'pg';
import { FairQueue, type ReleaseSlot, type StoreQueuePressure } from '../../port/fair-queue.ts';
import { type QueryOutcome, StoreUnavailableError } from '../../port/read-port.ts';
import type { Row, SqlParam } from '../../sql/statement.ts';
import { binaryCopyTuples, CopyOut } from './binary-copy.ts';

/** For the spending module, which imports it from here. */
export type { SqlParam };

export interface PgPoolOptions {
  /** Connections to the coordinator. */
  poolSize?: number;
  /** A statement running longer is cancelled and fails with StoreUnavailableError (503). */
  queryTimeoutMs?: number;
  /**
   * Statements waiting for a connection at most, queued fairly by client (port/fair-queue.ts):
   * past it the deepest client's newest is refused with StoreUnavailableError; 0: no bound.
   */
  maxQueue?: number;
  /** Where the queue reports refusing work or staying full (admission's shedding). */
  queuePressure?: StoreQueuePressure;
  /** Called after every statement with its duration and outcome (metrics). */
  onQuery?: (seconds: number, outcome: QueryOutcome) => void;
}

const identity = (value: string) => value;
/** OIDs whose text we keep as is: int8, numeric, date, timestamp, timestamptz. */
const TEXT_TYPES = new Set([20, 1700, 1082, 1114, 1184]);
/** date[] as its dates' text: `{2026-01-01,2026-01-02}` (dates are never quoted). */
const DATE_ARRAY = 1182;
const dateList = (value: string) => (value === '{}' ? [] : value.slice(1, -1).split(','));
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid)
      ? identity
      : oid === DATE_ARRAY
        ? dateList
        : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** A SQLSTATE: five digits or capitals. Other codes (ECONNREFUSED, ECONNRESET) are Node's. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The server's own error code (a SQLSTATE), if the error came from a server. */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && SQLSTATE.test(code) ? code : undefined;
}

/**
 * Errors that mean the store (or one shard) cannot answer now: 503, not 500. Everything that
 * is not the server's answer to the statement (no connection, connection lost or refused, a
 * client-side timeout) is one.
 */
function isUnavailable(error: unknown): boolean {
  const code = sqlState(error);
  if (code === undefined) return true; // a socket or client error: no server answered
  return (
    code.startsWith('08') || // connection exception (a shard unreachable through postgres_fdw)
    code.startsWith('57') || // operator intervention: cancelled, shutting down, crashed
    code.startsWith('53') || // insufficient resources
    code === '42P01' || // a dropped generation's table: the next request reads the new one
    code === '3D000' || // no such database
    // A shard's server or its user mapping being registered again (a cluster restarting).
    (code === '42704' && /user mapping not found|server .* does not exist/.test(String(error)))
  );
}

/**
 * Whether the connection can serve another statement: not after an error that was not the
 * server's answer to the statement (the connection may be dead, or a statement still running
 * on it), nor after the server ended or cancelled its session.
 */
const keepsConnection = (error: unknown) => {
  const code = sqlState(error);
  if (code === undefined || code.startsWith('08')) return false;
  return !code.startsWith('57') || code === '57014'; // a statement cancelled: the session lives
};

export class PgPool {
  private readonly pool: pg.Pool;
  /**
   * Who gets the next connection: one slot per connection, so pg.Pool's own (unbounded, first
   * come first served) queue never fills.
   */
  private readonly queue: FairQueue;
  private readonly unwatchQueue: () => void;

  constructor(
    databaseUrl: string,
    private readonly options: PgPoolOptions = {},
  ) {
    const timeout = options.queryTimeoutMs ?? 0;
    const connectTimeout = timeout > 0 ? timeout : 10_000;
    const poolSize = options.poolSize ?? 8;
    // A statement waits for a connection as long as it waited in pg.Pool's queue before.
    this.queue = new FairQueue({
      slots: poolSize,
      maxWaiting: options.maxQueue ?? 0,
      maxWaitMs: connectTimeout,
    });
    this.unwatchQueue = options.queuePressure?.watch(this.queue) ?? (() => {});
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: poolSize,
      types,
      connectionTimeoutMillis: connectTimeout,
      // A backend that never answers (a hung coordinator) still releases the request.
      query_timeout: timeout > 0 ? timeout + 1_000 : undefined,
      application_name: 'finance-data-api',
      options: [
        '-c plan_cache_mode=force_custom_plan',
        '-c enable_partitionwise_aggregate=on',
        '-c enable_partitionwise_join=on',
        '-c default_transaction_read_only=on',
        `-c statement_timeout=${timeout}`,
        '-c TimeZone=UTC',
      ].join(' '),
    });
    // A connection that breaks (the coordinator stopped or restarted) emits 'error': the pool
    // drops an idle one, the statement running on a busy one fails with it (503), and the next
    // statement connects anew. Unheard, the event would end the process.
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  async query<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    const result = await this.run<T>({ text: sql, values: params as unknown[] });
    return result.rows;
  }

  /**
   * The one column of `select`'s row as the bytes the store holds (a bytea), null without a
   * row: read with `COPY (select) TO STDOUT (FORMAT binary)`, so they arrive as bytes, not as
   * hex text nor as text of a value per row (binary-copy.ts). COPY takes no bind parameters:
   * `select` holds its values spelled in, each checked by the caller. The same connections,
   * queue, time limit and errors as every other statement.
   */
  async copyBytes(select: string): Promise<Uint8Array | null> {
    const data = await this.withClient(
      (client) =>
        new Promise<Buffer>((resolve, reject) => {
          client.query(
            new CopyOut(`COPY (${select}) TO STDOUT (FORMAT binary)`, (error, copied) =>
              error ? reject(error) : resolve(copied as Buffer),
            ),
          );
        }),
    );
    const tuples = binaryCopyTuples(data);
    if (tuples.length > 1) throw new Error(`more than one row: ${select}`);
    const [tuple] = tuples;
    if (tuple === undefined) return null;
    if (tuple.length !== 1) throw new Error(`not one column: ${select}`);
    const [value] = tuple;
    // In a buffer of its own: the data's other bytes are not held with it.
    return value ? new Uint8Array(value) : null;
  }

  private run<T>(config: pg.QueryConfig): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    return this.withClient((client) => client.query<T & pg.QueryResultRow>(config));
  }

  /**
   * `work` on a connection of the pool, in turn (the fair queue): its duration and outcome
   * reported, a statement cancelled by the time limit or a store out of reach turned into
   * StoreUnavailableError, and a connection whose statement failed on the wire closed.
   */
  private async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const started = performance.now();
    let turn: ReleaseSlot;
    try {
      turn = await this.queue.acquire();
    } catch (error) {
      this.options.onQuery?.((performance.now() - started) / 1000, 'rejected');
      throw error;
    }
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const result = await work(client);
      client.release();
      this.options.onQuery?.((performance.now() - started) / 1000, 'ok');
      return result;
    } catch (error) {
      // A connection whose statement failed on the wire (a client-side timeout while the
      // coordinator still waits on a stalled shard, a lost connection) is closed, not handed
      // to the next request.
      client?.release(keepsConnection(error) ? undefined : true);
      const timedOut = sqlState(error) === '57014';
      this.options.onQuery?.((performance.now() - started) / 1000, timedOut ? 'timeout' : 'error');
      if (timedOut) {
        throw new StoreUnavailableError(
          `query cancelled after ${this.options.queryTimeoutMs ?? 0} ms`,
          { cause: error },
        );
      }
      if (isUnavailable(error)) {
        const message = error instanceof Error ? error.message : String(error);
        throw new StoreUnavailableError(message.split('\n', 1)[0], { cause: error });
      }
      throw error;
    } finally {
      turn();
    }
  }

  /** Resolves once a connection is free and no statement waits (FairQueue.whenIdle). */
  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  close(): Promise<void> {
    this.queue.close(new StoreUnavailableError('store is closed'));
    this.unwatchQueue();
    return this.pool.end();
  }
}
