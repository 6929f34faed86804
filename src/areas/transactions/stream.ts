/**
 * The unpaginated transaction list as a stream: the body is written a chunk of rows at a time,
 * so 100,000 transactions never sit in memory as one list or one string. The JSON body sums
 * the daily totals along the way (rows arrive newest first, so each day's rows are
 * contiguous); its bytes are those the list's schema serializes: the same keys in the same
 * order. The file formats (formats.ts) are written by the same stream.
 */
import { Readable } from 'node:stream';
import { type Exact, exact, formatMoney, ZERO } from '../../domain/money.ts';
import {
  type AccountRecord,
  StoreUnavailableError,
  type TransactionRecord,
} from '../../port/read-port.ts';

/** A transaction as the list shows it. */
export const listedTransaction = (row: TransactionRecord) => ({
  ...row,
  amount: formatMoney(row.amount),
});

interface DayTotal {
  date: string;
  debits: Exact;
  credits: Exact;
  count: number;
}

const renderDay = (day: DayTotal) => ({
  date: day.date,
  debits: formatMoney(day.debits),
  credits: formatMoney(day.credits),
  net: formatMoney(day.credits.minus(day.debits)),
  count: day.count,
});

/** Bytes of a body: text is written as UTF-8. */
export type BodyPiece = string | Uint8Array;

/**
 * How a list body is written: what comes before the rows, each chunk of rows (empty while a
 * writer buffers them), and what comes after.
 */
export interface ListBody {
  start(): BodyPiece;
  rows(rows: readonly TransactionRecord[]): BodyPiece;
  end(): BodyPiece;
}

/** The JSON list: `count`, `next`, `previous`, the transactions, the accounts, the daily totals. */
export function jsonListBody(total: number, accounts: AccountRecord[]): ListBody {
  const days: DayTotal[] = [];
  let separator = '';
  return {
    start: () => `{"count":${total},"next":null,"previous":null,"transactions":[`,
    rows(rows) {
      let text = '';
      for (const row of rows) {
        let day = days.at(-1);
        if (day?.date !== row.transacted_at) {
          day = { date: row.transacted_at, debits: ZERO, credits: ZERO, count: 0 };
          days.push(day);
        }
        if (row.direction === 'DEBIT') day.debits = day.debits.plus(exact(row.amount));
        else day.credits = day.credits.plus(exact(row.amount));
        day.count++;
        text += separator + JSON.stringify(listedTransaction(row));
        separator = ',';
      }
      return text;
    },
    end: () =>
      `],"accounts":${JSON.stringify(accounts)},"daily_totals":${JSON.stringify(days.map(renderDay))}}`,
  };
}

/** A whole body at once (a page): the same bytes the stream writes for these rows. */
export function wholeBody(body: ListBody, rows: readonly TransactionRecord[]): Buffer {
  return Buffer.concat(
    [body.start(), body.rows(rows), body.end()].map((piece) => Buffer.from(piece)),
  );
}

/**
 * The list body, started: the first chunk is read before anything is sent, so a store that
 * fails then answers an ordinary error (503 when it is unavailable). A failure once the body is
 * handed over is passed to `onFailure`, which must cut the response short (destroy the
 * socket: the client sees an unfinished body, never a complete one); the body then ends
 * without its closing bytes. Rows are read as the client takes them (one chunk ahead at
 * most), and the rows read must add up to `total`: a shortfall is such a failure, not a
 * shorter list.
 */
export async function transactionListStream(
  total: number,
  chunks: AsyncIterable<TransactionRecord[]>,
  writer: ListBody,
  onFailure: (error: unknown) => void,
): Promise<Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const stop = () => {
    iterator.return?.().catch(() => {});
  };
  let first: IteratorResult<TransactionRecord[]>;
  try {
    first = await iterator.next();
    if (first.done && total > 0) throw shortfall(0, total);
  } catch (error) {
    stop();
    throw error;
  }
  async function* body(): AsyncGenerator<BodyPiece> {
    // An empty piece would stall the Readable: only bytes are pushed.
    const start = writer.start();
    if (start.length > 0) yield start;
    let written = 0;
    for (let chunk = first; !chunk.done; chunk = await iterator.next()) {
      const piece = writer.rows(chunk.value);
      written += chunk.value.length;
      if (written > total) throw shortfall(written, total);
      if (piece.length > 0) yield piece;
    }
    if (written !== total) throw shortfall(written, total);
    const end = writer.end();
    if (end.length > 0) yield end;
  }
  const pieces = body();
  let failed = false;
  return new Readable({
    // Called again only once the piece before was pushed: one piece in flight at a time.
    read() {
      pieces.next().then(
        ({ value, done }) => {
          if (this.destroyed) return;
          this.push(done ? null : value);
        },
        (error: unknown) => {
          if (failed || this.destroyed) return;
          failed = true;
          onFailure(error);
          // No error: the response is already cut; an error here would be logged again, with
          // its stack, by the framework and the compression pipeline.
          this.destroy();
        },
      );
    },
    // A client gone early, or a failure: stop reading the store.
    destroy(error, callback) {
      stop();
      pieces.return(undefined).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}

/** The store gave other than the rows it counted: the list cannot be answered whole. */
function shortfall(read: number, total: number): StoreUnavailableError {
  return new StoreUnavailableError(`the list read ${read} rows where the store counted ${total}`);
}
