/**
 * One user's transactions held in memory, compactly: a column per field, in the list's order
 * (newest first: `transacted_at` descending, then `id` descending, as the engine ordered them).
 * No JavaScript object per value: ids live in one text with offsets, repeated texts (account,
 * description, merchant, subcategory, merchant category code) in a dictionary of the distinct
 * ones with an index per row, dates as day numbers, amounts as integer cents, flags as bits.
 * A listed row is made only when it is sent.
 */
import { dateOf, dayNumber } from '../../domain/calendar.ts';
import { foldCase } from '../../domain/case-fold.ts';
import { compareCodePoints } from '../../domain/money.ts';
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
}

/** The bits of a row's flags, as the engines compute them. */
export const LEDGER_FLAGS = {
  hidden: 1,
  internalTransfer: 2,
  investmentAccount: 4,
  /** A DEBIT to an investment platform (the stored `to_platform`). */
  toPlatform: 8,
  /** Spending rules 1-4 hold: the user's own account, not hidden, not internal, not investment. */
  counted: 16,
} as const;

const CREDIT = 32;

const CATEGORY_INDEX = new Map<string, number>(CATEGORIES.map((name, index) => [name, index]));

/** Distinct texts of a column and, per row, the index of its text (0: null). */
class Dictionary {
  readonly texts: (string | null)[] = [null];
  private readonly index = new Map<string, number>();

  add(text: string | null): number {
    if (text === null) return 0;
    let at = this.index.get(text);
    if (at === undefined) {
      at = this.texts.length;
      this.texts.push(text);
      this.index.set(text, at);
    }
    return at;
  }
}

/** Bytes a JavaScript string takes, roughly: its header and one or two bytes a code unit. */
function stringBytes(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any code unit past Latin-1
  return 24 + (/[^\u0000-\u00ff]/.test(text) ? 2 : 1) * text.length;
}

export class UserLedger {
  readonly size: number;
  /** Every id, in row order, one after the other; row i's is ids.slice(idStarts[i], idStarts[i+1]). */
  private readonly ids: string;
  private readonly idStarts: Uint32Array;
  /** Row indexes in id order (code point order, as the engines compare ids). */
  private byIdOrder: Uint32Array | undefined;
  private readonly externalIds: (string | null)[];
  private readonly externalIdOf: Uint32Array;
  readonly accountIds: (string | null)[];
  readonly accountOf: Uint16Array | Uint32Array;
  readonly days: Int32Array;
  readonly cents: BigInt64Array;
  private readonly flags: Uint8Array;
  readonly categoryOf: Uint8Array;
  private readonly descriptions: (string | null)[];
  private readonly descriptionOf: Uint32Array;
  readonly merchants: (string | null)[];
  readonly merchantOf: Uint32Array;
  readonly subcategories: (string | null)[];
  readonly subcategoryOf: Uint32Array;
  private readonly codes: (string | null)[];
  private readonly codeOf: Uint32Array;
  /** Lower-cased descriptions and merchant names (the `q` filter), made on first use. */
  private folded: { descriptions: string[]; merchants: string[] } | undefined;
  /** What this ledger holds in memory, roughly (the working set's budget counts it). */
  readonly bytes: number;

