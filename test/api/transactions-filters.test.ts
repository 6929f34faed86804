/**
 * Transaction filters and the one-transaction lookup, against the finance fixture.
 * Each filter's expected rows are counted here from the fixture's own rows in plain
 * JavaScript, never by the SQL under test.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import {
  FINANCE_TABLES,
  type FinanceFixture,
  openFinanceFixture,
} from '../fixtures/api/finance.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

let fx: FinanceFixture;
beforeAll(async () => {
  fx = await openFinanceFixture();
});
afterAll(() => fx.close());

type Row = Record<string, string | boolean | null>;
const rows = FINANCE_TABLES.transactions as Row[];
const accountLink = new Map(
  (FINANCE_TABLES.accounts as Row[]).map((account) => [account.id, account.link_id]),
);
const u1 = rows.filter((row) => row.user_id === 'u1');
/** The ids the API must list, newest first then id descending. */
const expected = (keep: (row: Row) => boolean) =>
  u1
    .filter(keep)
    .sort(
      (a, b) =>
        String(b.transacted_at).localeCompare(String(a.transacted_at)) ||
        String(b.id).localeCompare(String(a.id)),
    )
    .map((row) => row.id);
const cents = (amount: unknown) => Math.round(Number(amount) * 100);

async function list(query: string, headers = fx.u1) {
  const response = await fx.app.inject({ url: `/v2/users/transactions?${query}`, headers });
  return { status: response.statusCode, body: response.json() };
}
const ids = (body: { transactions: { id: string }[] }) => body.transactions.map((t) => t.id);

