import { type Stats, statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  DuckDBBlobVector,
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  type DuckDBType,
  type DuckDBValue,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import { newSpillFolder, removeSpillFolder } from '../../files/spill-folder.ts';
import { FairQueue, type ReleaseSlot, type StoreQueuePressure } from '../../port/fair-queue.ts';
import {
  type QueryOutcome,
  StoreOverloadedError,
  StoreUnavailableError,
} from '../../port/read-port.ts';
import type { Row, SqlParam } from '../../sql/statement.ts';

/** For the spending module, which imports it from here. */
export type { SqlParam };

export interface DuckDbPoolOptions {
  /** Connections of the one instance; each runs one query at a time, in parallel with the others. */
  poolSize?: number;
  /** DuckDB worker threads per query: 1 serves many small concurrent queries best on 2 cores. */
  threads?: number;
  /** DuckDB's memory limit, in bytes (default 1 GiB). */
  memoryLimit?: number;
  /**
   * Where DuckDB spills past memoryLimit (the store's own folder may be read-only), into a
   * folder of the instance's own (files/spill-folder.ts); default DEFAULT_SPILL_BASE.
   */
  tempDirectory?: string;
  /** Spill space bound, e.g. `1GB`. */
  maxTempSize?: string;
  /** A query running longer is interrupted and fails with StoreUnavailableError (503). */
  queryTimeoutMs?: number;
  /**
   * Queries waiting for a connection at most, queued fairly by client (port/fair-queue.ts):
   * past it the deepest client's newest is refused with StoreUnavailableError; 0: no bound.
   */
  maxQueue?: number;
  /** Where the queue reports refusing work or staying full (admission's shedding). */
  queuePressure?: StoreQueuePressure;
  /** Called after every query with its duration and outcome (metrics). */
  onQuery?: (seconds: number, outcome: QueryOutcome) => void;
  /**
   * Called once when the pool finds its store unusable (the file changed in place or a read
   * failed: truncated, corrupt), with why and the file as it was opened; every query then
   * fails at once (503) until the pool is replaced. The server logs it, reopens the file and
   * reads it whole before serving it again (watch.ts, DamagedFileRecovery).
   */
  onDamaged?: (reason: string, file: FileIdentity | undefined) => void;
}

interface PooledConnection {
  connection: DuckDBConnection;
  /** A prepared statement belongs to its connection, which serves one request at a time. */
  statements: Map<string, DuckDBPreparedStatement>;
}

/** A connection lent to one query, with its turn in the queue. */
interface Lent {
  pooled: PooledConnection;
  release: ReleaseSlot;
}

const STRING_LIST = LIST(VARCHAR);

/** How often, at most, a query checks that the open file was not changed in place. */
const FILE_CHECK_INTERVAL_MS = 250;

/** What identifies the file's content: a new file is another inode, an in-place write another size or time. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const identityOf = (info: Stats): FileIdentity => ({
  dev: info.dev,
  ino: info.ino,
  size: info.size,
  mtimeMs: info.mtimeMs,
});

/** The file at `path` now; undefined when there is none (or it cannot be seen). */
export function fileAt(path: string): FileIdentity | undefined {
  try {
    return identityOf(statSync(path));
  } catch {
    return undefined;
  }
}

/** The same file (inode), whatever was written into it since. */
export const sameInode = (a: FileIdentity, b: FileIdentity) => a.dev === b.dev && a.ino === b.ino;

/** The same file, unchanged. */
export const sameFile = (a: FileIdentity, b: FileIdentity) =>
  sameInode(a, b) && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * DuckDB errors that mean the store cannot be read (corrupt) or that the instance gave up after
 * such an error: nothing read from it can be trusted until it is reopened. A read error of the
 * store file itself (truncated) is one too; other I/O errors (the spill folder) are load.
 */
const DAMAGED = /^(Corrupt|FATAL Error)|database has been invalidated|checksum/i;
/** Out of memory or of spill space, an interrupt, a spill file that failed: load, not a bug (503). */
const OVERLOADED = /^(Out of Memory Error|INTERRUPT|IO Error)/;
/** Of those, the memory or spill space a statement could not have. */
const OUT_OF_MEMORY = /^Out of Memory Error/;

/**
 * One read-only, hardened DuckDB instance per store file, with a pool of connections: each
 * runs one query at a time, in parallel with the others, within a time limit.
 */
export class DuckDbPool {
  private readonly idle: PooledConnection[];
  /** Who gets the next free connection: one slot per connection. */
  private readonly queue: FairQueue;
  private readonly unwatchQueue: () => void;
  private readonly size: number;
  private closed = false;
  private closing: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  /** Why the store cannot be read any more; set once, never cleared (the pool is replaced). */
  private damage: string | undefined;
  private fileCheckedAt = 0;

  private constructor(
    private readonly instance: DuckDBInstance,
    /** The instance's own spill folder, removed as it closes. */
    private readonly spillFolder: string,
    pool: PooledConnection[],
    readonly generation: string,
    readonly path: string,
    private readonly options: DuckDbPoolOptions,
    /** The file as it was opened (undefined: it could not be seen, nothing to compare). */
    readonly file: FileIdentity | undefined,
  ) {
    this.idle = pool;
    this.size = pool.length;
    this.queue = new FairQueue({ slots: pool.length, maxWaiting: options.maxQueue ?? 0 });
    this.unwatchQueue = options.queuePressure?.watch(this.queue) ?? (() => {});
  }

  static async open(path: string, options: DuckDbPoolOptions = {}): Promise<DuckDbPool> {
    try {
      await access(path);
    } catch {
      throw new StoreUnavailableError(`store file not found: ${path}`);
    }
    const spillFolder = await newSpillFolder(options.tempDirectory);
    const instance = await DuckDBInstance.create(path, {
      access_mode: 'READ_ONLY',
      threads: String(options.threads ?? 1),
      memory_limit: `${options.memoryLimit ?? 2 ** 30}B`,
      temp_directory: spillFolder,
      max_temp_directory_size: options.maxTempSize ?? '1GB',
      enable_external_access: 'false',
      autoload_known_extensions: 'false',
      autoinstall_known_extensions: 'false',
      // Late materialization made a top-N page re-scan the whole table for its rows (a page of
      // 50 took 5 ms instead of 1.1 ms).
      late_materialization_max_rows: '0',
      lock_configuration: 'true',
    });
    const pool: PooledConnection[] = [];
    try {
      for (let i = 0; i < (options.poolSize ?? 8); i++) {
        pool.push({ connection: await instance.connect(), statements: new Map() });
      }
      const generation = await readGeneration(pool[0] as PooledConnection);
      // Taken after DuckDB opened the file: a file published in between is another inode,
      // which later checks leave alone (the watcher reloads it).
      return new DuckDbPool(instance, spillFolder, pool, generation, path, options, fileAt(path));
    } catch (error) {
      for (const pooled of pool) pooled.connection.closeSync();
      instance.closeSync();
      removeSpillFolder(spillFolder);
      throw error;
    }
  }

  async query<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return this.run(async (pooled) => (await runOn(pooled, sql, params)) as T[]);
  }

  /**
   * The first column of the query's first row as the bytes DuckDB holds (a BLOB), in a buffer
   * of their own: no JavaScript value per row or column is made. Null when there is no row.
   */
  async queryBytes(sql: string, params: readonly SqlParam[]): Promise<Uint8Array | null> {
    return this.run(async (pooled) => {
      const result = await (await bound(pooled, sql, params)).run();
      if (result.rowCount === 0) return null;
      const vector = result.getChunk(0).getColumnVector(0);
      if (!(vector instanceof DuckDBBlobVector)) throw new TypeError(`not a BLOB column: ${sql}`);
      const bytes = vector.getItemBytes(0);
      // A value of up to 12 bytes is a view of the chunk's memory: copied before it goes.
      return bytes === null ? null : bytes.byteLength <= 12 ? bytes.slice() : bytes;
    });
  }

  /** Runs `read` on a connection in its turn, under the time limit, with the store's checks. */
  private async run<T>(read: (pooled: PooledConnection) => Promise<T>): Promise<T> {
    const started = performance.now();
    const observe = (outcome: QueryOutcome) =>
      this.options.onQuery?.((performance.now() - started) / 1000, outcome);
    let lent: Lent;
    try {
      this.checkFile(false);
      lent = await this.acquire();
    } catch (error) {
      observe('rejected');
      throw error;
    }
    const { pooled } = lent;
    const timeoutMs = this.options.queryTimeoutMs ?? 0;
    let running = true;
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            if (!running) return;
            timedOut = true;
            pooled.connection.interrupt();
          }, timeoutMs)
        : undefined;
    try {
      const result = await read(pooled);
      running = false;
      observe('ok');
      return result;
    } catch (error) {
      running = false;
      if (timedOut) {
        observe('timeout');
        throw new StoreUnavailableError(`query interrupted after ${timeoutMs} ms`, {
          cause: error,
        });
      }
      observe('error');
      const message = (error instanceof Error ? error.message : '').split('\n', 1)[0] ?? '';
      // Exhausted memory (or spill space) is a load problem, not a bug: 503, not 500.
      if (
        DAMAGED.test(message) ||
        (message.startsWith('IO Error') && message.includes(this.path))
      ) {
        throw this.damaged(message, error);
      }
      if (OUT_OF_MEMORY.test(message)) throw new StoreOverloadedError(message, { cause: error });
      if (OVERLOADED.test(message)) throw new StoreUnavailableError(message, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      this.release(lent);
    }
  }

  /**
   * Runs a query whose rows DuckDB itself writes as one JSON text, parsed here: one value
   * crosses into JavaScript instead of one per column and row, which cuts the event loop's
   * share of a spending query from about 4 ms to 1.3 ms. JSON numbers are doubles, so the query
   * must cast every DECIMAL it returns to VARCHAR (counts are exact as numbers). The rows come
   * in `orderBy`'s order, else in none.
   */
  async queryJson<T>(
    sql: string,
    params: readonly SqlParam[] = [],
    orderBy?: string,
  ): Promise<T[]> {
    const [row] = await this.query<{ rows: string | null }>(
      `SELECT to_json(list(r${orderBy ? ` ORDER BY ${orderBy}` : ''})) AS rows FROM (${sql}) r`,
      params,
    );
    return row?.rows ? (JSON.parse(row.rows) as T[]) : [];
  }

  /**
   * The store answers a query, and its file is the one opened, unchanged (`SELECT 1` reads
   * nothing from the file, so a damaged file would pass it).
   */
  async ping(): Promise<void> {
    this.checkFile(true);
    await this.query('SELECT 1 AS ok');
  }

  /**
   * Reads the whole store: every column of every table, so DuckDB reads every data block and
   * checks its checksum (`count(*)` alone reads none, `min`/`max` answer from statistics).
   * Fails with StoreUnavailableError, DuckDB's message (the first bad block). Not under the query time
   * limit, and it does not mark the pool damaged: it checks a pool that does not serve yet.
   * 3 to 4 s for the 290 MB benchmark store on one thread (docs/operations.md).
   */
  async verify(): Promise<void> {
    const lent = await this.acquire();
    const { pooled } = lent;
    try {
      const tables = await runOn(
        pooled,
        'SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY ALL',
        [],
      );
      for (const { schema_name, table_name } of tables) {
        const table = `${quoted(schema_name)}.${quoted(table_name)}`;
        await runOn(pooled, `SELECT count(*), bit_xor(hash(COLUMNS(*))) FROM ${table}`, []);
      }
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
      throw new StoreUnavailableError(message ?? 'store unreadable', { cause: error });
    } finally {
      this.release(lent);
    }
  }

  /*
   * No streaming result: when a streamed DuckDB query fails midway (out of memory while it
   * sorts, a read error), @duckdb/node-api's fetchChunk answers null, as at the end of the
   * rows, and the error is lost: a list 300,000 rows long came back with 237,568 and no error.
   * Large results are read as a run of bounded queries instead (transactions.ts).
   */

  /**
   * Fails when the store can no longer be trusted: marked damaged, or its file (the same
   * inode) changed in place since it was opened. A store file is only ever replaced by a
   * rename; DuckDB caches blocks, so a file rewritten under it would mix two files' blocks.
   * Checked at most every FILE_CHECK_INTERVAL_MS unless `now`.
   */
  private checkFile(now: boolean): void {
    if (this.damage !== undefined) throw new StoreUnavailableError(this.damage);
    if (!this.file) return;
    const at = performance.now();
    if (!now && at - this.fileCheckedAt < FILE_CHECK_INTERVAL_MS) return;
    this.fileCheckedAt = at;
    const seen = fileAt(this.path);
    // None: removed or renamed away, the open file is intact. Another: the watcher reloads it.
    if (!seen || !sameInode(seen, this.file)) return;
    if (!sameFile(seen, this.file)) {
      throw this.damaged(`store file changed in place since it was opened: ${this.path}`);
    }
  }

  /**
   * Throws what a query would when the store can no longer be trusted (damaged, or its file
   * changed in place): for answers kept in memory, which must stop with the store's.
   */
  assertReadable(): void {
    this.checkFile(false);
  }

  /** Marks the store damaged (once) and returns the error every query now fails with. */
  private damaged(reason: string, cause?: unknown): StoreUnavailableError {
    if (this.damage === undefined) {
      this.damage = `store file damaged: ${reason}`;
      this.options.onDamaged?.(this.damage, this.file);
    }
    return new StoreUnavailableError(this.damage, cause === undefined ? undefined : { cause });
  }

  /** Refuses new queries, lets running ones finish, then closes every connection and the instance. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.queue.close(new StoreUnavailableError('store is closed'));
    this.unwatchQueue();
    const drained =
      this.idle.length === this.size
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.drained = resolve;
          });
    this.closing = drained.then(() => {
      for (const pooled of this.idle.splice(0)) {
        for (const statement of pooled.statements.values()) statement.destroySync();
        pooled.connection.closeSync();
      }
      this.instance.closeSync();
      removeSpillFolder(this.spillFolder);
    });
    return this.closing;
  }

  /** A connection, in the current client's turn (the queue holds one slot per connection). */
  private async acquire(): Promise<Lent> {
    const release = await this.queue.acquire();
    return { pooled: this.idle.pop() as PooledConnection, release };
  }

  private release({ pooled, release }: Lent): void {
    this.idle.push(pooled);
    release();
    if (this.closed && this.idle.length === this.size) this.drained?.();
  }
}

