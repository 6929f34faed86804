/**
 * The settled investment-platform cases (helpers/platform-cases.ts) through the spending
 * analysis, on the engine of this run: each case is a DEBIT (and a CREDIT) of its own day, so
 * the days the analysis counts are exactly the cases that are spending. On DuckDB the answer
 * comes from the flag build-db stores; on PostgreSQL from the flag its loader copies.
 */
import { addDays } from 'date-fns/addDays';
import { formatISO } from 'date-fns/formatISO';
import { parseISO } from 'date-fns/parseISO';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpendingTestApp, spendingTestApp } from '../fixtures/spending/app.ts';
import { ALL_PLATFORM_CASES } from '../helpers/platform-cases.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  writeCsvFixture,
} from '../helpers/store.ts';

const USER = 'platforms';
const FIRST_DAY = '2025-06-01';
const dayOf = (i: number) => formatISO(addDays(parseISO(FIRST_DAY), i), { representation: 'date' });
const amountOf = (i: number) => `${i + 1}.00`;

let t: SpendingTestApp;

beforeAll(async () => {
  const transactions: FixtureRow[] = ALL_PLATFORM_CASES.flatMap(([merchant, description], i) =>
    (['DEBIT', 'CREDIT'] as const).map((direction) => ({
      id: `${direction === 'DEBIT' ? 'd' : 'c'}${String(i).padStart(3, '0')}`,
      user_id: USER,
      account_id: 'chk',
      transacted_at: dayOf(i),
      amount: direction === 'DEBIT' ? amountOf(i) : `${1000 + i}.00`,
      direction,
      description,
      merchant_name: merchant,
      category: direction === 'DEBIT' ? 'General Merchandise' : 'Income',
      subcategory: null,
      is_hidden: false,
      is_internal_transfer: false,
    })),
  );
  const dir = makeTempDir('platform-transfers');
  await writeCsvFixture(dir, {
    users: [{ id: USER, name: 'P', email: 'p@example.com', created_at: '2024-01-01T00:00:00Z' }],
    links: [
      {
        id: 'bank',
        user_id: USER,
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2024-01-01T00:00:00Z',
      },
    ],
    accounts: [{ id: 'chk', user_id: USER, link_id: 'bank', name: 'chk', type: 'depository' }],
    transactions,
  });
  t = await spendingTestApp(await buildStoreFromCsv(dir), [USER]);
});
afterAll(() => t.close());

describe('settled platform cases: a transfer to a platform is not spending, on this engine', () => {
  it('the counted days are exactly the cases that are spending; platform credits stay income', async () => {
    const response = await t.get(
      `group_by=time_period&time_period=day&start_date=${FIRST_DAY}&min_total_amount=0`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const counted = new Map<string, string>(
      body.spending.by_time_period.map((entry: { end_date: string; total_amount: string }) => [
        entry.end_date,
        entry.total_amount,
      ]),
    );
    const mismatches = ALL_PLATFORM_CASES.filter(
      ([, , transfer], i) => counted.has(dayOf(i)) === transfer,
    ).map(([merchant, description, transfer]) => ({ merchant, description, transfer }));
    expect(mismatches).toEqual([]);
    const spending = ALL_PLATFORM_CASES.flatMap(([, , transfer], i) => (transfer ? [] : [i]));
    expect(Object.fromEntries(counted)).toEqual(
      Object.fromEntries(spending.map((i) => [dayOf(i), amountOf(i)])),
    );
    const cents = (list: number[], each: (i: number) => number) =>
      list.reduce((sum, i) => sum + each(i), 0);
    const all = ALL_PLATFORM_CASES.map((_, i) => i);
    expect(body.total_expenses).toBe(cents(spending, (i) => i + 1).toFixed(2));
    expect(body.total_income).toBe(cents(all, (i) => 1000 + i).toFixed(2));
  });
});