describe('transaction filters, each against a count from the fixture', () => {
  it.each<[string, (row: Row) => boolean]>([
    ['account_ids=a_card', (row) => row.account_id === 'a_card'],
    [
      'account_ids=a_card,a_sav&account_ids=a_loan',
      (row) => ['a_card', 'a_sav', 'a_loan'].includes(String(row.account_id)),
    ],
    ['link_id=l_bank', (row) => accountLink.get(String(row.account_id)) === 'l_bank'],
    ['categories=transfer%20in', (row) => row.category === 'Transfer In'],
    ['direction=CREDIT', (row) => row.direction === 'CREDIT'],
    [
      'min_amount=50&max_amount=60.5',
      (row) => cents(row.amount) >= 5000 && cents(row.amount) <= 6050,
    ],
    ['min_amount=49.999', (row) => cents(row.amount) >= 5000],
    [
      'q=corner%20SHOP',
      (row) =>
        String(row.merchant_name ?? '')
          .toLowerCase()
          .includes('corner shop'),
    ],
    ['q=t01', (row) => String(row.description).toLowerCase().includes('t01')],
    [
      'direction=DEBIT&account_ids=a_chk&transacted_at_from=2026-01-05&transacted_at_to=2026-01-20',
      (row) =>
        row.direction === 'DEBIT' &&
        row.account_id === 'a_chk' &&
        String(row.transacted_at) >= '2026-01-05' &&
        String(row.transacted_at) <= '2026-01-20',
    ],
  ])('%s', async (query, keep) => {
    const { status, body } = await list(query);
    expect(status, JSON.stringify(body)).toBe(200);
    const want = expected(keep);
    expect(want.length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(want);
    expect(body.count).toBe(want.length);
    // daily_totals cover the matching transactions of each listed day.
    const days = new Set(body.transactions.map((t: { transacted_at: string }) => t.transacted_at));
    expect(body.daily_totals.map((d: { date: string }) => d.date).sort()).toEqual([...days].sort());
    const countOf = (day: string) =>
      u1.filter((row) => keep(row) && row.transacted_at === day).length;
    for (const total of body.daily_totals) expect(total.count).toBe(countOf(total.date));
  });

  it('foreign or unknown ids, links and texts match nothing, never an error', async () => {
    for (const query of ['account_ids=zz_a_chk', 'link_id=zz_l_bank', 'q=zzz-nothing', 'q=%25']) {
      const { status, body } = await list(query);
      expect(status).toBe(200);
      expect(body.transactions).toEqual([]);
    }
    // `_` is a character, not a wildcard: no description holds "PURCHASE_".
    expect((await list('q=purchase_')).body.transactions).toEqual([]);
  });

  it('empty filters are no filters', async () => {
    const all = ids((await list('')).body);
    expect(ids((await list('account_ids=&link_id=&categories=&q=')).body)).toEqual(all);
    expect(ids((await list('account_ids=,&categories=%20,%20&account_ids=')).body)).toEqual(all);
  });

  it('an empty value of any other parameter answers FastAPI’s 422 for its type (docs/api.md)', async () => {
    const empty: Array<[path: string, base: string, parameters: Record<string, string>]> = [
      [
        '/v2/users/spending',
        'group_by=category&time_period=month',
        {
          start_date: 'date_from_datetime_parsing',
          end_date: 'date_from_datetime_parsing',
          min_total_amount: 'decimal_parsing',
          include_income: 'bool_parsing',
          secondary_group_by: 'enum',
        },
      ],
      ['/v2/users/spending', 'time_period=month', { group_by: 'enum' }],
      ['/v2/users/spending', 'group_by=category', { time_period: 'enum' }],
      [
        '/v2/users/transactions',
        '',
        {
          transacted_at_from: 'date_from_datetime_parsing',
          transacted_at_to: 'date_from_datetime_parsing',
          direction: 'enum',
          min_amount: 'decimal_parsing',
          max_amount: 'decimal_parsing',
          page: 'int_parsing',
          page_size: 'int_parsing',
        },
      ],
      ['/v1/links', '', { page: 'int_parsing', page_size: 'int_parsing' }],
      [
        '/v1/users/balance-history',
        '',
        {
          start_date: 'date_from_datetime_parsing',
          end_date: 'date_from_datetime_parsing',
          time_period: 'enum',
        },
      ],
      [
        '/v1/users/income',
        '',
        { start_date: 'date_from_datetime_parsing', end_date: 'date_from_datetime_parsing' },
      ],
    ];
    for (const [path, base, parameters] of empty) {
      for (const [name, type] of Object.entries(parameters)) {
        const url = `${path}?${base ? `${base}&` : ''}${name}=`;
        const response = await fx.app.inject({ url, headers: fx.u1 });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().detail, url).toEqual([
          expect.objectContaining({ type, loc: ['query', name], input: '' }),
        ]);
      }
    }
    // And these are no filter on spending too.
    const spending = (query: string) =>
      fx.app.inject({
        url: `/v2/users/spending?group_by=category&time_period=month${query}`,
        headers: fx.u1,
      });
    const plain = (await spending('')).json().summary;
    expect((await spending('&link_id=&account_ids=&categories=')).json().summary).toEqual(plain);
  });

  it('combine with pagination: following next yields exactly the filtered list', async () => {
    const query = 'account_ids=a_chk,a_card&min_amount=10';
    const whole = ids((await list(query)).body);
    const walked: string[] = [];
    let url: string | null = `/v2/users/transactions?${query}&page_size=10`;
    while (url) {
      const response = await fx.app.inject({ url, headers: fx.u1 });
      const body: { transactions: { id: string }[]; count: number; next: string | null } =
        response.json();
      expect(decodeURIComponent(url)).toContain('account_ids=a_chk,a_card&min_amount=10');
      walked.push(...ids(body));
      expect(body.count).toBe(whole.length);
      url = body.next;
    }
    expect(walked).toEqual(whole);
  });

  it('422s: reversed dates, reversed amounts, unknown category, bad direction, bad decimal', async () => {
    const reversed = await list('transacted_at_from=2026-02-01&transacted_at_to=2026-01-01');
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['query', 'transacted_at_from'],
        msg: 'Value error, transacted_at_from must be on or before transacted_at_to',
        input: '2026-02-01',
        ctx: { error: {} },
      },
    ]);
    const amounts = await list('min_amount=10&max_amount=9.99&categories=Food');
    expect(amounts.status).toBe(422);
    expect(amounts.body.detail.map((item: { loc: string[] }) => item.loc[1])).toEqual([
      'categories',
      'min_amount',
    ]);
    expect(amounts.body.detail[0].msg).toContain(
      "unknown category 'Food'; valid categories: Income",
    );
    const enums = await list('direction=debit&min_amount=abc');
    expect(enums.status).toBe(422);
    expect(enums.body.detail.map((item: { type: string }) => item.type)).toEqual([
      'enum',
      'decimal_parsing',
    ]);
  });
});