  constructor(rows: readonly LedgerRow[]) {
    const n = rows.length;
    this.size = n;
    const externalIds = new Dictionary();
    const accounts = new Dictionary();
    const descriptions = new Dictionary();
    const merchants = new Dictionary();
    const subcategories = new Dictionary();
    const codes = new Dictionary();
    this.idStarts = new Uint32Array(n + 1);
    this.externalIdOf = new Uint32Array(n);
    const accountOf = new Uint32Array(n);
    this.days = new Int32Array(n);
    this.cents = new BigInt64Array(n);
    this.flags = new Uint8Array(n);
    this.categoryOf = new Uint8Array(n);
    this.descriptionOf = new Uint32Array(n);
    this.merchantOf = new Uint32Array(n);
    this.subcategoryOf = new Uint32Array(n);
    this.codeOf = new Uint32Array(n);
    const idParts: string[] = [];
    let idLength = 0;
    let previousDay: number | undefined;
    let previousDate = '';
    rows.forEach((row, i) => {
      const [id, externalId, accountId, date, amount, direction, description, merchant] = row;
      idParts.push(id);
      this.idStarts[i] = idLength;
      idLength += id.length;
      this.externalIdOf[i] = externalIds.add(externalId);
      accountOf[i] = accounts.add(accountId);
      // Rows come by day: one day's number is computed once.
      if (date !== previousDate) {
        previousDate = date;
        previousDay = dayNumber(date);
      }
      this.days[i] = previousDay as number;
      this.cents[i] = centsOf(amount);
      this.flags[i] = Number(row[11]) | (direction === 'CREDIT' ? CREDIT : 0);
      this.categoryOf[i] = CATEGORY_INDEX.get(row[8]) as number;
      this.descriptionOf[i] = descriptions.add(description);
      this.merchantOf[i] = merchants.add(merchant);
      this.subcategoryOf[i] = subcategories.add(row[9]);
      this.codeOf[i] = codes.add(row[10]);
    });
    this.idStarts[n] = idLength;
    this.ids = idParts.join('');
    this.externalIds = externalIds.texts;
    this.accountIds = accounts.texts;
    // Most users have a few accounts: two bytes a row.
    this.accountOf = accounts.texts.length <= 0xffff ? Uint16Array.from(accountOf) : accountOf;
    this.descriptions = descriptions.texts;
    this.merchants = merchants.texts;
    this.subcategories = subcategories.texts;
    this.codes = codes.texts;
    const arrays = [
      this.idStarts,
      this.externalIdOf,
      this.accountOf,
      this.days,
      this.cents,
      this.flags,
      this.categoryOf,
      this.descriptionOf,
      this.merchantOf,
      this.subcategoryOf,
      this.codeOf,
    ];
    const texts = [
      this.externalIds,
      this.accountIds,
      this.descriptions,
      this.merchants,
      this.subcategories,
      this.codes,
    ];
    this.bytes =
      stringBytes(this.ids) +
      arrays.reduce((sum, array) => sum + array.byteLength, 0) +
      texts.reduce(
        (sum, list) =>
          sum + 8 * list.length + list.reduce((s, t) => s + (t ? stringBytes(t) : 0), 0),
        0,
      ) +
      // Two of four bytes a row more once the id order or the folded texts are made.
      8 * n;
  }

  id(row: number): string {
    return this.ids.slice(this.idStarts[row], this.idStarts[row + 1]);
  }

  date(row: number): string {
    return dateOf(this.days[row] as number);
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
    return this.accountIds[this.accountOf[row] as number] as string;
  }

  merchantName(row: number): string | null {
    return this.merchants[this.merchantOf[row] as number] ?? null;
  }

  description(row: number): string {
    return this.descriptions[this.descriptionOf[row] as number] as string;
  }

  subcategory(row: number): string | null {
    return this.subcategories[this.subcategoryOf[row] as number] ?? null;
  }

  merchantCategoryCode(row: number): string | null {
    return this.codes[this.codeOf[row] as number] ?? null;
  }

  /** The amount as the store holds it: exact text with two decimals. */
  amount(row: number): string {
    return centsText(this.cents[row] as bigint);
  }

  /** The row as the list shows it (before the amount is formatted for the wire). */
  record(row: number): TransactionRecord {
    return {
      id: this.id(row),
      external_id: this.externalIds[this.externalIdOf[row] as number] ?? null,
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

  /** Whether the row's description or merchant name, lower-cased, contains `folded`. */
  mentions(row: number, folded: string): boolean {
    this.folded ??= {
      descriptions: this.descriptions.map((text) => (text === null ? '' : foldCase(text))),
      merchants: this.merchants.map((text) => (text === null ? '' : foldCase(text))),
    };
    return (
      (this.folded.descriptions[this.descriptionOf[row] as number] as string).includes(folded) ||
      (this.folded.merchants[this.merchantOf[row] as number] as string).includes(folded)
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

/** Exact amount text (`"12.30"`, `"-0.50"`, `"7"`) as integer cents. */
export function centsOf(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const units = BigInt(`${whole || '0'}${fraction.padEnd(2, '0')}`);
  if (fraction.length > 2) throw new RangeError(`more than two decimals: ${amount}`);
  return negative ? -units : units;
}

/** Integer cents as exact text with two decimals. */
export function centsText(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
