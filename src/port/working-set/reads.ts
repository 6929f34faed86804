/**
 * The spending analysis's and the recurring streams' reads (port/spending.ts SpendingReader,
 * port/recurring.ts RecurringReads) answered from a user's ledger, as an engine answers them:
 * the user's counted rows (spending rules 1, 3 and 4, as the engine's rollup counts them: the
 * ledger's `counted` flag) in the scope, summed into groups of the grain the fold asks for.
 * Nothing here decides a rule: the fold and the recurring streams' domain do, on these rows.
 */
import { LEDGER_FLAGS } from '../../contract/ledger.ts';
import { periodKey } from '../../domain/calendar.ts';
import { centsOf, centsText } from '../../domain/money.ts';
import type { RawKeyDays, RecurringRow, RecurringScope } from '../../domain/recurring/model.ts';
import {
  type DayTransaction,
  isLarger,
  type LargestCandidate,
  type LargestRow,
  type MerchantAmount,
  type SpendingGroup,
} from '../../domain/spending/fold.ts';
import type { AccountRecord } from '../read-port.ts';
import type { RecurringReads } from '../recurring.ts';
import type { SpendingReader, SpendingScope } from '../spending.ts';
import type { UserLedger } from './ledger.ts';
import { allOf, matchingRows, selection } from './list.ts';

const NO_TEXT = { categories: [], direction: null, minAmount: null, maxAmount: null, text: null };

/** The counted rows from `from` to `to` (dates, null: open), on the link and accounts. */
function countedRows(
  ledger: UserLedger,
  accounts: readonly AccountRecord[],
  scope: { from: string | null; to: string; linkId: string | null; accountIds: readonly string[] },
): Uint32Array {
  const selected = selection(ledger, { ...NO_TEXT, ...scope }, accounts);
  const counted = (row: number) => ledger.has(row, LEDGER_FLAGS.counted);
  return matchingRows({ ...selected, test: allOf([counted, selected.test]) });
}

const directionOf = (ledger: UserLedger, row: number) =>
  ledger.isCredit(row) ? ('CREDIT' as const) : ('DEBIT' as const);

/** A row as a candidate for its entry's largest transaction (fold.ts, isLarger). */
const candidateOf = (ledger: UserLedger, row: number): LargestCandidate => ({
  direction: directionOf(ledger, row),
  category: ledger.category(row),
  merchant_name: ledger.merchantName(row),
  to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
  id: ledger.id(row),
  day: ledger.date(row),
  description: ledger.description(row),
  merchant_category_code: ledger.merchantCategoryCode(row),
  amount: ledger.amount(row),
});

/**
 * A group's largest row, its texts read from the ledger only if the fold asks for them: most
 * groups are not their entry's largest.
 */
class LargestRowOf implements LargestRow {
  constructor(
    private readonly ledger: UserLedger,
    private readonly row: number,
    private readonly dateOf: (day: number) => string,
  ) {}

  get id(): string {
    return this.ledger.id(this.row);
  }

  get day(): string {
    return this.dateOf(this.ledger.day(this.row));
  }

  get description(): string {
    return this.ledger.description(this.row);
  }

  get merchant_category_code(): string | null {
    return this.ledger.merchantCategoryCode(this.row);
  }
}

interface GroupState {
  /** The group's first row (its keys), and its largest so far. */
  row: number;
  largest: number;
  cents: number;
  count: number;
  days: Set<number> | null;
}

/**
 * Groups apart by a number: period, direction, platform flag, category, merchant and
 * subcategory packed into one (the dictionaries' indexes are below 2^16 for a user of up to
 * WORKING_SET_MAX_ROWS transactions, which only a bigger dictionary would pass: then text).
 */
