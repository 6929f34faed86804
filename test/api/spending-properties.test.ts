/**
 * Properties of the spending endpoint over generated transaction sets, checked against a simple
 * reference computation of the spending and cash-flow bases. Each generated user is one sample;
 * all of them share one store (a build per sample would take seconds), and fast-check draws the
 * user and the query per run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/domain/taxonomy.ts';
import { type SpendingTestApp, spendingTestApp } from '../fixtures/spending/app.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  writeCsvFixture,
} from '../helpers/store.ts';

const TODAY = '2026-03-15';
const USERS = 24;
const RUNS = 25;

/** Statement lines with whether they name an investment platform. */
const DESCRIPTIONS: ReadonlyArray<[string, boolean]> = [
  ['COFFEE SHOP 123', false],
  ['GROCERY MART', false],
  ['RENT PAYMENT', false],
  ['LES SCHWAB TIRE CENTER #123', false],
  ['FIDELITY LIFE INS PREM', false],
  ['ROBINHOOD DES:FUNDS ID:12345', true],
  ['COINBASE.COM 8889087930', true],
  ['FID BKG SVC LLC MONEYLINE', true],
];
const MERCHANTS = [null, 'Unknown', 'Other', 'Cafe', 'Mart', 'Ａ Shop', '😀 Cafe'];
const ACCOUNTS = [
  { suffix: 'chk', type: 'depository', link: 'a' },
  { suffix: 'card', type: 'credit', link: 'b' },
  { suffix: 'inv', type: 'investment', link: 'a' },
] as const;

interface GeneratedTransaction {
  day: number;
  cents: number;
  direction: 'DEBIT' | 'CREDIT';
  description: number;
  merchant: number;
  category: number;
  account: number;
  hidden: boolean;
  internal: boolean;
}

const transactionArbitrary: fc.Arbitrary<GeneratedTransaction> = fc.record({
  day: fc.integer({ min: 0, max: 120 }), // 2025-12-01 .. 2026-03-31 (past today)
  cents: fc.integer({ min: 1, max: 50_000 }),
  direction: fc.constantFrom('DEBIT', 'CREDIT'),
  description: fc.nat({ max: DESCRIPTIONS.length - 1 }),
  merchant: fc.nat({ max: MERCHANTS.length - 1 }),
  category: fc.nat({ max: CATEGORIES.length - 1 }),
  account: fc.nat({ max: ACCOUNTS.length - 1 }),
  hidden: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  internal: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
});

const dateOf = (day: number) => new Date(Date.UTC(2025, 11, 1 + day)).toISOString().slice(0, 10);
const money = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

interface Row {
  id: string;
  date: string;
  cents: number;
  direction: 'DEBIT' | 'CREDIT';
  toPlatform: boolean;
  category: string;
  accountType: string;
  accountId: string;
  linkId: string;
  hidden: boolean;
  internal: boolean;
}

const userIds = Array.from({ length: USERS }, (_, i) => `pu${String(i).padStart(2, '0')}`);
const rowsByUser = new Map<string, Row[]>();
let t: SpendingTestApp;

