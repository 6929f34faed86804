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

interface GroupState {
  /** The group's first row (its keys), and its largest so far. */
  row: number;
  largest: number;
  cents: bigint;
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
  if (ledger.merchants.texts.length <= 0xffff && ledger.subcategories.texts.length <= 0xffff) {
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
      const { days, cents } = ledger;
      const keyOf = groupKey(ledger, grain.subcategories);
      // Rows come by day: a day's period is found once; periods are numbered as they come.
      const periods = new Map<string, number>();
      let lastDay = Number.NaN;
      let period = 0;
      const groups = new Map<number | string, GroupState>();
      for (const row of rowsOf(scope)) {
        const day = days[row] as number;
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
        const amount = cents[row] as bigint;
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
        const max = cents[group.largest] as bigint;
        // A tie of amounts is the rule's to break (fold.ts, isLarger).
        if (
          amount > max ||
          (amount === max && isLarger(candidateOf(ledger, row), candidateOf(ledger, group.largest)))
        ) {
          group.largest = row;
        }
      }
      return Array.from(groups.values(), (group): SpendingGroup => {
        const { row, largest } = group;
        return {
          direction: directionOf(ledger, row),
          category: ledger.category(row),
          merchant_name: ledger.merchantName(row),
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
          ...(grain.subcategories ? { subcategory: ledger.subcategory(row) } : {}),
          day: ledger.date(row),
          amount: centsText(group.cents),
          count: group.count,
          max_amount: ledger.amount(largest),
          ...(group.days ? { days: Array.from(group.days, (day) => ledger.dateOfDay(day)) } : {}),
          largest: {
            id: ledger.id(largest),
            day: ledger.date(largest),
            description: ledger.description(largest),
            merchant_category_code: ledger.merchantCategoryCode(largest),
          },
        };
      });
    },

    // Every group comes with its largest row: no entry asks for candidates.
    async largestCandidates(scope, _grain, amounts) {
      const wanted = new Set(amounts.map((amount) => centsOf(amount.toFixed(2))));
      const found: LargestCandidate[] = [];
      for (const row of rowsOf(scope)) {
        if (wanted.has(ledger.cents[row] as bigint)) found.push(candidateOf(ledger, row));
      }
      return found;
    },

    async merchantAmounts(scope, names) {
      const named = new Set(names);
      const counts = new Map<string, { row: number; count: number }>();
      for (const row of rowsOf(scope)) {
        if (!named.has(ledger.merchantName(row))) continue;
        const key = `${ledger.isCredit(row) ? 1 : 0}|${ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0}|${ledger.categoryOf[row]}|${ledger.merchants.of[row]}|${ledger.cents[row]}`;
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
  /** The description keys a row only when it has no merchant name (null or empty). */
  const nameless = (row: number) => !ledger.merchantName(row);
  return {
    async recurringKeyDays(scope) {
      const keys = new Map<string, { row: number; days: Set<number> }>();
      for (const row of rowsOf(scope)) {
        const description = nameless(row) ? ledger.description(row) : null;
        const key = `${ledger.isCredit(row) ? 1 : 0}|${ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0}|${ledger.merchants.of[row]}|${description ?? '\u0000'}`;
        const seen = keys.get(key);
        if (seen) seen.days.add(ledger.days[row] as number);
        else keys.set(key, { row, days: new Set([ledger.days[row] as number]) });
      }
      return [...keys.values()].map(({ row, days }): RawKeyDays => {
        return {
          direction: directionOf(ledger, row),
          merchant_name: ledger.merchantName(row),
          description: nameless(row) ? ledger.description(row) : null,
          to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
          dates: Array.from(days, (day) => ledger.dateOfDay(day)),
        };
      });
    },

    async recurringRows(scope, texts) {
      const names = new Set(texts.merchantNames);
      const descriptions = new Set(texts.descriptions);
      const found: RecurringRow[] = [];
      for (const row of rowsOf(scope)) {
        const name = ledger.merchantName(row);
        const wanted = name
          ? names.has(name)
          : name === '' && names.has('')
            ? true
            : descriptions.has(ledger.description(row));
        if (!wanted) continue;
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