describe('GET /v2/users/transactions/{id}', () => {
  it('answers the transaction as the list shows it', async () => {
    const listed = (await list('')).body.transactions[3];
    const response = await fx.app.inject({
      url: `/v2/users/transactions/${listed.id}`,
      headers: fx.u1,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(listed);
  });

  it("another user's id and an id that does not exist answer the same 404", async () => {
    const foreign = await fx.app.inject({ url: '/v2/users/transactions/zz_t000', headers: fx.u1 });
    const missing = await fx.app.inject({ url: '/v2/users/transactions/zz_t999', headers: fx.u1 });
    for (const response of [foreign, missing]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not Found' });
    }
    // The owner sees it.
    const own = await fx.app.inject({ url: '/v2/users/transactions/zz_t000', headers: fx.u2 });
    expect(own.statusCode).toBe(200);
  });

  it('needs a token', async () => {
    expect((await fx.app.inject({ url: '/v2/users/transactions/t000' })).statusCode).toBe(401);
  });
});

describe('q: one case folding of the query and the stored text, in every script', () => {
  const user = 'texts';
  /** [description, merchant name] */
  const FIXED: Array<[string, string | null]> = [
    ['ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ ΑΘΗΝΑ', null],
    ['POS 4411', 'İSTANBUL KEBAP EVİ'],
    ['КОФЕЙНЯ ПУШКИН МОСКВА', null],
    ['GROẞE STRASSE BÄCKEREI', 'Bäckerei Groß'],
    ['\u212Aelvin Lab', null],
  ];
  /** Any code point but controls, the surrogates and NUL; weighted towards cased scripts. */
  const character = fc.oneof(
    fc.integer({ min: 0x20, max: 0x10ffff - 0x800 }).map((n) => (n >= 0xd800 ? n + 0x800 : n)),
    fc.integer({ min: 0x41, max: 0x24f }),
    fc.integer({ min: 0x370, max: 0x52f }),
    fc.constantFrom(0x130, 0x131, 0x3a3, 0x3c2, 0x1e9e, 0x212a, 0x20),
  );
  const drawn = fc.sample(
    fc.tuple(
      fc.array(character, { minLength: 1, maxLength: 20 }),
      fc.option(fc.array(character, { minLength: 1, maxLength: 12 }), { nil: null }),
    ),
    { numRuns: 120, seed: 2024 },
  );
  const texts: Array<[string, string | null]> = [
    ...FIXED,
    ...drawn.map(([description, merchant]): [string, string | null] => [
      `x${String.fromCodePoint(...description)}`,
      merchant && String.fromCodePoint(...merchant),
    ]),
  ];
  let app: Awaited<ReturnType<typeof buildApp>>;
  let headers: { authorization: string };

  beforeAll(async () => {
    const dir = makeTempDir('texts');
    await writeCsvFixture(dir, {
      users: [{ id: user, name: 'T', email: 't@example.com', created_at: '2024-01-01 00:00:00' }],
      links: [
        {
          id: 'bank',
          user_id: user,
          type: 'institution',
          name: 'Bank',
          status: 'active',
          created_at: '2024-01-01 00:00:00',
        },
      ],
      accounts: [{ id: 'chk', user_id: user, link_id: 'bank', name: 'chk', type: 'depository' }],
      transactions: texts.map(
        ([description, merchant], i): FixtureRow => ({
          id: `t${String(i).padStart(3, '0')}`,
          user_id: user,
          account_id: 'chk',
          transacted_at: '2026-01-02',
          amount: '1.00',
          direction: 'DEBIT',
          description,
          merchant_name: merchant,
          category: 'General Merchandise',
        }),
      ),
    });
    const databasePath = await buildStoreFromCsv(dir);
    headers = { authorization: `Bearer ${await mintTestToken(databasePath, user)}` };
    app = await buildApp({
      store: await openStore(databasePath),
      clock: createClock('2026-03-15'),
    });
  });
  afterAll(() => app.close());

  async function search(q: string): Promise<string[]> {
    const response = await app.inject({
      url: `/v2/users/transactions?q=${encodeURIComponent(q)}`,
      headers,
    });
    expect(response.statusCode, `${JSON.stringify(q)}: ${response.body}`).toBe(200);
    return ids(response.json());
  }

  it.each([
    ['ΠΑΡΑΔΕΙΣΟΣ', 't000'],
    ['παραδεισοσ', 't000'],
    ['Ο ΠΑΡΑΔΕΙΣΟΣ ΑΘΗΝΑ', 't000'],
    ['İSTANBUL', 't001'],
    ['istanbul kebap evi', 't001'],
    ['İstanbul KEBAP EVİ', 't001'],
    ['пушкин', 't002'],
    ['GROẞE', 't003'],
    ['BÄCKEREI', 't003'],
    ['kelvin', 't004'],
  ])('q=%s finds %s', async (q, id) => {
    expect(await search(q)).toEqual([id]);
  });

  it('an exact copy of any part of a stored description or merchant name finds it', async () => {
    // The texts as stored and listed; a part of each, drawn by code point.
    const listed = (await app.inject({ url: '/v2/users/transactions', headers })).json()
      .transactions as Array<{ id: string; description: string; merchant_name: string | null }>;
    expect(listed).toHaveLength(texts.length);
    const picks = fc.sample(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean()), {
      numRuns: listed.length,
      seed: 24,
    });
    const misses: unknown[] = [];
    for (const [k, transaction] of listed.entries()) {
      const [a, b, c, fromMerchant] = picks[k] as [number, number, number, boolean];
      const stored = [...((fromMerchant && transaction.merchant_name) || transaction.description)];
      const start = a % stored.length;
      const q = stored.slice(start, start + 1 + ((b + c) % (stored.length - start))).join('');
      if (!(await search(q)).includes(transaction.id)) misses.push({ id: transaction.id, q });
    }
    expect(misses).toEqual([]);
  });
});
