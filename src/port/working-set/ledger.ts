/**
 * One user's transactions held in memory: the user's packed ledger (contract/ledger.ts), the
 * bytes the store holds, read in place. Rows are in the list's order (newest first:
 * `transacted_at` descending, then `id` descending); repeated texts are indexes into the
 * ledger's dictionaries, amounts integer cents, dates day numbers. A listed row is made only
 * when it is sent.
 */
import { CREDIT, LEDGER_FLAGS, LedgerBytes } from '../../contract/ledger.ts';
import { dateOf } from '../../domain/calendar.ts';
import { foldCase } from '../../domain/case-fold.ts';
import { centsText, compareCodePoints } from '../../domain/money.ts';
import { CATEGORIES, type Category } from '../../domain/taxonomy.ts';
import type { AccountRecord, TransactionRecord } from '../read-port.ts';

/** What an engine reads for the working set. */
export interface LedgerReads {
  /**
   * The user's packed ledger, as the store holds it; null when the store holds none for the
   * user (over the row bound the store was built with) or one of more than `maxRows`
   * transactions: the engine answers for them.
   */
  packedLedger(userId: string, maxRows: number): Promise<Uint8Array | null>;
}

/** Bytes a JavaScript object and the typed-array views over the ledger take, roughly. */
const VIEW_BYTES = 2_048;

export class UserLedger {
  readonly size: number;
  private readonly packed: LedgerBytes;
  /** Each row's day number, minus `dayBase` (rows come newest first: the days descend). */
  private readonly days: Uint16Array | Uint32Array;
  private readonly dayBase: number;
  /** Integer cents (sums of them are exact: the ledger's layout guarantees it). */
  readonly cents: Int32Array | Float64Array;
  private readonly flags: Uint8Array;
  readonly categoryOf: Uint8Array;
  readonly accounts: LedgerBytes['accounts'];
  readonly merchants: LedgerBytes['merchants'];
  readonly subcategories: LedgerBytes['subcategories'];
  readonly descriptions: LedgerBytes['descriptions'];
  /** What this ledger holds in memory: its bytes, and the views over them. */
  readonly bytes: number;

  constructor(bytes: Uint8Array) {
    const packed = new LedgerBytes(bytes);
    this.packed = packed;
    this.size = packed.rows;
    this.days = packed.days;
    this.dayBase = packed.dayBase;
    this.cents = packed.cents;
    this.flags = packed.flags;
    this.categoryOf = packed.categories;
    this.accounts = packed.accounts;
    this.merchants = packed.merchants;
    this.subcategories = packed.subcategories;
    this.descriptions = packed.descriptions;
    this.bytes = packed.bytes.byteLength + VIEW_BYTES;
  }

  /** The row's day number. */
  day(row: number): number {
    return this.dayBase + (this.days[row] as number);
  }

  id(row: number): string {
    return this.packed.ids.get(row) as string;
  }

  date(row: number): string {
    return dateOf(this.day(row));
  }

  /** The text of day number `day`. */
  dateOfDay(day: number): string {
    return dateOf(day);
  }

  /**
   * The rows from day `from` to day `to` (day numbers, inclusive; null: open) as a range of
   * row indexes, `[start, end)`: the rows descend by day, so they are contiguous.
   */
  rowsBetween(from: number | null, to: number | null): [start: number, end: number] {
    const { days, dayBase } = this;
    // The first row on or before `day`, by binary search over the descending days.
    const firstAtMost = (day: number) => {
      const relative = day - dayBase;
      let low = 0;
      let high = days.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((days[middle] as number) > relative) low = middle + 1;
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
    return this.packed.codes.get(row);
  }

  /** The amount as the store holds it: exact text with two decimals. */
  amount(row: number): string {
    return centsText(this.cents[row] as number);
  }

  /** The user's accounts, by id, as the store lists them. */
  accountRecords(): AccountRecord[] {
    return JSON.parse(this.packed.accountsJson()) as AccountRecord[];
  }

  /** The row as the list shows it (before the amount is formatted for the wire). */
  record(row: number): TransactionRecord {
    return {
      id: this.id(row),
      external_id: this.packed.externalIds.get(row),
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
   * A test of whether a row's description or merchant name, lower-cased as `q` is (foldCase),
   * contains `folded`: each distinct text folded once, for this request.
   */
  mentioning(folded: string): (row: number) => boolean {
    const matches = (dictionary: LedgerBytes['descriptions']) =>
      Uint8Array.from({ length: dictionary.size }, (_, index) => {
        const text = dictionary.text(index);
        return text !== null && foldCase(text).includes(folded) ? 1 : 0;
      });
    const descriptions = matches(this.descriptions);
    const merchants = matches(this.merchants);
    const descriptionOf = this.descriptions.of;
    const merchantOf = this.merchants.of;
    return (row) =>
      descriptions[descriptionOf[row] as number] === 1 ||
      merchants[merchantOf[row] as number] === 1;
  }

  /** Row indexes by id, in code point order (as the engines compare ids: by UTF-8 bytes). */
  idOrder(): Uint16Array | Uint32Array {
    return this.packed.idOrder;
  }

  /** The row holding `id`, or -1. */
  find(id: string): number {
    const order = this.packed.idOrder;
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
    const order = this.packed.idOrder;
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