/** The connection's prepared statement for `sql`, bound to `params`. */
async function bound(pooled: PooledConnection, sql: string, params: readonly SqlParam[]) {
  let statement = pooled.statements.get(sql);
  if (!statement) {
    statement = await pooled.connection.prepare(sql);
    pooled.statements.set(sql, statement);
  }
  const values: DuckDBValue[] = [];
  const types: Array<DuckDBType | undefined> = [];
  for (const param of params) {
    if (Array.isArray(param)) {
      values.push(listValue([...param]));
      types.push(STRING_LIST);
    } else {
      values.push(param as DuckDBValue);
      types.push(undefined);
    }
  }
  statement.bind(values, types as DuckDBType[]);
  return statement;
}

/**
 * Runs `sql` on the connection. A statement with parameters is prepared once per connection and
 * text, and kept; one without (the store's checks when it opens, run once) is run as it is, so
 * it is not kept for the connection's life.
 */
async function runOn(pooled: PooledConnection, sql: string, params: readonly SqlParam[]) {
  const reader =
    params.length === 0
      ? await pooled.connection.runAndReadAll(sql)
      : await (await bound(pooled, sql, params)).runAndReadAll();
  return reader.getRowObjectsJson();
}

const quoted = (name: unknown) => `"${String(name).replaceAll('"', '""')}"`;

async function readGeneration(pooled: PooledConnection): Promise<string> {
  const rows = await runOn(pooled, 'SELECT generation FROM store_meta LIMIT 1', []);
  const generation = rows[0]?.generation;
  if (typeof generation !== 'string') throw new StoreUnavailableError('store has no generation');
  return generation;
}
