/**
 * Bytes read as bytes: `COPY (SELECT ...) TO STDOUT (FORMAT binary)` run on a pg client, the
 * data the server sends collected untouched. pg 8 reads every value of a result row as UTF-8
 * text (pg-protocol's DataRow parser; a binary-format bytea is then the Buffer of that text, its
 * bytes that are not UTF-8 replaced), but hands the query it runs each CopyData message's bytes
 * as a Buffer (pg-protocol parses CopyData with `reader.bytes`, and pg's client passes it to the
 * active query's `handleCopyData`). COPY takes no bind parameters: its text holds every value.
 */
import { Buffer } from 'node:buffer';
import type pg from 'pg';

/** What the query hands its callback: the COPY's data, header and trailer included. */
type Done = (error: Error | null, data?: Buffer) => void;

/**
 * A COPY TO STDOUT as pg runs a submitted query (the interface pg-cursor and pg-copy-streams
 * use): pg calls `callback` once, with the data after the server's ReadyForQuery or with the
 * error (a server's error, a lost connection, pg's own read timeout wrapping the callback).
 */
export class CopyOut implements pg.Submittable {
  private readonly chunks: Buffer[] = [];
  private failure: Error | null = null;

  constructor(
    readonly text: string,
    public callback: Done,
  ) {}

  submit(connection: pg.Connection): void {
    (connection as pg.Connection & { query(text: string): void }).query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    // A view of pg's read buffer, which the next read may overwrite: copied.
    this.chunks.push(Buffer.from(message.chunk));
  }

  handleRowDescription(): void {
    this.failure ??= new Error(`not a COPY TO STDOUT: ${this.text}`);
  }

  handleDataRow(): void {}

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {
    this.failure ??= new Error('empty statement');
  }

  handlePortalSuspended(): void {}

  /** A COPY FROM STDIN would wait for data: refused. */
  handleCopyInResponse(connection: pg.Connection): void {
    (connection as pg.Connection & { sendCopyFail(message: string): void }).sendCopyFail(
      'not a COPY TO STDOUT',
    );
  }

  handleError(error: Error): void {
    this.callback(error);
  }

  handleReadyForQuery(): void {
    if (this.failure) this.callback(this.failure);
    else this.callback(null, Buffer.concat(this.chunks));
  }
}

/** PostgreSQL's binary COPY signature: `PGCOPY\n\377\r\n\0`. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Data that is not a binary COPY's, or not whole. */
export class BinaryCopyFormatError extends Error {}

/**
 * The tuples of a binary COPY's data (docs: "COPY", "Binary Format"): the 11-byte signature,
 * a flags field (int32; bit 16 set: OIDs included, which no supported server sends), a header
 * extension's length (int32) and the extension (skipped), then per tuple its field count
 * (int16) and per field its length (int32; -1: null) and bytes, then -1 as a field count. Each
 * field's bytes are a view of `data`.
 */
export function binaryCopyTuples(data: Buffer): (Buffer | null)[][] {
  const fail = (what: string) => new BinaryCopyFormatError(`binary COPY data: ${what}`);
  if (data.length < 19 || !data.subarray(0, 11).equals(SIGNATURE)) throw fail('no signature');
  if ((data.readInt32BE(11) & (1 << 16)) !== 0) throw fail('OIDs included');
  const extension = data.readInt32BE(15);
  if (extension < 0) throw fail('a negative header extension length');
  let at = 19 + extension;
  const tuples: (Buffer | null)[][] = [];
  for (;;) {
    if (at + 2 > data.length) throw fail('cut short before its end');
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) break;
    if (fields < 0) throw fail(`a field count of ${fields}`);
    const tuple: (Buffer | null)[] = [];
    for (let field = 0; field < fields; field++) {
      if (at + 4 > data.length) throw fail('cut short in a tuple');
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        tuple.push(null);
        continue;
      }
      if (length < 0 || at + length > data.length) throw fail('cut short in a field');
      tuple.push(data.subarray(at, at + length));
      at += length;
    }
    tuples.push(tuple);
  }
  if (at !== data.length) throw fail('bytes after its end');
  return tuples;
}
