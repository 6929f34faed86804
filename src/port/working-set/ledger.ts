/**
 * One user's transactions held in memory, compactly: a column per field, in the list's order
 * (newest first: `transacted_at` descending, then `id` descending, as the engine ordered them).
 * No JavaScript object per value: ids live in one text with offsets, repeated texts (account,
 * description, merchant, subcategory, merchant category code) in a dictionary of the distinct
 * ones with an index per row, dates as day numbers, amounts as integer cents, flags as bits.
 * A listed row is made only when it is sent.
 */

import { LEDGER_FLAGS } from '../../contract/ledger.ts';
import { dateOf, dayNumber } from '../../domain/calendar.ts';
import { foldCase } from '../../domain/case-fold.ts';
import { centsOf, centsText, compareCodePoints } from '../../domain/money.ts';
import { CATEGORIES, type Category, type Direction } from '../../domain/taxonomy.ts';
import type { TransactionRecord } from '../read-port.ts';

/**
 * One transaction as an engine reads it for the ledger, in this order: id, external_id,
 * account_id, transacted_at, amount (exact text, two decimals), direction, description,
 * merchant_name, category, subcategory, merchant_category_code, then the flags as one integer
 * (LEDGER_FLAGS; as text where the engine's row is a list of one type).
 */
export type LedgerRow = [
  id: string,
  externalId: string | null,
  accountId: string,
  transactedAt: string,
  amount: string,
  direction: Direction,
  description: string,
  merchantName: string | null,
  category: Category,
  subcategory: string | null,
  merchantCategoryCode: string | null,
  flags: number | string,
];

/** What an engine reads for the working set. */
export interface LedgerReads {
  /**
   * Every transaction of the user, newest first (`transacted_at` descending, then `id`
   * descending, as the list orders them); null when the user has more than `maxRows` (the
   * working set does not hold them: the engine answers for them).
   */
  ledgerRows(userId: string, maxRows: number): Promise<LedgerRow[] | null>;
  /**
   * Resolves once the store has a free connection and no query waits: a read that warms the
   * working set waits for it, so it never takes a request's turn.
   */
  whenIdle(): Promise<void>;
}

const CREDIT = 32;

const CATEGORY_INDEX = new Map<string, number>(CATEGORIES.map((name, index) => [name, index]));

/** A column of texts that repeat (accounts, merchants, ...): the distinct ones, an index a row. */
class DictionaryColumn {
  readonly texts: (string | null)[] = [null];
  readonly of: Uint16Array | Uint32Array;

  constructor(values: readonly (string | null)[]) {
    const index = new Map<string, number>();
    const of = new Uint32Array(values.length);
    values.forEach((value, row) => {
      if (value === null) return;
      let at = index.get(value);
      if (at === undefined) {
        at = this.texts.length;
        this.texts.push(value);
        index.set(value, at);
      }
      of[row] = at;
    });
    // Most columns have a few hundred distinct texts: two bytes a row.
    this.of = this.texts.length <= 0xffff ? Uint16Array.from(of) : of;
  }

  get(row: number): string | null {
    return this.texts[this.of[row] as number] ?? null;
  }

  get bytes(): number {
    return (
      this.of.byteLength +
      this.texts.reduce((sum: number, text) => sum + 8 + (text === null ? 0 : stringBytes(text)), 0)
    );
  }
}

/**
 * A column of texts that rarely repeat (ids, external ids, descriptions), one after the other
 * in one string: row i's is text.slice(starts[i], starts[i + 1]); a null is flagged apart.
 */
class HeapColumn {
  private readonly text: string;
  private readonly starts: Uint32Array;
  private readonly nulls: Uint8Array | null;

  constructor(values: readonly (string | null)[]) {
    this.starts = new Uint32Array(values.length + 1);
    let length = 0;
    let nulls: Uint8Array | null = null;
    values.forEach((value, row) => {
      this.starts[row] = length;
      if (value === null) {
        nulls ??= new Uint8Array(values.length);
        nulls[row] = 1;
      } else length += value.length;
    });
    this.starts[values.length] = length;
    this.text = values.map((value) => value ?? '').join('');
    this.nulls = nulls;
  }

