/**
 * The spending arithmetic past an engine's SQL, written once: an engine sums the user's scoped
 * rows (rules 1-4 and the link/account scope) into groups that share a period and every column
 * the rules and breakdowns read; this folds those groups into the aggregates shape.ts finishes:
 * the counted rules 5-7, the cash flow, the Unknown and Uncategorized buckets, the period
 * buckets, each entry's and breakdown's totals, the summary, the largest transaction's
 * tie-break, which merchants' amounts is_recurring reads, and the single day's ids. Money is
 * summed in integer cents (BigInt: exact at any size, and far cheaper than a decimal per
 * addition over a heavy user's groups). The engines' rows are records as the read port's
 * (snake_case, money as exact decimal text); port/spending.ts drives the fold over them.
 */

import { periodKey, type TimePeriod } from '../calendar.ts';
import { centsOf, centsText, compareCodePoints, type Exact, exact } from '../money.ts';
import type { Direction } from '../taxonomy.ts';
import {
  type BreakdownAggregate,
  type BreakdownKey,
  breakdownSets,
  type EntryAggregate,
  type Flow,
  type SpendingAggregates,
  type SpendingQuery,
  singleDayTransactionIds,
  UNCATEGORIZED,
  UNKNOWN_MERCHANT,
} from './model.ts';
import { hasRecurringCadence } from './recurring.ts';

/** What the rules read of a row (rules 5 and 7, and rule 6: `to_platform`) and its entry's keys. */
interface GroupKeys {
  direction: Direction;
  category: string;
  merchant_name: string | null;
  /** A DEBIT transfer to an investment platform (domain/platforms.ts, stored by build-db). */
  to_platform: boolean;
}

/**
 * What the groups of a query must keep apart (spendingGrain); a reader may keep more apart
 * (a day within a month, an account): any such grain folds to the same aggregates.
 */
export interface SpendingGrain {
  /** Each group lies inside one calendar period of this kind. */
  period: TimePeriod;
  /** Groups of different subcategories stay apart (by category: its breakdown). */
  subcategories: boolean;
  /** Each group carries the days it has rows on (by merchant: is_recurring's dates). */
  days: boolean;
}

/** The grain the fold needs of `query`'s groups. */
export function spendingGrain(query: SpendingQuery): SpendingGrain {
  return {
    period: query.timePeriod,
    subcategories: breakdownSets(query.groupBy, query.secondaryGroupBy).some((set) =>
      set.includes('subcategory'),
    ),
    days: query.groupBy === 'merchant',
  };
}

/** One transaction that is a group's largest (isLarger), or a candidate for an entry's. */
export interface LargestRow {
  id: string;
  day: string;
  description: string;
  merchant_category_code: string | null;
}

/** Scoped rows summed together: rows that share every column the grain keeps apart. */
export interface SpendingGroup extends GroupKeys {
  /** Absent when the grain does not keep subcategories apart. */
  subcategory?: string | null;
  /** A day of the group's period: the group's day, or its period's or month's first day. */
  day: string;
  /** Exact decimal text. */
  amount: string;
  count: number | string;
  /** The group's largest amount, exact decimal text. */
  max_amount: string;
  /** The days the group has rows on, when the grain asks for them (else its `day` alone). */
  days?: readonly string[] | null;
  /**
   * The group's largest row (its amount is `max_amount`), when the reader has it: then every
   * group it reads has one, and no entry needs candidates.
   */
  largest?: LargestRow | null;
}

/** A scoped row that may be its entry's largest transaction. */
export interface LargestCandidate extends GroupKeys, LargestRow {
  /** Exact decimal text. */
  amount: string;
}

/** How many scoped rows of a merchant (and direction, category, flag) have an amount. */
export interface MerchantAmount extends GroupKeys {
  /** Exact decimal text. */
  amount: string;
  count: number | string;
}

/** A scoped row of the single day whose ids are listed. */
export interface DayTransaction {
  id: string;
  direction: Direction;
  category: string;
  to_platform: boolean;
}

/** The largest amount, then the latest date, then the smallest id (by code point). */
export function isLarger(a: LargestCandidate, b: LargestCandidate): boolean {
  const difference = centsOf(a.amount) - centsOf(b.amount);
  if (difference !== 0n) return difference > 0n;
  if (a.day !== b.day) return a.day > b.day;
  return compareCodePoints(a.id, b.id) < 0;
}

const flowOf = (direction: Direction): Flow => (direction === 'CREDIT' ? 'income' : 'spending');
const merchantOf = (name: string | null) => (name ? name : UNKNOWN_MERCHANT);
const subcategoryOf = (name: string | null | undefined) => (name ? name : UNCATEGORIZED);
const inDollars = (total: bigint): Exact => exact(centsText(total));
const SEPARATOR = '\u0000';

interface Accumulator {
  cents: bigint;
  count: number;
}

interface EntryState extends Accumulator {
  direction: Direction;
  key: string;
  max: bigint;
  largest?: LargestCandidate;
  dates: Set<string>;
  /** Merchant entries: the stored names folded into the entry (null, '' and 'Unknown' alike). */
  names: Set<string | null>;
  /** Merchant entries whose dates have a cadence: their amounts are read. */
  recurring: boolean;
  amountsInCents: bigint[];
  transactionIds: string[];
}