beforeAll(async () => {
  const generated = fc.sample(fc.array(transactionArbitrary, { maxLength: 30 }), {
    numRuns: USERS,
    seed: 20260315,
  });
  const tables: Record<string, FixtureRow[]> = {
    users: [],
    links: [],
    accounts: [],
    transactions: [],
  };
  userIds.forEach((user, u) => {
    tables.users?.push({
      id: user,
      name: user,
      email: `${user}@example.com`,
      created_at: '2024-01-01T00:00:00Z',
    });
    for (const link of ['a', 'b']) {
      tables.links?.push({
        id: `${user}_${link}`,
        user_id: user,
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2024-01-01T00:00:00Z',
      });
    }
    for (const account of ACCOUNTS) {
      tables.accounts?.push({
        id: `${user}_${account.suffix}`,
        user_id: user,
        link_id: `${user}_${account.link}`,
        name: account.suffix,
        type: account.type,
      });
    }
    const rows: Row[] = (generated[u] ?? []).map((tx, i) => {
      const account = ACCOUNTS[tx.account] as (typeof ACCOUNTS)[number];
      const [description, toPlatform] = DESCRIPTIONS[tx.description] as [string, boolean];
      const row: Row = {
        id: `${user}_${String(i).padStart(3, '0')}`,
        date: dateOf(tx.day),
        cents: tx.cents,
        direction: tx.direction,
        toPlatform: toPlatform && tx.direction === 'DEBIT',
        category: CATEGORIES[tx.category] as string,
        accountType: account.type,
        accountId: `${user}_${account.suffix}`,
        linkId: `${user}_${account.link}`,
        hidden: tx.hidden,
        internal: tx.internal,
      };
      tables.transactions?.push({
        id: row.id,
        user_id: user,
        account_id: row.accountId,
        transacted_at: row.date,
        amount: money(tx.cents),
        direction: tx.direction,
        description,
        merchant_name: MERCHANTS[tx.merchant] ?? null,
        category: row.category,
        subcategory: null,
        is_hidden: tx.hidden,
        is_internal_transfer: tx.internal,
      });
      return row;
    });
    rowsByUser.set(user, rows);
  });
  const dir = makeTempDir('spending-properties');
  await writeCsvFixture(dir, tables);
  t = await spendingTestApp(await buildStoreFromCsv(dir), userIds, TODAY);
});
afterAll(() => t.close());

interface Query {
  user: string;
  groupBy: 'category' | 'merchant' | 'time_period';
  timePeriod: 'day' | 'week' | 'month' | 'quarter' | 'year';
  startDay: number;
  categories: string[];
  scope: 'none' | 'link' | 'account';
}

const queryArbitrary: fc.Arbitrary<Query> = fc.record({
  user: fc.constantFrom(...userIds),
  groupBy: fc.constantFrom('category', 'merchant', 'time_period'),
  timePeriod: fc.constantFrom('day', 'week', 'month', 'quarter', 'year'),
  startDay: fc.integer({ min: 0, max: 104 }), // up to today
  categories: fc.subarray([...CATEGORIES], { maxLength: 3 }),
  scope: fc.constantFrom('none', 'link', 'account'),
});

function queryString(query: Query, extra = ''): string {
  const scope =
    query.scope === 'link'
      ? `&link_id=${query.user}_a`
      : query.scope === 'account'
        ? `&account_ids=${query.user}_card`
        : '';
  const categories = query.categories.length
    ? `&categories=${encodeURIComponent(query.categories.join(','))}`
    : '';
  return `group_by=${query.groupBy}&time_period=${query.timePeriod}&start_date=${dateOf(query.startDay)}${scope}${categories}${extra}`;
}

/** The reference: cash-flow basis rows (rules 1-4, 6, scope), then the spending basis. */
function reference(query: Query) {
  const start = dateOf(query.startDay);
  const scoped = (rowsByUser.get(query.user) ?? []).filter(
    (row) =>
      row.date >= start &&
      row.date <= TODAY &&
      !row.hidden &&
      !row.internal &&
      row.accountType !== 'investment' &&
      !row.toPlatform &&
      (query.scope !== 'link' || row.linkId === `${query.user}_a`) &&
      (query.scope !== 'account' || row.accountId === `${query.user}_card`),
  );
  const sum = (rows: Row[]) => rows.reduce((total, row) => total + row.cents, 0);
  const spending = scoped.filter(
    (row) =>
      row.direction === 'DEBIT' &&
      (query.categories.length === 0 || query.categories.includes(row.category)),
  );
  const income = sum(scoped.filter((row) => row.direction === 'CREDIT'));
  const expenses = sum(scoped.filter((row) => row.direction === 'DEBIT'));
  return {
    spendingCents: sum(spending),
    spendingCount: spending.length,
    spending,
    income,
    expenses,
  };
}