  get(row: number): string | null {
    if (this.nulls?.[row]) return null;
    return this.text.slice(this.starts[row], this.starts[row + 1]);
  }

  get bytes(): number {
    return stringBytes(this.text) + this.starts.byteLength + (this.nulls?.byteLength ?? 0);
  }
}

/** Bytes a JavaScript string takes, roughly: its header and one or two bytes a code unit. */
function stringBytes(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any code unit past Latin-1
  return 24 + (/[^\u0000-\u00ff]/.test(text) ? 2 : 1) * text.length;
}

export class UserLedger {
  readonly size: number;
  private readonly ids: HeapColumn;
  /** Row indexes in id order (code point order, as the engines compare ids: by UTF-8 bytes). */
  private byIdOrder: Uint32Array | undefined;
  private readonly externalIds: HeapColumn;
  readonly accounts: DictionaryColumn;
  /** Each row's day number (rows come newest first: the days descend). */
  readonly days: Int32Array;
  /** The text of each day the rows have, as the engine wrote it. */
  private readonly dateTexts = new Map<number, string>();
  readonly cents: BigInt64Array;
  private readonly flags: Uint8Array;
  readonly categoryOf: Uint8Array;
  private readonly descriptions: HeapColumn;
  readonly merchants: DictionaryColumn;
  readonly subcategories: DictionaryColumn;
  private readonly codes: DictionaryColumn;
  /** Lower-cased descriptions and merchant names (the `q` filter), made on first use. */
  private folded: { descriptions: HeapColumn; merchants: string[] } | undefined;
  /** What this ledger holds in memory, roughly (the working set's budget counts it). */
  readonly bytes: number;

  constructor(rows: readonly LedgerRow[]) {
    const n = rows.length;
    this.size = n;
    const column = (at: number) => rows.map((row) => row[at] as string | null);
    this.ids = new HeapColumn(column(0));
    this.externalIds = new HeapColumn(column(1));
    this.accounts = new DictionaryColumn(column(2));
    this.descriptions = new HeapColumn(column(6));
    this.merchants = new DictionaryColumn(column(7));
    this.subcategories = new DictionaryColumn(column(9));
    this.codes = new DictionaryColumn(column(10));
    this.days = new Int32Array(n);
    this.cents = new BigInt64Array(n);
    this.flags = new Uint8Array(n);
    this.categoryOf = new Uint8Array(n);
    let previousDay = 0;
    let previousDate = '';
    rows.forEach((row, i) => {
      const date = row[3];
      // Rows come by day: one day's number is computed once.
      if (date !== previousDate) {
        previousDate = date;
        previousDay = dayNumber(date);
        this.dateTexts.set(previousDay, date);
      }
      this.days[i] = previousDay;
      this.cents[i] = centsOf(row[4]);
      this.flags[i] = Number(row[11]) | (row[5] === 'CREDIT' ? CREDIT : 0);
      this.categoryOf[i] = CATEGORY_INDEX.get(row[8]) as number;
    });
    const descriptions = this.descriptions.bytes;
    this.bytes =
      this.ids.bytes +
      this.externalIds.bytes +
      this.accounts.bytes +
      descriptions +
      this.merchants.bytes +
      this.subcategories.bytes +
      this.codes.bytes +
      this.days.byteLength +
      this.cents.byteLength +
      this.flags.byteLength +
      this.categoryOf.byteLength +
      // Made on use: the id order, and the folded texts (about as large as the texts).
      4 * n +
      descriptions +
      this.merchants.bytes;
  }

  id(row: number): string {
    return this.ids.get(row) as string;
  }

  date(row: number): string {
    return this.dateTexts.get(this.days[row] as number) as string;
  }

  /** The text of day number `day`, one the rows have. */
  dateOfDay(day: number): string {
    return this.dateTexts.get(day) ?? dateOf(day);
  }