function groupKey(
  ledger: UserLedger,
  subcategories: boolean,
): (period: number, row: number) => number | string {
  const merchantOf = ledger.merchants.of;
  const subcategoryOf = ledger.subcategories.of;
  const flags = (row: number) =>
    (ledger.isCredit(row) ? 2 : 0) + (ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0);
  const sub = (row: number) => (subcategories ? (subcategoryOf[row] as number) : 0);
  if (ledger.merchants.size <= 0xffff && ledger.subcategories.size <= 0xffff) {
    return (period, row) =>
      ((((period * 4 + flags(row)) * 32 + (ledger.categoryOf[row] as number)) * 0x10000 +
        (merchantOf[row] as number)) *
        0x10000 +
        sub(row)) as number;
  }
  return (period, row) =>
    `${period}|${flags(row)}|${ledger.categoryOf[row]}|${merchantOf[row]}|${sub(row)}`;
}

/** `ledger`'s SpendingReader; `accounts` are the user's (the link scope reads them). */
export function ledgerSpendingReader(
  ledger: UserLedger,
  accounts: readonly AccountRecord[],
): SpendingReader {
  const rowsOf = (scope: SpendingScope) =>
    countedRows(ledger, accounts, {
      from: scope.window.start,
      to: scope.window.end,
      linkId: scope.linkId,
      accountIds: scope.accountIds,
    });
  return {
    async groups(scope, grain) {
      const { cents } = ledger;
      const keyOf = groupKey(ledger, grain.subcategories);
      // Rows come by day: a day's period is found once; periods are numbered as they come.
      const periods = new Map<string, number>();
      let lastDay = Number.NaN;
      let period = 0;
      const groups = new Map<number | string, GroupState>();
      for (const row of rowsOf(scope)) {
        const day = ledger.day(row);
        if (day !== lastDay) {
          lastDay = day;
          const key = periodKey(ledger.dateOfDay(day), grain.period);
          let known = periods.get(key);
          if (known === undefined) {
            known = periods.size;
            periods.set(key, known);
          }
          period = known;
        }
        const key = keyOf(period, row);
        const amount = cents[row] as number;
        const group = groups.get(key);
        if (!group) {
          groups.set(key, {
            row,
            largest: row,
            cents: amount,
            count: 1,
            days: grain.days ? new Set([day]) : null,
          });
          continue;
        }
        group.cents += amount;
        group.count++;
        group.days?.add(day);
        const max = cents[group.largest] as number;
        // A tie of amounts is the rule's to break (fold.ts, isLarger).
        if (
          amount > max ||
          (amount === max && isLarger(candidateOf(ledger, row), candidateOf(ledger, group.largest)))
        ) {
          group.largest = row;
        }
      }
      // A day's text once per request: groups share their days.
      const dates = new Map<number, string>();
      const dateOf = (day: number) => {
        let text = dates.get(day);
        if (text === undefined) {
          text = ledger.dateOfDay(day);
          dates.set(day, text);
        }
        return text;
      };
      return Array.from(groups.values(), (group): SpendingGroup => {
        const { row, largest } = group;
        return {
          direction: directionOf(ledger, row),
          category: ledger.category(row),
          merchant_name: ledger.merchantName(row),
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
          ...(grain.subcategories ? { subcategory: ledger.subcategory(row) } : {}),
          day: dateOf(ledger.day(row)),
          amount: centsText(group.cents),
          count: group.count,
          max_amount: ledger.amount(largest),
          ...(group.days ? { days: Array.from(group.days, dateOf) } : {}),
          largest: new LargestRowOf(ledger, largest, dateOf),
        };
      });
    },

    // Every group comes with its largest row: no entry asks for candidates.
    async largestCandidates(scope, _grain, amounts) {
      const wanted = new Set(amounts.map((amount) => Number(centsOf(amount.toFixed(2)))));
      const found: LargestCandidate[] = [];
      for (const row of rowsOf(scope)) {
        if (wanted.has(ledger.cents[row] as number)) found.push(candidateOf(ledger, row));
      }
      return found;
    },

    async merchantAmounts(scope, names) {
      const named = new Set(names);
      const merchants = ledger.merchants;
      const wanted = Uint8Array.from({ length: merchants.size }, (_, index) =>
        named.has(merchants.text(index)) ? 1 : 0,
      );
      const counts = new Map<string, { row: number; count: number }>();
      for (const row of rowsOf(scope)) {
        if (wanted[merchants.of[row] as number] === 0) continue;
        const key = `${ledger.isCredit(row) ? 1 : 0}|${ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0}|${ledger.categoryOf[row]}|${merchants.of[row]}|${ledger.cents[row]}`;
        const seen = counts.get(key);
        if (seen) seen.count++;
        else counts.set(key, { row, count: 1 });
      }
      return Array.from(
        counts.values(),
        ({ row, count }): MerchantAmount => ({
          direction: directionOf(ledger, row),
          category: ledger.category(row),
          merchant_name: ledger.merchantName(row),
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
          amount: ledger.amount(row),
          count,
        }),
      );
    },

    async dayTransactions(scope) {
      return Array.from(
        rowsOf(scope),
        (row): DayTransaction => ({
          id: ledger.id(row),
          direction: directionOf(ledger, row),
          category: ledger.category(row),
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
        }),
      );
    },
  };
}

