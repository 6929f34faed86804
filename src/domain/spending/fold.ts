/**
 * The spending arithmetic past an engine's SQL, written once: an engine sums the user's scoped
 * rows (rules 1-4 and the link/account scope) per day, or per month, and per the columns the
 * rules and breakdowns read; this folds those groups into the aggregates shape.ts finishes:
 * the counted rules 5-7, the cash flow, the period buckets, each entry's and breakdown's totals,
 * the summary, the largest transaction's tie-break, the merchants' dates and amounts
 * (is_recurring) and the single day's ids. Money is summed in integer cents (BigInt: exact at
 * any size, and far cheaper than a decimal per addition over a heavy user's groups).
 */

import { periodKey } from '../calendar.ts';
import { compareCodePoints, type Exact, exact, ZERO } from '../money.ts';
import {
  type BreakdownAggregate,
  type BreakdownKey,
  breakdownSets,
  type EntryAggregate,
  type Flow,
  type LargestTransaction,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  UNCATEGORIZED,
  UNKNOWN_MERCHANT,
} from './model.ts';
import { cents, hasRecurringCadence } from './recurring.ts';

export type Direction = 'DEBIT' | 'CREDIT';

/** What a row is counted and grouped by. */
export interface GroupKeys {
  direction: Direction;
  category: string;
  merchant_name: string | null;
}

/** Scoped rows sharing a day (or a month) and every column the rules and breakdowns read. */
export interface SpendingGroup extends GroupKeys {
  subcategory: string | null;
  /** The group's day, or its month's first day (a monthly group). */
  day: string;
  to_platform: boolean;
  /** Exact decimal text. */
  amount: string;
  count: number | string;
  /** The group's largest amount, exact decimal text with two decimals. */
  max_amount: string;
  /** A monthly group's days (a daily group's is its day). */
  days?: readonly string[] | null;
}

/** How many counted rows of a merchant have an amount (is_recurring). */
export interface MerchantAmount {
  direction: Direction;
  merchant_name: string | null;
  amount: string;
  count: number | string;
}

/** The largest amount, then the latest date, then the smallest id (by code point). */
export function isLarger(a: LargestTransaction, b: LargestTransaction): boolean {
  const difference = cents(a.amount) - cents(b.amount);
  if (difference !== 0n) return difference > 0n;
  if (a.date !== b.date) return a.date > b.date;
  return compareCodePoints(a.transaction_id, b.transaction_id) < 0;
}

const flowOf = (direction: Direction): Flow => (direction === 'CREDIT' ? 'income' : 'spending');
const merchantOf = (name: string | null) => (name ? name : UNKNOWN_MERCHANT);
const subcategoryOf = (name: string | null) => (name ? name : UNCATEGORIZED);
const inDollars = (total: bigint): Exact => exact(total.toString()).dividedBy(100);
const SEPARATOR = '\u0000';

interface Accumulator {
  cents: bigint;
  count: number;
}

interface EntryState extends Accumulator {
  direction: Direction;
  key: string;
  max: bigint;
  largest?: LargestTransaction;
  dates: Set<string>;
  amountsInCents: bigint[];
  transactionIds: string[];
}

/**
 * Folds one query's groups: `add` every group, then (as the engine has them) offer the largest
 * candidates, the amounts of `recurringMerchants()` and the single day's ids; `aggregates()`.
 */
export class SpendingFold {
  private readonly categories: ReadonlySet<string>;
  private readonly sets: BreakdownKey[][];
  private readonly entries = new Map<string, EntryState>();
  private readonly breakdowns: Map<string, Accumulator>[];
  private income = 0n;
  private expenses = 0n;
  private summaryCents = 0n;
  private summaryCount = 0;
  private readonly merchantNames = new Set<string>();
  /** Per day, its period's key: a heavy user's groups share a few hundred days. */
  private readonly periods = new Map<string, string>();

  constructor(private readonly query: SpendingQuery) {
    this.categories = new Set(query.categories);
    this.sets = breakdownSets(query.groupBy, query.secondaryGroupBy);
    this.breakdowns = this.sets.map(() => new Map());
  }

  /**
   * Rule 5 and rule 7's categories (its link and accounts scope the SQL; rule 6, the platform
   * transfers, is the group's `to_platform`).
   */
  private isCounted(row: { direction: string; category: string }): boolean {
    return (
      (row.direction === 'DEBIT' || this.query.includeIncome) &&
      (this.categories.size === 0 || this.categories.has(row.category))
    );
  }

  /** The entry a row of `day` belongs to. */
  private entryKey(row: GroupKeys, day: string): string {
    return `${row.direction}${SEPARATOR}${this.keyOf(row, day)}`;
  }

  private keyOf(row: GroupKeys, day: string): string {
    switch (this.query.groupBy) {
      case 'category':
        return row.category;
      case 'merchant':
        return merchantOf(row.merchant_name);
      case 'time_period':
        return this.periodOf(day);
    }
  }

  private periodOf(day: string): string {
    let key = this.periods.get(day);
    if (key === undefined) {
      key = periodKey(day, this.query.timePeriod);
      this.periods.set(day, key);
    }
    return key;
  }

