/**
 * The narrow interface every route depends on. DuckDB is the embedded backend; a second
 * backend (a distributed SQL engine) implements the same four members.
 */

/** A bound parameter: positional `$1`, `$2`, ... in the SQL text. Dates are bound as strings. */
export type SqlParam = string | number | boolean | null | readonly string[];

/**
 * A result row with exact JSON values: DECIMAL and BIGINT (including `count(*)`) arrive as
 * strings, DATE as `YYYY-MM-DD`, TIMESTAMP as ISO text, LIST as an array.
 */
export type Row = Record<string, unknown>;

export interface Store {
  /** Runs one read-only query with bound parameters only. */
  query<T extends Row = Row>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Identifies the store's content; changes whenever a new store is published. */
  readonly generation: string;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store cannot answer (missing file, closed, interrupted query): the API answers 503. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}