/** `ledger`'s RecurringReads; `accounts` are the user's (the link scope reads them). */
export function ledgerRecurringReads(
  ledger: UserLedger,
  accounts: readonly AccountRecord[],
): RecurringReads {
  const rowsOf = (scope: RecurringScope) =>
    countedRows(ledger, accounts, {
      from: null,
      to: scope.through,
      linkId: scope.linkId,
      accountIds: scope.accountIds,
    });
  const { merchants, descriptions } = ledger;
  /** Per merchant entry: whether it names no merchant (null or empty): the description keys. */
  const nameless = Uint8Array.from({ length: merchants.size }, (_, index) =>
    merchants.text(index) ? 0 : 1,
  );
  const isNameless = (row: number) => nameless[merchants.of[row] as number] === 1;
  return {
    async recurringKeyDays(scope) {
      // Keyed by the dictionaries' indexes: one text, one index, in a ledger.
      const keys = new Map<string, { row: number; days: Set<number> }>();
      for (const row of rowsOf(scope)) {
        const description = isNameless(row) ? (descriptions.of[row] as number) : -1;
        const key = `${ledger.isCredit(row) ? 1 : 0}|${ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0}|${merchants.of[row]}|${description}`;
        const seen = keys.get(key);
        if (seen) seen.days.add(ledger.day(row));
        else keys.set(key, { row, days: new Set([ledger.day(row)]) });
      }
      return [...keys.values()].map(({ row, days }): RawKeyDays => {
        return {
          direction: directionOf(ledger, row),
          merchant_name: ledger.merchantName(row),
          description: isNameless(row) ? ledger.description(row) : null,
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
          dates: Array.from(days, (day) => ledger.dateOfDay(day)),
        };
      });
    },

    async recurringRows(scope, texts) {
      const names = new Set(texts.merchantNames);
      const described = new Set(texts.descriptions);
      // Per merchant entry: 1 its rows are wanted, 0 not, 2 by their description (no name, or
      // an empty one that is not asked for by name).
      const byMerchant = Uint8Array.from({ length: merchants.size }, (_, index) => {
        const name = merchants.text(index);
        if (name) return names.has(name) ? 1 : 0;
        return name === '' && names.has('') ? 1 : 2;
      });
      const byDescription = Uint8Array.from({ length: descriptions.size }, (_, index) =>
        described.has(descriptions.text(index) as string) ? 1 : 0,
      );
      const found: RecurringRow[] = [];
      for (const row of rowsOf(scope)) {
        const merchant = byMerchant[merchants.of[row] as number];
        const wanted =
          merchant === 2 ? byDescription[descriptions.of[row] as number] === 1 : merchant === 1;
        if (!wanted) continue;
        const name = ledger.merchantName(row);
        found.push({
          id: ledger.id(row),
          account_id: ledger.accountId(row),
          transacted_at: ledger.date(row),
          amount: ledger.amount(row),
          direction: directionOf(ledger, row),
          merchant_name: name,
          description: ledger.description(row),
          category: ledger.category(row),
          subcategory: ledger.subcategory(row),
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
        });
      }
      return found;
    },
  };
}