/**
 * Folds one query's groups: `add` every group, then offer the candidates for the `maxima()`
 * (when the groups brought no largest rows), the amounts of `recurringMerchantNames()` and the
 * single day's rows; `aggregates()`.
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

  /** Rules 5-7 past the scope (link and accounts): direction, platform transfers, categories. */
  private isCounted(row: { direction: Direction; category: string; to_platform: boolean }) {
    return (
      !row.to_platform &&
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

  add(group: SpendingGroup): void {
    const amount = centsOf(group.amount);
    const count = Number(group.count);
    if (group.direction === 'CREDIT') this.income += amount;
    else if (!group.to_platform) this.expenses += amount;
    if (!this.isCounted(group)) return;

    if (group.direction === 'DEBIT') {
      this.summaryCents += amount;
      this.summaryCount += count;
      if (group.merchant_name) this.merchantNames.add(group.merchant_name);
    }
    const max = centsOf(group.max_amount);
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
        names: new Set(),
        recurring: false,
        amountsInCents: [],
        transactionIds: [],
      };
      this.entries.set(entryKey, entry);
    }
    entry.cents += amount;
    entry.count += count;
    if (max > entry.max) entry.max = max;
    const { largest } = group;
    if (largest && max === entry.max) {
      // Read field by field: a reader may compute them only when asked (its getters).
      this.offer(entry, {
        id: largest.id,
        day: largest.day,
        description: largest.description,
        merchant_category_code: largest.merchant_category_code,
        amount: group.max_amount,
        direction: group.direction,
        category: group.category,
        merchant_name: group.merchant_name,
        to_platform: group.to_platform,
      });
    }
    if (this.query.groupBy === 'merchant') {
      for (const day of group.days ?? [group.day]) entry.dates.add(day);
      entry.names.add(group.merchant_name);
    }

    const values: Record<BreakdownKey, string> = {
      category: group.category,
      merchant: merchantOf(group.merchant_name),
      subcategory: subcategoryOf(group.subcategory),
      period: this.periodOf(group.day),
    };
    this.sets.forEach((set, index) => {
      let key: string = group.direction;
      for (const column of set) key += SEPARATOR + values[column];
      const breakdown = this.breakdowns[index] as Map<string, Accumulator>;
      const total = breakdown.get(key);
      if (total) {
        total.cents += amount;
        total.count += count;
      } else breakdown.set(key, { cents: amount, count });
    });
  }

  private offer(entry: EntryState, row: LargestCandidate): void {
    if (!entry.largest || isLarger(row, entry.largest)) entry.largest = row;
  }

  /** The largest amounts, distinct, of the entries whose groups brought no largest row. */
  maxima(): Exact[] {
    const amounts = new Set<bigint>();
    for (const entry of this.entries.values()) if (!entry.largest) amounts.add(entry.max);
    return [...amounts].map(inDollars);
  }

  /** A row whose amount is one of `maxima()`: its entry's largest transaction, if no other is. */
  offerLargest(row: LargestCandidate): void {
    if (!this.isCounted(row)) return;
    const entry = this.entries.get(this.entryKey(row, row.day));
    if (entry && centsOf(row.amount) === entry.max) this.offer(entry, row);
  }

  /**
   * The stored merchant names (null: none) of the merchant entries whose dates have a recurring
   * cadence: only their amounts matter (recurring.ts), and a heavy user's daily merchants need
   * none.
   */
  recurringMerchantNames(): (string | null)[] {
    const names: (string | null)[] = [];
    if (this.query.groupBy !== 'merchant') return names;
    for (const entry of this.entries.values()) {
      if (!hasRecurringCadence([...entry.dates].sort())) continue;
      entry.recurring = true;
      names.push(...entry.names);
    }
    return [...new Set(names)];
  }

  /** Amounts of the merchants recurringMerchantNames() named. */
  addAmount(row: MerchantAmount): void {
    if (!this.isCounted(row)) return;
    const entry = this.entries.get(`${row.direction}${SEPARATOR}${merchantOf(row.merchant_name)}`);
    if (!entry?.recurring) return;
    const each = centsOf(row.amount);
    for (let i = Number(row.count); i > 0; i--) entry.amountsInCents.push(each);
  }

  /** A row of the single day whose ids are listed. */
  addTransactionId(row: DayTransaction): void {
    if (!this.isCounted(row)) return;
    this.entries
      .get(`${row.direction}${SEPARATOR}${this.query.window.start}`)
      ?.transactionIds.push(row.id);
  }

  aggregates(): SpendingAggregates {
    const { groupBy } = this.query;
    const listsIds = singleDayTransactionIds(this.query);
    return {
      entries: [...this.entries.values()].map((entry): EntryAggregate => {
        const { largest } = entry;
        if (!largest) throw new Error(`no largest transaction was offered for ${entry.key}`);
        return {
          flow: flowOf(entry.direction),
          key: entry.key,
          amount: inDollars(entry.cents),
          count: entry.count,
          largest: {
            transactionId: largest.id,
            amount: exact(largest.amount),
            date: largest.day,
            description: largest.description,
            merchantCategoryCode: largest.merchant_category_code,
          },
          ...(groupBy === 'merchant'
            ? { dates: [...entry.dates].sort(), amountsInCents: entry.amountsInCents }
            : {}),
          ...(listsIds ? { transactionIds: entry.transactionIds.sort(compareCodePoints) } : {}),
        };
      }),
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
      cashFlow: { income: inDollars(this.income), expenses: inDollars(this.expenses) },
    };
  }
}
