/**
 * The transaction list's answers computed from a user's ledger, as the engines compute them
 * (engines/<engine>/transactions.ts): the same filters, the same order, the same page and daily
 * totals, the same sync order by id.
 */
import { dayNumber } from '../../domain/calendar.ts';
import { centsOf, centsText } from '../../domain/money.ts';
import type {
  AccountRecord,
  DailyTotalRecord,
  PageWindow,
  TransactionFilters,
  TransactionRecord,
  TransactionsPage,
} from '../read-port.ts';
import type { UserLedger } from './ledger.ts';

/** Whether row `row` matches: a test built once per request from the filters. */
export type RowTest = (row: number) => boolean;

/**
 * The rows a request reads: the date filters as a range of rows (they descend by day), the
 * others as a test of each row of it.
 */
export interface Selection {
  start: number;
  end: number;
  test: RowTest;
}

/** The filters as a selection; `accounts` are the user's (the link filter reads them). */
export function selection(
  ledger: UserLedger,
  filters: TransactionFilters,
  accounts: readonly AccountRecord[],
): Selection {
  const [start, end] = ledger.rowsBetween(
    filters.from === null ? null : dayNumber(filters.from),
    filters.to === null ? null : dayNumber(filters.to),
  );
  const tests: RowTest[] = [];
  if (filters.accountIds.length > 0 || filters.linkId !== null) {
    // Per distinct account of the ledger: whether its rows pass the account and link filters.
    const wanted = new Set(filters.accountIds);
    const ofLink =
      filters.linkId === null
        ? null
        : new Set(
            accounts.filter((account) => account.link_id === filters.linkId).map((a) => a.id),
          );
    const passes = Array.from({ length: ledger.accounts.size }, (_, index) => {
      const id = ledger.accounts.text(index);
      return (
        id !== null && (wanted.size === 0 || wanted.has(id)) && (ofLink === null || ofLink.has(id))
      );
    });
    const accountOf = ledger.accounts.of;
    tests.push((row) => passes[accountOf[row] as number] as boolean);
  }
  if (filters.categories.length > 0) {
    const wanted = new Set<string>(filters.categories);
    tests.push((row) => wanted.has(ledger.category(row)));
  }
  if (filters.direction !== null) {
    const credit = filters.direction === 'CREDIT';
    tests.push((row) => ledger.isCredit(row) === credit);
  }
  const { cents } = ledger;
  // Held amounts are below 2^53 cents: a bound as a double compares with them exactly.
  if (filters.minAmount !== null) {
    const min = Number(centsOf(filters.minAmount));
    tests.push((row) => (cents[row] as number) >= min);
  }
  if (filters.maxAmount !== null) {
    const max = Number(centsOf(filters.maxAmount));
    tests.push((row) => (cents[row] as number) <= max);
  }
  if (filters.text !== null) tests.push(ledger.mentioning(filters.text));
  return { start, end, test: allOf(tests) };
}

/** Every test at once. */
export function allOf(tests: readonly RowTest[]): RowTest {
  const [first, second] = tests;
  if (!first) return () => true;
  if (!second) return first;
  return (row) => {
    for (const test of tests) if (!test(row)) return false;
    return true;
  };
}

/** The selected rows, in list order (newest first). */
export function matchingRows({ start, end, test }: Selection): Uint32Array {
  const found = new Uint32Array(end - start);
  let count = 0;
  for (let row = start; row < end; row++) if (test(row)) found[count++] = row;
  return found.subarray(0, count);
}

/**
 * A page of the matching rows, with the count of all of them and the totals of the page's days
 * over every matching row of those days (a day split across pages has the same totals on both).
 */
export function pageOf(
  ledger: UserLedger,
  selected: Selection,
  page: PageWindow,
): TransactionsPage {
  const rows = matchingRows(selected);
  const start = Math.min(page.offset, rows.length);
  const end = page.limit === null ? rows.length : Math.min(rows.length, start + page.limit);
  const listed = rows.subarray(start, end);
  const dailyTotals: DailyTotalRecord[] = [];
  if (listed.length > 0) {
    const { cents } = ledger;
    const day = (row: number) => ledger.day(row);
    // The page is a run of the matching rows, by day: its first and last days may go on
    // beyond it, on either side.
    let from = start;
    const newest = day(listed[0] as number);
    while (from > 0 && day(rows[from - 1] as number) === newest) from--;
    let to = end;
    const oldest = day(listed[listed.length - 1] as number);
    while (to < rows.length && day(rows[to] as number) === oldest) to++;
    let current: { day: number; row: number; debits: number; credits: number; count: number };
    const totals: (typeof current)[] = [];
    for (; from < to; from++) {
      const row = rows[from] as number;
      const rowDay = day(row);
      if (totals.at(-1)?.day !== rowDay) {
        totals.push({ day: rowDay, row, debits: 0, credits: 0, count: 0 });
      }
      current = totals.at(-1) as typeof current;
      if (ledger.isCredit(row)) current.credits += cents[row] as number;
      else current.debits += cents[row] as number;
      current.count++;
    }
    for (const total of totals) {
      dailyTotals.push({
        date: ledger.date(total.row),
        debits: centsText(total.debits),
        credits: centsText(total.credits),
        count: total.count,
      });
    }
  }
  return {
    rows: Array.from(listed, (row) => ledger.record(row)),
    total: rows.length,
    dailyTotals,
  };
}

/** The user's transactions with an id after `after` (all when null), by id, `limit` at most. */
export function byId(ledger: UserLedger, after: string | null, limit: number): TransactionRecord[] {
  const order = ledger.idOrder();
  const start = ledger.firstAfter(after);
  return Array.from(order.subarray(start, start + limit), (row) => ledger.record(row));
}