  /** `largest`: the group's own largest row, when the engine has it. */
  add(group: SpendingGroup, largest?: LargestTransaction): void {
    const amount = cents(group.amount);
    const count = Number(group.count);
    if (group.direction === 'CREDIT') this.income += amount;
    else if (!group.to_platform) this.expenses += amount;
    if (group.to_platform || !this.isCounted(group)) return;

    if (group.direction === 'DEBIT') {
      this.summaryCents += amount;
      this.summaryCount += count;
      if (group.merchant_name) this.merchantNames.add(group.merchant_name);
    }
    const max = cents(group.max_amount);
    const entryKey = this.entryKey(group, group.day);
    let entry = this.entries.get(entryKey);
    if (!entry) {
      entry = {
        direction: group.direction,
        key: this.keyOf(group, group.day),
        cents: 0n,
        count: 0,
        max,
        dates: new Set(),
        amountsInCents: [],
        transactionIds: [],
      };
      this.entries.set(entryKey, entry);
    }
    entry.cents += amount;
    entry.count += count;
    if (max > entry.max) entry.max = max;
    if (largest && (!entry.largest || isLarger(largest, entry.largest))) entry.largest = largest;
    if (this.query.groupBy === 'merchant') {
      for (const day of group.days ?? [group.day]) entry.dates.add(day);
    }

    const values: Record<BreakdownKey, string> = {
      category: group.category,
      merchant: merchantOf(group.merchant_name),
      subcategory: subcategoryOf(group.subcategory),
      period: this.periodOf(group.day),
    };
    this.sets.forEach((set, index) => {
      const key = [group.direction, ...set.map((column) => values[column])].join(SEPARATOR);
      const breakdown = this.breakdowns[index] as Map<string, Accumulator>;
      const total = breakdown.get(key);
      if (total) {
        total.cents += amount;
        total.count += count;
      } else breakdown.set(key, { cents: amount, count });
    });
  }

  /** The entries' largest amounts, distinct: the rows that may be some entry's largest. */
  maxima(): string[] {
    return [...new Set([...this.entries.values()].map((entry) => inDollars(entry.max).toFixed(2)))];
  }

  /** A row not to an investment platform that may be its entry's largest transaction. */
  offerLargest(row: GroupKeys, largest: LargestTransaction): void {
    if (!this.isCounted(row)) return;
    const entry = this.entries.get(this.entryKey(row, largest.date));
    if (entry && (!entry.largest || isLarger(largest, entry.largest))) entry.largest = largest;
  }

  /**
   * The merchant entries whose dates have a recurring cadence: only their amounts matter
   * (recurring.ts), and a heavy user's daily merchants need none.
   */
  recurringMerchants(): Set<string> {
    const names = new Set<string>();
    if (this.query.groupBy !== 'merchant') return names;
    for (const entry of this.entries.values()) {
      if (hasRecurringCadence([...entry.dates].sort())) names.add(entry.key);
    }
    return names;
  }

  addAmount(row: MerchantAmount): void {
    const entry = this.entries.get(`${row.direction}${SEPARATOR}${merchantOf(row.merchant_name)}`);
    if (!entry) return;
    const each = cents(row.amount);
    for (let i = Number(row.count); i > 0; i--) entry.amountsInCents.push(each);
  }

  /** A row not to an investment platform of the single day whose ids are listed. */
  addTransactionId(row: { id: string; direction: Direction; category: string }): void {
    if (!this.isCounted(row)) return;
    this.entries
      .get(`${row.direction}${SEPARATOR}${this.query.window.start}`)
      ?.transactionIds.push(row.id);
  }

  aggregates(): SpendingAggregates {
    const { groupBy, withCashFlow } = this.query;
    const listsIds = singleDayTransactionIds(this.query);
    return {
      entries: [...this.entries.values()].map(
        (entry): EntryAggregate => ({
          flow: flowOf(entry.direction),
          key: entry.key,
          amount: inDollars(entry.cents),
          count: entry.count,
          largest: entry.largest as LargestTransaction,
          ...(groupBy === 'merchant'
            ? { dates: [...entry.dates].sort(), amountsInCents: entry.amountsInCents }
            : {}),
          ...(listsIds ? { transactionIds: entry.transactionIds.sort(compareCodePoints) } : {}),
        }),
      ),
      breakdowns: this.sets.flatMap((set, index) =>
        [...(this.breakdowns[index] as Map<string, Accumulator>).entries()].map(
          ([key, total]): BreakdownAggregate => {
            const [direction, ...values] = key.split(SEPARATOR);
            const row: BreakdownAggregate = {
              flow: flowOf(direction as Direction),
              amount: inDollars(total.cents),
              count: total.count,
            };
            set.forEach((column, at) => {
              row[column] = values[at];
            });
            return row;
          },
        ),
      ),
      summary: {
        total: inDollars(this.summaryCents),
        count: this.summaryCount,
        uniqueMerchants: this.merchantNames.size,
      },
      cashFlow: withCashFlow
        ? { income: inDollars(this.income), expenses: inDollars(this.expenses) }
        : { income: ZERO, expenses: ZERO },
    };
  }
}
