/**
 * The working set answers exactly as the engine does: over the demo store (five users of a year
 * and more, every flag and filter value) and a store of hard texts and ids (non-ASCII case
 * folding, ids ordered by code point, not UTF-16), random filters, pages, counts, chunks,
 * lookups by id and by id order, spending analyses of random shapes and windows, and recurring
 * streams in random scopes are read through a port holding users in memory and through one
 * answering every read from the engine, and compared value for value.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendingBody } from '../../src/areas/spending/body.ts';
import { TIME_PERIODS } from '../../src/domain/calendar.ts';
import { foldCase } from '../../src/domain/case-fold.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { planStreams, shapeStreams } from '../../src/domain/recurring/streams.ts';
import { GROUP_BYS, SECONDARY_GROUP_BYS } from '../../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../../src/domain/spending/shape.ts';
import type {
  PageWindow,
  ReadPort,
  TransactionFilters,
  TransactionRecord,
  TransactionsPage,
} from '../../src/port/read-port.ts';
import { DEMO_USERS } from '../../tools/demo-data/demo.ts';
import { spendingQuery } from '../helpers/spending-query.ts';
import {
  buildDemoStore,
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  NO_FILTERS,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

/** Amounts as the API writes them: engines may spell stored decimals differently. */
const written = (row: TransactionRecord) => ({ ...row, amount: formatMoney(row.amount) });
const writtenPage = (page: TransactionsPage) => ({
  total: page.total,
  rows: page.rows.map(written),
  dailyTotals: page.dailyTotals.map((day) => ({
    ...day,
    debits: formatMoney(day.debits),
    credits: formatMoney(day.credits),
  })),
});

interface Pair {
  held: ReadPort;
  engine: ReadPort;
  users: string[];
  /** Values the drawn filters pick from: the users' own and foreign ones. */
  accounts: string[];
  links: string[];
  texts: string[];
  ids: string[];
}

async function pairOn(path: string, users: string[]): Promise<Pair> {
  const held = await openStore(path);
  const engine = await openStore(path, { workingSet: null });
  const rows: TransactionRecord[] = [];
  for (const user of users) {
    rows.push(...(await engine.transactions(user, NO_FILTERS, { limit: null, offset: 0 })).rows);
  }
  const links = new Set<string>();
  for (const user of users)
    for (const account of await engine.accounts(user)) links.add(account.link_id);
  const texts = rows.flatMap((row) => [row.description, row.merchant_name ?? '']);
  return {
    held,
    engine,
    users,
    accounts: [...new Set(rows.map((row) => row.account_id)), 'acc_nobody'],
    links: [...links, 'lnk_nobody'],
    texts,
    ids: [...rows.map((row) => row.id), 'txn_nobody'],
  };
}

const CATEGORY_NAMES = [
  'Food and Drink',
  'Income',
  'Transfer Out',
  'General Merchandise',
  'Travel',
];

/** Filters drawn from the pair's values: each filter used or not, texts cut and recased. */
function filtersOf(pair: Pair): fc.Arbitrary<TransactionFilters> {
  const date = fc
    .integer({ min: 0, max: 500 })
    .map((days) => new Date(Date.UTC(2025, 6, 1) + days * 86_400_000).toISOString().slice(0, 10));
  const amount = fc.integer({ min: 0, max: 300_000 }).map((cents) => (cents / 100).toFixed(2));
  const text = fc
    .tuple(fc.constantFrom(...pair.texts), fc.nat(), fc.nat(), fc.boolean())
    .map(([whole, a, b, upper]) => {
      const start = whole.length === 0 ? 0 : a % whole.length;
      const cut = whole.slice(start, start + 1 + (b % 8));
      return foldCase(upper ? cut.toUpperCase() : cut);
    })
    .filter((text) => text.length > 0);
  return fc.record({
    from: fc.option(date, { nil: null }),
    to: fc.option(date, { nil: null }),
    accountIds: fc.subarray(pair.accounts, { maxLength: 3 }),
    linkId: fc.option(fc.constantFrom(...pair.links), { nil: null }),
    categories: fc.subarray(CATEGORY_NAMES, { maxLength: 2 }) as fc.Arbitrary<never[]>,
    direction: fc.option(fc.constantFrom('DEBIT' as const, 'CREDIT' as const), { nil: null }),
    minAmount: fc.option(amount, { nil: null }),
    maxAmount: fc.option(amount, { nil: null }),
    text: fc.option(text, { nil: null }),
  });
}

