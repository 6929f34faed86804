/**
 * The spending analysis's and the recurring streams' reads (port/spending.ts SpendingReader,
 * port/recurring.ts RecurringReads) answered from a user's ledger, as an engine answers them:
 * the user's counted rows (spending rules 1, 3 and 4, as the engine's rollup counts them: the
 * ledger's `counted` flag) in the scope, summed into groups of the grain the fold asks for.
 * Nothing here decides a rule: the fold and the recurring streams' domain do, on these rows.
 */
import { dateOf, periodKey } from '../../domain/calendar.ts';
import type { RawKeyDays, RecurringRow, RecurringScope } from '../../domain/recurring/model.ts';
import type {
  DayTransaction,
  LargestCandidate,
  MerchantAmount,
  SpendingGroup,
} from '../../domain/spending/fold.ts';
import type { AccountRecord } from '../read-port.ts';
import type { RecurringReads } from '../recurring.ts';
import type { SpendingReader, SpendingScope } from '../spending.ts';
import { centsOf, centsText, LEDGER_FLAGS, type UserLedger } from './ledger.ts';
import { matcher, matchingRows } from './list.ts';

const NO_TEXT = { categories: [], direction: null, minAmount: null, maxAmount: null, text: null };

/** The counted rows from `from` to `to` (days, null: open), on the link and accounts. */
function countedRows(
  ledger: UserLedger,
  accounts: readonly AccountRecord[],
  scope: { from: string | null; to: string; linkId: string | null; accountIds: readonly string[] },
): Uint32Array {
  const inScope = matcher(ledger, { ...NO_TEXT, ...scope }, accounts);
  return matchingRows(ledger, (row) => ledger.has(row, LEDGER_FLAGS.counted) && inScope(row));
}

/** A row's group keys as the fold reads them. */
const keysOf = (ledger: UserLedger, row: number) => ({
  direction: ledger.isCredit(row) ? ('CREDIT' as const) : ('DEBIT' as const),
  category: ledger.category(row),
  merchant_name: ledger.merchantName(row),
  to_platform: ledger.has(row, LEDGER_FLAGS.toPlatform),
});

interface GroupState {
  row: number;
  cents: bigint;
  count: number;
  max: bigint;
  days: Set<number> | null;
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
      const { days, cents, categoryOf } = ledger;
      const merchantOf = ledger.merchants.of;
      const subcategoryOf = ledger.subcategories.of;
      // Rows come by day: a day's period key is found once.
      let lastDay = Number.NaN;
      let lastPeriod = '';
      const groups = new Map<string, GroupState>();
      for (const row of rowsOf(scope)) {
        const day = days[row] as number;
        if (day !== lastDay) {
          lastDay = day;
          lastPeriod = periodKey(dateOf(day), grain.period);
        }
        const key = `${lastPeriod}|${ledger.isCredit(row) ? 1 : 0}|${ledger.has(row, LEDGER_FLAGS.toPlatform) ? 1 : 0}|${categoryOf[row]}|${merchantOf[row]}|${grain.subcategories ? subcategoryOf[row] : ''}`;
        const amount = cents[row] as bigint;
        const group = groups.get(key);
        if (group) {
          group.cents += amount;
          group.count++;
          if (amount > group.max) group.max = amount;
          group.days?.add(day);
        } else {
          const first = grain.days ? new Set([day]) : null;
          groups.set(key, { row, cents: amount, count: 1, max: amount, days: first });
        }
      }
      return [...groups.values()].map(
        (group): SpendingGroup => ({
          ...keysOf(ledger, group.row),
          ...(grain.subcategories ? { subcategory: ledger.subcategory(group.row) } : {}),
          day: ledger.date(group.row),
          amount: centsText(group.cents),
          count: group.count,
          max_amount: centsText(group.max),
          ...(group.days ? { days: [...group.days].map(dateOf) } : {}),
        }),
      );
    },

    async largestCandidates(scope, _grain, amounts) {
      const wanted = new Set(amounts.map((amount) => centsOf(amount.toFixed(2))));
      const found: LargestCandidate[] = [];
      for (const row of rowsOf(scope)) {
        if (!wanted.has(ledger.cents[row] as bigint)) continue;
        found.push({
          ...keysOf(ledger, row),
          id: ledger.id(row),
          day: ledger.date(row),
          description: ledger.description(row),
          merchant_category_code: ledger.merchantCategoryCode(row),
          amount: ledger.amount(row),
        });
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
      return [...counts.values()].map(
        ({ row, count }): MerchantAmount => ({
          ...keysOf(ledger, row),
          amount: ledger.amount(row),
          count,
        }),
      );
    },

    async dayTransactions(scope) {
      return Array.from(rowsOf(scope), (row): DayTransaction => {
        const { direction, category, to_platform } = keysOf(ledger, row);
        return { id: ledger.id(row), direction, category, to_platform };
      });
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
        const { direction, merchant_name, to_platform } = keysOf(ledger, row);
        return {
          direction,
          merchant_name,
          description: nameless(row) ? ledger.description(row) : null,
          to_platform,
          dates: [...days].map(dateOf),
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
        const { direction, merchant_name, to_platform } = keysOf(ledger, row);
        found.push({
          id: ledger.id(row),
          account_id: ledger.accountId(row),
          transacted_at: ledger.date(row),
          amount: ledger.amount(row),
          direction,
          merchant_name,
          description: ledger.description(row),
          category: ledger.category(row),
          subcategory: ledger.subcategory(row),
          to_platform,
        });
      }
      return found;
    },
  };
}
