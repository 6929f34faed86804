/**
 * No foreign row, ever: every demo user calls every endpoint, with every filter, including
 * filters that name other users' accounts and links. Every id, external id and email in a
 * response must belong to the caller.
 */

import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { bearer, DEMO_TODAY, DEMO_USERS, demoStoreCopy } from '../helpers/server.ts';
import { openStore, queryStoreFile } from '../helpers/store.ts';

let app: FastifyInstance;
let store: ReadPort;
const tokens = new Map<string, string>();
/** Every identifying string of the store (ids, external ids, emails) -> its owner. */
const owner = new Map<string, string>();
const accountsOf = new Map<string, string[]>();
const linksOf = new Map<string, string[]>();
let allAccounts: string[] = [];
let allLinks: string[] = [];
/** Days on which at least two users have transactions: single-day requests list ids. */
let sharedDays: string[] = [];
/** Identifying strings found in responses (the scan sees ids at all). */
let ownSeen = 0;

const ID_PATTERN = /\b(?:txn|acc|lnk|pst|usr)_[0-9a-z]+\b|\b[A-Z0-9]{24}\b|[\w.+-]+@example\.com/g;

beforeAll(async () => {
  const demo = await demoStoreCopy(DEMO_USERS);
  for (const [i, user] of DEMO_USERS.entries()) tokens.set(user, demo.tokens[i] as string);
  const rows = await queryStoreFile<{ key: string; user_id: string; kind: string }>(
    demo.path,
    `SELECT id AS key, user_id, 'transaction' AS kind FROM transactions
     UNION ALL SELECT external_id, user_id, 'external' FROM transactions WHERE external_id IS NOT NULL
     UNION ALL SELECT id, user_id, 'account' FROM accounts
     UNION ALL SELECT id, user_id, 'link' FROM links
     UNION ALL SELECT id, user_id, 'pay' FROM pay_statements
     UNION ALL SELECT id, id, 'user' FROM users
     UNION ALL SELECT email, id, 'email' FROM users`,
  );
  for (const row of rows) {
    owner.set(row.key, row.user_id);
    if (row.kind === 'account')
      accountsOf.set(row.user_id, [...(accountsOf.get(row.user_id) ?? []), row.key]);
    if (row.kind === 'link')
      linksOf.set(row.user_id, [...(linksOf.get(row.user_id) ?? []), row.key]);
  }
  allAccounts = [...accountsOf.values()].flat().sort();
  allLinks = [...linksOf.values()].flat().sort();
  sharedDays = (
    await queryStoreFile<{ day: string }>(
      demo.path,
      `SELECT transacted_at::DATE::VARCHAR AS day FROM transactions
       GROUP BY 1 HAVING count(DISTINCT user_id) >= 2 ORDER BY 1 LIMIT 40`,
    )
  ).map((row) => row.day);
  store = await openStore(demo.path);
  app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

/** Calls `url` as `user` and checks that everything identifying in the data is the user's. */
async function assertOnlyOwnRows(user: string, url: string): Promise<unknown> {
  const response = await app.inject({ url, headers: bearer(tokens.get(user) as string) });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  const { next: _next, previous: _previous, ...data } = response.json();
  const text = JSON.stringify(data);
  const known = [...text.matchAll(ID_PATTERN)]
    .map((match) => match[0])
    .filter((key) => owner.has(key));
  ownSeen += known.length;
  const foreign = known.filter((key) => owner.get(key) !== user);
  expect(foreign, `${user} ${url}`).toEqual([]);
  return data;
}

const foreignTo = (user: string, of: Map<string, string[]>) =>
  [...of.entries()].filter(([other]) => other !== user).flatMap(([, ids]) => ids);

describe('every endpoint and filter, every user', () => {
  it.each(DEMO_USERS)('%s sees only its own rows', async (user) => {
    const foreignAccounts = foreignTo(user, accountsOf).join(',');
    const foreignLink = foreignTo(user, linksOf)[0] as string;
    const own = (accountsOf.get(user) ?? []).join(',');
    const day = sharedDays[0] as string;
    const urls = [
      '/v1/user',
      '/v1/links',
      '/v1/links?page=1&page_size=10',
      '/v2/users/transactions',
      '/v2/users/transactions?transacted_at_from=2000-01-01&transacted_at_to=2100-01-01&page=2&page_size=100',
      '/v1/users/balances',
      '/v1/users/balance-history?start_date=2025-11-21&time_period=week',
      '/v1/users/income?start_date=2025-01-01',
      '/v1/users/liabilities',
      '/v1/accounts',
      ...['/v2', '/v1'].flatMap((version) => [
        `${version}/users/spending?group_by=category&time_period=month&include_income=true`,
        `${version}/users/spending?group_by=merchant&time_period=week&account_ids=${own},${foreignAccounts}`,
        `${version}/users/spending?group_by=time_period&time_period=month&secondary_group_by=merchant&link_id=${foreignLink}`,
        `${version}/users/spending?group_by=time_period&time_period=day&start_date=${day}&end_date=${day}&include_income=true`,
      ]),
    ];
    const before = ownSeen;
    for (const url of urls) await assertOnlyOwnRows(user, url);
    expect(ownSeen - before).toBeGreaterThan(100);
  });

  it.each(DEMO_USERS)(
    "%s filtering on other users' accounts or links gets nothing",
    async (user) => {
      const foreignAccounts = foreignTo(user, accountsOf);
      for (const filter of [
        `account_ids=${foreignAccounts.join(',')}`,
        ...foreignTo(user, linksOf).map((link) => `link_id=${link}`),
      ]) {
        const data = (await assertOnlyOwnRows(
          user,
          `/v2/users/spending?group_by=category&time_period=month&include_income=true&${filter}`,
        )) as {
          summary: { total_transactions: number };
          spending: { by_category: unknown[] };
          total_income: string;
        };
        expect(data.summary.total_transactions, filter).toBe(0);
        expect(data.spending.by_category, filter).toEqual([]);
        expect(data.total_income, filter).toBe('0.00');
      }
    },
  );

  it('random filter combinations never reveal a foreign row', async () => {
    const user = fc.constantFrom(...DEMO_USERS);
    const dates = fc.constantFrom(...sharedDays, '2025-08-21', '2026-01-01', DEMO_TODAY);
    const spending = fc.record({
      version: fc.constantFrom('/v2', '/v1'),
      group_by: fc.constantFrom('category', 'merchant', 'time_period'),
      time_period: fc.constantFrom('day', 'week', 'month', 'quarter', 'year'),
      secondary_group_by: fc.option(fc.constantFrom('category', 'merchant'), { nil: undefined }),
      account_ids: fc.option(fc.subarray(allAccounts, { maxLength: 6 }), { nil: undefined }),
      link_id: fc.option(fc.constantFrom(...allLinks), { nil: undefined }),
      include_income: fc.boolean(),
      single_day: fc.option(fc.constantFrom(...sharedDays), { nil: undefined }),
      min_total_amount: fc.constantFrom('0', '50.00', '1000'),
    });
    const other = fc.oneof(
      fc
        .tuple(
          dates,
          dates,
          fc.subarray(allAccounts, { maxLength: 4 }),
          fc.option(fc.constantFrom(...allLinks), { nil: undefined }),
        )
        .map(([a, b, accounts, link]) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          return (
            `/v2/users/transactions?transacted_at_from=${from}&transacted_at_to=${to}` +
            `&account_ids=${accounts.join(',')}${link ? `&link_id=${link}` : ''}`
          );
        }),
      fc
        .tuple(dates, fc.constantFrom('day', 'week', 'month'))
        .map(
          ([start, period]) =>
            `/v1/users/balance-history?start_date=${start < DEMO_TODAY ? start : '2026-01-01'}&time_period=${period}`,
        ),
      dates.map((start) => `/v1/users/income?start_date=${start}`),
      fc.integer({ min: 1, max: 3 }).map((page) => `/v1/links?page=${page}&page_size=10`),
    );
    const url = fc.oneof(
      spending.map((q) => {
        const params = new URLSearchParams({
          group_by: q.group_by,
          time_period: q.time_period,
          include_income: String(q.include_income),
          min_total_amount: q.min_total_amount,
        });
        if (q.secondary_group_by) params.set('secondary_group_by', q.secondary_group_by);
        if (q.account_ids) params.set('account_ids', q.account_ids.join(','));
        if (q.link_id) params.set('link_id', q.link_id);
        if (q.single_day) {
          params.set('start_date', q.single_day);
          params.set('end_date', q.single_day);
        }
        return `${q.version}/users/spending?${params}`;
      }),
      other,
    );
    await fc.assert(
      fc.asyncProperty(user, url, async (who, target) => {
        await assertOnlyOwnRows(who, target);
      }),
      { numRuns: 80, seed: 20261123 },
    );
  });
});