const pageOf: fc.Arbitrary<PageWindow> = fc.oneof(
  fc.record({ limit: fc.integer({ min: 1, max: 60 }), offset: fc.integer({ min: 0, max: 400 }) }),
  fc.constant({ limit: null, offset: 0 }),
);

async function collect(chunks: AsyncIterable<TransactionRecord[]>): Promise<TransactionRecord[]> {
  const all: TransactionRecord[] = [];
  for await (const chunk of chunks) all.push(...chunk);
  return all;
}

function equivalence(name: string, open: () => Promise<Pair>) {
  describe(name, () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await open();
    }, 240_000);
    afterAll(async () => {
      await pair?.held.close();
      await pair?.engine.close();
    });

    it('lists, counts and chunks every filter and page alike', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...pair.users),
          filtersOf(pair),
          pageOf,
          async (user, filters, page) => {
            const [held, engine] = await Promise.all(
              [pair.held, pair.engine].map((port) => port.transactions(user, filters, page)),
            );
            expect(writtenPage(held as TransactionsPage)).toEqual(
              writtenPage(engine as TransactionsPage),
            );
            expect(await pair.held.transactionCount(user, filters)).toBe(
              await pair.engine.transactionCount(user, filters),
            );
            const [heldRows, engineRows] = await Promise.all(
              [pair.held, pair.engine].map((port) =>
                collect(port.transactionChunks(user, filters)),
              ),
            );
            expect((heldRows as TransactionRecord[]).map(written)).toEqual(
              (engineRows as TransactionRecord[]).map(written),
            );
          },
        ),
        { numRuns: process.env.TEST_ENGINE === 'postgres' ? 60 : 150 },
      );
    }, 300_000);

    it('analyses spending alike, in every shape, window and scope', async () => {
      const day = fc
        .integer({ min: 0, max: 520 })
        .map((days) =>
          new Date(Date.UTC(2025, 6, 1) + days * 86_400_000).toISOString().slice(0, 10),
        );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...pair.users),
          fc.constantFrom(...GROUP_BYS),
          fc.constantFrom(...TIME_PERIODS),
          fc.option(fc.constantFrom(...SECONDARY_GROUP_BYS), { nil: null }),
          fc.tuple(day, day),
          fc.option(fc.constantFrom(...pair.links), { nil: null }),
          fc.subarray(pair.accounts, { maxLength: 2 }),
          fc.subarray(CATEGORY_NAMES, { maxLength: 2 }),
          fc.boolean(),
          async (
            user,
            groupBy,
            timePeriod,
            secondary,
            [a, b],
            linkId,
            accountIds,
            categories,
            income,
          ) => {
            const query = spendingQuery({
              userId: user,
              window: a <= b ? { start: a, end: b } : { start: b, end: a },
              groupBy,
              timePeriod,
              secondaryGroupBy: groupBy === 'time_period' ? secondary : null,
              linkId,
              accountIds,
              categories,
              includeIncome: income,
            });
            const [held, engine] = await Promise.all(
              [pair.held, pair.engine].map(async (port) =>
                spendingBody(shapeSpendingAnalysis(query, await port.spendingAggregates(query))),
              ),
            );
            expect(held).toEqual(engine);
          },
        ),
        { numRuns: process.env.TEST_ENGINE === 'postgres' ? 60 : 150 },
      );
    }, 300_000);

    it('finds the same recurring streams, in every scope', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...pair.users),
          fc.option(fc.constantFrom(...pair.links), { nil: null }),
          fc.subarray(pair.accounts, { maxLength: 2 }),
          fc.constantFrom('2026-11-20', '2026-06-30', '2025-12-31'),
          async (user, linkId, accountIds, through) => {
            const scope = { userId: user, through, linkId, accountIds };
            const [held, engine] = await Promise.all(
              [pair.held, pair.engine].map(async (port) => {
                const plan = planStreams(await port.recurringKeyDays(scope));
                const rows =
                  plan.candidates.size > 0 ? await port.recurringRows(scope, plan.texts) : [];
                return shapeStreams(user, through, plan, rows);
              }),
            );
            expect(held).toEqual(engine);
          },
        ),
        { numRuns: process.env.TEST_ENGINE === 'postgres' ? 30 : 60 },
      );
    }, 300_000);

    it('finds each transaction, and pages by id, alike', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...pair.users),
          fc.constantFrom(...pair.ids),
          fc.option(fc.constantFrom(...pair.ids), { nil: null }),
          fc.integer({ min: 1, max: 40 }),
          async (user, id, after, limit) => {
            const [held, engine] = await Promise.all(
              [pair.held, pair.engine].map((port) => port.transaction(user, id)),
            );
            expect(held && written(held)).toEqual(engine && written(engine));
            const [heldPage, enginePage] = await Promise.all(
              [pair.held, pair.engine].map((port) => port.transactionsById(user, after, limit)),
            );
            expect((heldPage as TransactionRecord[]).map(written)).toEqual(
              (enginePage as TransactionRecord[]).map(written),
            );
          },
        ),
        { numRuns: process.env.TEST_ENGINE === 'postgres' ? 60 : 150 },
      );
    }, 300_000);
  });
}