const cents = (amount: string) => Math.round(Number(amount) * 100); // small test amounts only
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
async function body(query: Query, extra = ''): Promise<any> {
  const response = await t.get(queryString(query, extra), { user: query.user });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('properties over generated transaction sets', () => {
  it('category totals sum to summary.total_spending when min_total_amount=0', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, async (query) => {
        const result = await body({ ...query, groupBy: 'category' }, '&min_total_amount=0');
        const total = result.spending.by_category.reduce(
          (sum: number, entry: { total_amount: string }) => sum + cents(entry.total_amount),
          0,
        );
        expect(total).toBe(cents(result.summary.total_spending));
        expect(cents(result.summary.total_spending)).toBe(reference(query).spendingCents);
      }),
      { numRuns: RUNS },
    );
  });

  it('transaction_ids length equals transaction_count, and is exactly the counted set', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, fc.boolean(), async (query, includeIncome) => {
        const day = dateOf(query.startDay);
        const response = await t.get(
          `group_by=time_period&time_period=day&start_date=${day}&end_date=${day}&include_income=${includeIncome}`,
          { user: query.user },
        );
        const { spending } = response.json();
        for (const entry of spending.by_time_period) {
          expect(entry.transaction_ids).toHaveLength(entry.transaction_count);
        }
        const spent = spending.by_time_period.find(
          (entry: { flow: string }) => entry.flow === 'spending',
        );
        const expected = reference({ ...query, scope: 'none', categories: [] })
          .spending.filter((row) => row.date === day)
          .map((row) => row.id)
          .sort();
        expect(spent?.transaction_ids ?? []).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('spending entries are identical with and without include_income', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, async (query) => {
        const without = await body(query);
        const withIncome = await body(query, '&include_income=true');
        for (const list of ['by_category', 'by_merchant', 'by_time_period']) {
          const spendingOnly = (entries: { flow: string }[] | null) =>
            entries?.filter((entry) => entry.flow === 'spending') ?? null;
          expect(spendingOnly(withIncome.spending[list])).toEqual(without.spending[list]);
          // spending entries come first
          const flows = (withIncome.spending[list] ?? []).map(
            (entry: { flow: string }) => entry.flow,
          );
          expect(flows).toEqual(
            [...flows].sort((a: string, b: string) => (a === b ? 0 : a === 'spending' ? -1 : 1)),
          );
        }
        expect(withIncome.summary).toEqual(without.summary);
      }),
      { numRuns: RUNS },
    );
  });

  it('total_income and total_expenses are unchanged by categories, include_income and min_total_amount', async () => {
    await fc.assert(
      fc.asyncProperty(
        queryArbitrary,
        fc.boolean(),
        fc.constantFrom('0', '50', '1e9'),
        async (query, includeIncome, min) => {
          const plain = await body({ ...query, categories: [] });
          const narrowed = await body(
            query,
            `&include_income=${includeIncome}&min_total_amount=${min}`,
          );
          expect([narrowed.total_income, narrowed.total_expenses, narrowed.savings_rate]).toEqual([
            plain.total_income,
            plain.total_expenses,
            plain.savings_rate,
          ]);
          const { income, expenses } = reference(query);
          expect([cents(plain.total_income), cents(plain.total_expenses)]).toEqual([
            income,
            expenses,
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('savings_rate: null unless income is positive, otherwise the sign of income - expenses', async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, async (query) => {
        const { savings_rate: savingsRate } = await body(query);
        const { income, expenses } = reference(query);
        if (income === 0) {
          expect(savingsRate).toBeNull();
          return;
        }
        const rate = Number(savingsRate);
        // one decimal: a tiny difference may round to zero
        if (Math.abs((income - expenses) / income) * 100 >= 0.05) {
          expect(Math.sign(rate)).toBe(Math.sign(income - expenses));
        }
        expect(savingsRate).toMatch(/^-?\d+\.\d$/);
      }),
      { numRuns: RUNS },
    );
  });

  it("no other user's transaction is ever counted", async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary, async (query) => {
        const result = await body(query, '&include_income=true&min_total_amount=0');
        const expected = reference(query);
        expect(result.summary.total_transactions).toBe(expected.spendingCount);
        const lists = [
          result.spending.by_category,
          result.spending.by_merchant,
          result.spending.by_time_period,
        ];
        for (const entry of lists.flatMap((list) => list ?? [])) {
          expect(entry.largest_transaction.transaction_id.startsWith(`${query.user}_`)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