  /**
   * The rows from day `from` to day `to` (day numbers, inclusive; null: open) as a range of
   * row indexes, `[start, end)`: the rows descend by day, so they are contiguous.
   */
  rowsBetween(from: number | null, to: number | null): [start: number, end: number] {
    const { days } = this;
    // The first row on or before `to`, then the first row before `from`.
    const firstAtMost = (day: number) => {
      let low = 0;
      let high = days.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((days[middle] as number) > day) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const start = to === null ? 0 : firstAtMost(to);
    const end = from === null ? days.length : firstAtMost(from - 1);
    return [start, Math.max(start, end)];
  }

  isCredit(row: number): boolean {
    return ((this.flags[row] as number) & CREDIT) !== 0;
  }

  has(row: number, flag: number): boolean {
    return ((this.flags[row] as number) & flag) !== 0;
  }

  category(row: number): Category {
    return CATEGORIES[this.categoryOf[row] as number] as Category;
  }

  accountId(row: number): string {
    return this.accounts.get(row) as string;
  }

  merchantName(row: number): string | null {
    return this.merchants.get(row);
  }

  description(row: number): string {
    return this.descriptions.get(row) as string;
  }

  subcategory(row: number): string | null {
    return this.subcategories.get(row);
  }

  merchantCategoryCode(row: number): string | null {
    return this.codes.get(row);
  }

  /** The amount as the store holds it: exact text with two decimals. */
  amount(row: number): string {
    return centsText(this.cents[row] as bigint);
  }

  /** The row as the list shows it (before the amount is formatted for the wire). */
  record(row: number): TransactionRecord {
    return {
      id: this.id(row),
      external_id: this.externalIds.get(row),
      account_id: this.accountId(row),
      transacted_at: this.date(row),
      amount: this.amount(row),
      direction: this.isCredit(row) ? 'CREDIT' : 'DEBIT',
      description: this.description(row),
      merchant_name: this.merchantName(row),
      category: this.category(row),
      subcategory: this.subcategory(row),
      merchant_category_code: this.merchantCategoryCode(row),
      is_hidden: this.has(row, LEDGER_FLAGS.hidden),
      is_internal_transfer: this.has(row, LEDGER_FLAGS.internalTransfer),
      is_investment_account: this.has(row, LEDGER_FLAGS.investmentAccount),
    };
  }

  /**
   * Whether the row's description or merchant name, lower-cased as `q` is (foldCase), contains
   * `folded`.
   */
  mentions(row: number, folded: string): boolean {
    this.folded ??= {
      descriptions: new HeapColumn(
        Array.from({ length: this.size }, (_, at) => foldCase(this.description(at))),
      ),
      merchants: this.merchants.texts.map((text) => (text === null ? '' : foldCase(text))),
    };
    return (
      (this.folded.descriptions.get(row) as string).includes(folded) ||
      (this.folded.merchants[this.merchants.of[row] as number] as string).includes(folded)
    );
  }

  /** Row indexes by id, in code point order (as the engines compare ids: by UTF-8 bytes). */
  idOrder(): Uint32Array {
    if (!this.byIdOrder) {
      const ids = Array.from({ length: this.size }, (_, row) => this.id(row));
      const order = Array.from({ length: this.size }, (_, row) => row);
      order.sort((a, b) => compareCodePoints(ids[a] as string, ids[b] as string));
      this.byIdOrder = Uint32Array.from(order);
    }
    return this.byIdOrder;
  }

  /** The row holding `id`, or -1. */
  find(id: string): number {
    const order = this.idOrder();
    let low = 0;
    let high = order.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const row = order[middle] as number;
      const compared = compareCodePoints(this.id(row), id);
      if (compared === 0) return row;
      if (compared < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** The position in id order of the first id after `after` (0 with none). */
  firstAfter(after: string | null): number {
    if (after === null) return 0;
    const order = this.idOrder();
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareCodePoints(this.id(order[middle] as number), after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