/** Texts that fold in non-ASCII ways, and ids whose code point order is not their UTF-16 order. */
const HARD_IDS = ['txn_a', 'txn_\u{ff5e}', 'txn_\u{1f600}', 'txn_Z', 'txn_\u00e9', 'txn_b\u0301'];
const HARD_TEXTS = [
  'ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ',
  'İSTANBUL KEBAP EVİ',
  'GROẞE BÄCKEREI',
  'КНИЖНЫЙ ПУШКИН',
  'Kelvin \u212a shop',
  'plain corner shop',
];

function hardTables(): Record<string, FixtureRow[]> {
  const user = {
    id: 'usr_h',
    name: 'H',
    email: 'h@example.com',
    created_at: '2025-01-01T00:00:00Z',
  };
  const link = {
    id: 'lnk_h',
    user_id: 'usr_h',
    type: 'institution',
    name: 'Bank',
    status: 'active',
    created_at: '2025-01-01T00:00:00Z',
  };
  const accounts = [
    { id: 'acc_h1', user_id: 'usr_h', link_id: 'lnk_h', name: 'Checking', type: 'depository' },
    { id: 'acc_h2', user_id: 'usr_h', link_id: 'lnk_h', name: 'Brokerage', type: 'investment' },
  ];
  const transactions = HARD_IDS.flatMap((id, i) =>
    HARD_TEXTS.map((text, j) => ({
      id: `${id}${j}`,
      user_id: 'usr_h',
      account_id: j % 2 ? 'acc_h2' : 'acc_h1',
      // Several rows a day: the id decides their order within it.
      transacted_at: `2026-0${1 + (j % 3)}-1${i % 3}`,
      amount: (((i + 1) * (j + 3) * 137) / 100).toFixed(2),
      direction: j === 4 ? 'CREDIT' : 'DEBIT',
      description: text,
      merchant_name: j % 3 === 0 ? null : (text.split(' ')[0] as string),
      category: CATEGORY_NAMES[(i + j) % CATEGORY_NAMES.length] as string,
      is_hidden: i === 2 ? 'true' : 'false',
    })),
  );
  return { users: [user], links: [link], accounts, transactions };
}

equivalence('the working set and the engine, on the demo store', async () =>
  pairOn(await buildDemoStore(), DEMO_USERS.slice(0, 3)),
);
equivalence('the working set and the engine, on hard texts and ids', async () => {
  const source = makeTempDir('hard-texts');
  await writeCsvFixture(source, hardTables());
  return pairOn(await buildStoreFromCsv(source), ['usr_h']);
});
