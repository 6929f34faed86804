/**
 * The unpaginated transaction list as a stream: the body is written a chunk of rows at a time,
 * with the daily totals summed along the way (rows arrive newest first, so each day's rows are
 * contiguous), so 100,000 transactions never sit in memory as one list or one string. The
 * bytes are those the list's schema serializes: the same keys in the same order.
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
  accounts: AccountRecord[],
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
  async function* body(): AsyncGenerator<string> {
    yield `{"count":${total},"next":null,"previous":null,"transactions":[`;
    const days: DayTotal[] = [];
    let separator = '';
    let written = 0;
    for (let chunk = first; !chunk.done; chunk = await iterator.next()) {
      let text = '';
      for (const row of chunk.value) {
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
      written += chunk.value.length;
      if (written > total) throw shortfall(written, total);
      if (text) yield text;
    }
    if (written !== total) throw shortfall(written, total);
    yield `],"accounts":${JSON.stringify(accounts)},"daily_totals":${JSON.stringify(days.map(renderDay))}}`;
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
