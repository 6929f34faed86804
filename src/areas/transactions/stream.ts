/**
 * The unpaginated transaction list as a stream: the body is written a chunk of rows at a time,
 * with the daily totals summed along the way (rows arrive newest first, so each day's rows are
 * contiguous), so 100,000 transactions never sit in memory as one list or one string. The
 * bytes are those the list's schema serializes: the same keys in the same order.
 */
import { Readable } from 'node:stream';
import { type Exact, exact, formatMoney, ZERO } from '../../domain/money.ts';
import type { AccountRecord, TransactionRecord } from '../../port/read-port.ts';

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
 * fails answers an ordinary error; a failure later aborts the response (a client sees a
 * truncated body, never a wrong one).
 */
export async function transactionListStream(
  total: number,
  chunks: AsyncIterable<TransactionRecord[]>,
  accounts: AccountRecord[],
): Promise<Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* body(): AsyncGenerator<string> {
    yield `{"count":${total},"next":null,"previous":null,"transactions":[`;
    const days: DayTotal[] = [];
    let separator = '';
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
      if (text) yield text;
    }
    yield `],"accounts":${JSON.stringify(accounts)},"daily_totals":${JSON.stringify(days.map(renderDay))}}`;
  }
  const stream = Readable.from(body(), { objectMode: false });
  // A client gone early: stop reading the store (the engine releases what it holds).
  stream.once('close', () => void iterator.return?.());
  return stream;
}
