/**
 * The transaction list as a file (docs/api.md, "Formats"), on each engine: CSV read back by
 * csv-parse, NDJSON line by line and Parquet read by DuckDB (read_parquet in the test's own
 * instance) hold exactly the JSON list's transactions, over every filter, a page and an empty
 * result; non-ASCII text and formula-like cells are written byte for byte as documented (the
 * same bytes on both engines); negotiation (406, `format` winning, 422 on a bad `format`),
 * ETag and 304 per format, compression, the file name.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { type FinanceFixture, openFinanceFixture } from '../fixtures/api/finance.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

type Listed = Record<string, string | boolean | null>;

const FIELDS = [
  'id',
  'external_id',
  'account_id',
  'transacted_at',
  'amount',
  'direction',
  'description',
  'merchant_name',
  'category',
  'subcategory',
  'merchant_category_code',
  'is_hidden',
  'is_internal_transfer',
  'is_investment_account',
];
const FLAGS = new Set(['is_hidden', 'is_internal_transfer', 'is_investment_account']);
const HEADER = `${FIELDS.join(',')}\r\n`;

let fx: FinanceFixture;
let duckdb: DuckDBInstance;
const scratch = makeTempDir('exports');
let files = 0;

beforeAll(async () => {
  fx = await openFinanceFixture();
  duckdb = await DuckDBInstance.create(':memory:');
});
afterAll(async () => {
  await fx.close();
  duckdb.closeSync();
});

async function get(url: string, headers: Record<string, string> = {}, app = fx.app) {
  return app.inject({ url, headers: { ...fx.u1, ...headers } });
}

/** The JSON list's transactions for the same query, as parsed JSON. */
async function jsonTransactions(query: string, app = fx.app, auth = fx.u1): Promise<Listed[]> {
  const response = await app.inject({ url: `/v2/users/transactions?${query}`, headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().transactions;
}

/**
 * CSV as a reader gets it back, in the list's values: an unquoted empty cell is null, flags
 * are booleans, and a text cell that begins with `'` loses that one `'` (the documented
 * decoding of the formula guard).
 */
function fromCsv(body: string): Listed[] {
  expect(body.startsWith(HEADER)).toBe(true);
  const records: Record<string, string | null>[] = parse(body, {
    columns: true,
    cast: (value, context) => (value === '' && !context.quoting ? null : value),
  });
  return records.map((record) =>
    Object.fromEntries(
      FIELDS.map((field) => {
        const value = record[field] ?? null;
        if (FLAGS.has(field)) return [field, value === 'true'];
        if (value?.startsWith("'")) return [field, value.slice(1)];
        return [field, value];
      }),
    ),
  );
}

/** Each NDJSON line, which must be the bytes the JSON list writes for its transaction. */
function fromNdjson(body: string, expected: Listed[]): Listed[] {
  const lines = body === '' ? [] : body.split('\n');
  expect(lines.pop() ?? '').toBe('');
  expect(lines).toEqual(expected.map((transaction) => JSON.stringify(transaction)));
  return lines.map((line) => JSON.parse(line));
}

/** A Parquet body's rows, read by DuckDB, and its columns with their types. */
async function fromParquet(bytes: Buffer) {
  const path = join(scratch, `list-${files++}.parquet`);
  await writeFile(path, bytes);
  const connection = await duckdb.connect();
  try {
    const rows = (
      await connection.runAndReadAll(`SELECT * FROM read_parquet('${path}')`)
    ).getRowObjectsJson() as Listed[];
    const columns = (
      await connection.runAndReadAll(
        `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${path}'))`,
      )
    ).getRowObjectsJson();
    return { rows, columns };
  } finally {
    connection.closeSync();
  }
}

/** The file of `query` in `format`, read back: the JSON list's transactions or not. */
async function exported(format: 'csv' | 'ndjson' | 'parquet', query: string, app = fx.app) {
  const response = await get(`/v2/users/transactions?${query}&format=${format}`, {}, app);
  expect(response.statusCode, response.body).toBe(200);
  if (format === 'csv') return fromCsv(response.body);
  const expected = await jsonTransactions(query, app);
  if (format === 'ndjson') return fromNdjson(response.body, expected);
  return (await fromParquet(response.rawPayload)).rows;
}

const FILTERS = [
  '',
  'account_ids=a_card,a_sav&account_ids=a_loan',
  'link_id=l_bank',
  'categories=transfer%20in',
  'direction=CREDIT',
  'min_amount=50&max_amount=60.5',
  'q=corner%20SHOP',
  'direction=DEBIT&account_ids=a_chk&transacted_at_from=2026-01-05&transacted_at_to=2026-01-20',
];

describe('every format holds the JSON list’s transactions, value for value', () => {
  it.each(
    FILTERS.flatMap((query) => (['csv', 'ndjson', 'parquet'] as const).map((f) => [f, query])),
  )('%s, filters %j', async (format, query) => {
    const expected = await jsonTransactions(query);
    expect(expected.length).toBeGreaterThan(0);
    expect(await exported(format as 'csv', query)).toEqual(expected);
  });

  it.each(['csv', 'ndjson', 'parquet'] as const)(
    '%s: a page, and a page past the end',
    async (format) => {
      for (const query of [
        'page=2&page_size=10',
        'categories=Income&page=1&page_size=10',
        'page=99&page_size=10',
      ]) {
        expect(await exported(format, query), query).toEqual(await jsonTransactions(query));
      }
    },
  );

  it('an empty result: a header row, an empty body, a Parquet file of no rows', async () => {
    const none = 'q=zzz-nothing';
    expect((await get(`/v2/users/transactions?${none}&format=csv`)).body).toBe(HEADER);
    const ndjson = await get(`/v2/users/transactions?${none}&format=ndjson`);
    expect([ndjson.statusCode, ndjson.body]).toEqual([200, '']);
    const parquet = await fromParquet(
      (await get(`/v2/users/transactions?${none}&format=parquet`)).rawPayload,
    );
    expect(parquet.rows).toEqual([]);
    expect(parquet.columns).toEqual(
      FIELDS.map((name) => ({
        column_name: name,
        column_type:
          name === 'amount'
            ? 'DECIMAL(38,2)'
            : name === 'transacted_at'
              ? 'DATE'
              : FLAGS.has(name)
                ? 'BOOLEAN'
                : 'VARCHAR',
      })),
    );
  });
});

describe('text from banks: non-ASCII, quotes, separators and formula-like cells', () => {
  const user = 'u_texts';
  let app: FastifyInstance;
  let auth: { authorization: string };
  /** Description, merchant (null: none); newest first by id, one day. */
  const texts: [string, string | null][] = [
    ['ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ', 'Ταβέρνα'],
    ['İSTANBUL KEBAP EVİ', null],
    ['北京烤鸭 🦆', '全聚德'],
    ['CAFÉ "LE PETIT", PARIS', 'Café, "Le Petit"'],
    ['=HYPERLINK("http://evil.example","click")', '+SUM(A1:A9)'],
    ["-2+3+cmd|' /C calc'!A0", '@SUM(1,2)'],
    ['two\nlines', 'O’Brien'],
  ];

  beforeAll(async () => {
    const dir = makeTempDir('export-texts');
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
          id: `t${i}`,
          external_id: i % 2 === 0 ? `=ext${i}` : null,
          user_id: user,
          account_id: 'chk',
          transacted_at: '2026-01-02',
          amount: `${i + 1}234.5${i}`,
          direction: i === 3 ? 'CREDIT' : 'DEBIT',
          description,
          merchant_name: merchant,
          category: 'General Merchandise',
          is_hidden: i === 1,
        }),
      ),
    });
    const databasePath = await buildStoreFromCsv(dir);
    auth = { authorization: `Bearer ${await mintTestToken(databasePath, user)}` };
    app = await buildApp({
      store: await openStore(databasePath),
      clock: createClock('2026-03-15'),
    });
  });
  afterAll(() => app.close());

  const file = async (format: string) =>
    app.inject({ url: `/v2/users/transactions?format=${format}`, headers: auth });

  it('CSV: exactly these bytes, guarded and quoted as documented', async () => {
    expect((await file('csv')).body).toBe(
      HEADER +
        [
          `t6,'=ext6,chk,2026-01-02,7234.56,DEBIT,"two\nlines",O’Brien,General Merchandise,,,false,false,false`,
          `t5,,chk,2026-01-02,6234.55,DEBIT,'-2+3+cmd|' /C calc'!A0,"'@SUM(1,2)",General Merchandise,,,false,false,false`,
          `t4,'=ext4,chk,2026-01-02,5234.54,DEBIT,"'=HYPERLINK(""http://evil.example"",""click"")",'+SUM(A1:A9),General Merchandise,,,false,false,false`,
          `t3,,chk,2026-01-02,4234.53,CREDIT,"CAFÉ ""LE PETIT"", PARIS","Café, ""Le Petit""",General Merchandise,,,false,false,false`,
          `t2,'=ext2,chk,2026-01-02,3234.52,DEBIT,北京烤鸭 🦆,全聚德,General Merchandise,,,false,false,false`,
          `t1,,chk,2026-01-02,2234.51,DEBIT,İSTANBUL KEBAP EVİ,,General Merchandise,,,true,false,false`,
          `t0,'=ext0,chk,2026-01-02,1234.50,DEBIT,ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ,Ταβέρνα,General Merchandise,,,false,false,false`,
          '',
        ].join('\r\n'),
    );
  });

  it('CSV, NDJSON and Parquet read back as the JSON list', async () => {
    const expected = await jsonTransactions('', app, auth);
    expect(expected).toHaveLength(texts.length);
    expect(fromCsv((await file('csv')).body)).toEqual(expected);
    expect(fromNdjson((await file('ndjson')).body, expected)).toEqual(expected);
    expect((await fromParquet((await file('parquet')).rawPayload)).rows).toEqual(expected);
  });
});

describe('the formula guard: every look-alike, and the stored text back exactly', () => {
  const user = 'u_guard';
  /** = + - @, their compatibility forms, tab and CR: what starts a formula. */
  const TRIGGERS = [...'=+-@\t\r＝＋－＠﹦﹢﹣﹫⁼⁺₌₊\u{fb29}'];
  /** Some of what a spreadsheet skips before a formula. */
  const SKIPPED = [
    ...' \t\r\n\u000b\u0085\u00a0\u1680\u2007\u2028\u2029\u3000\ufeff\u200b\u200e\u2060',
  ];
  /** Values the guard escapes, each with its cell as written (before CSV quoting). */
  const escaped = [
    ...TRIGGERS.map((trigger) => `${trigger}1`),
    ...SKIPPED.map((skipped) => `${skipped}=1`),
    ...SKIPPED.map((skipped) => `${skipped}${skipped}＠SUM(A1)`),
    "'=1",
    "'quoted",
    "''",
    "'",
  ];
  /** Values written as they are. */
  const unescaped = [' hello', '\u00a0plain', 'a=1', '2-1', '−1 (U+2212)', " 'x", '\nline'];
  /** Text in random arrangements of all of it: the round trip must hold for any. */
  const random = fc.sample(
    fc.string({
      unit: fc.constantFrom(...TRIGGERS, ...SKIPPED, "'", '"', ',', 'a', 'é', '−'),
      minLength: 1,
      maxLength: 6,
    }),
    { numRuns: 300, seed: 20261120 },
  );
  const values = [...escaped, ...unescaped, ...random];
  let app: FastifyInstance;
  let auth: { authorization: string };

  beforeAll(async () => {
    const dir = makeTempDir('export-guard');
    await writeCsvFixture(dir, {
      users: [{ id: user, name: 'G', email: 'g@example.com', created_at: '2024-01-01 00:00:00' }],
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
      // Each value as a description, and as the merchant name of the next transaction.
      transactions: values.map(
        (value, i): FixtureRow => ({
          id: `g${String(i).padStart(4, '0')}`,
          user_id: user,
          account_id: 'chk',
          transacted_at: '2026-01-02',
          amount: '1.00',
          direction: 'DEBIT',
          description: value,
          merchant_name: values[(i + 1) % values.length] ?? null,
          category: 'Other',
        }),
      ),
    });
    const databasePath = await buildStoreFromCsv(dir);
    auth = { authorization: `Bearer ${await mintTestToken(databasePath, user)}` };
    app = await buildApp({
      store: await openStore(databasePath),
      clock: createClock('2026-03-15'),
    });
  });
  afterAll(() => app.close());

  /** The export's description cells, by transaction id, as csv-parse reads them. */
  async function descriptionCells(): Promise<Map<string, string>> {
    const response = await app.inject({ url: '/v2/users/transactions?format=csv', headers: auth });
    expect(response.statusCode).toBe(200);
    const records: Record<string, string>[] = parse(response.body, { columns: true });
    return new Map(records.map((record) => [String(record.id), String(record.description)]));
  }

  it('stores every value as given (the cases reach the export)', async () => {
    const listed = await jsonTransactions('', app, auth);
    expect(new Set(listed.map((transaction) => transaction.description))).toEqual(new Set(values));
  });

  it('escapes each look-alike and each formula start after skipped characters, and nothing else', async () => {
    const cells = await descriptionCells();
    values.forEach((value, i) => {
      const cell = cells.get(`g${String(i).padStart(4, '0')}`);
      if (escaped.includes(value)) expect(cell, JSON.stringify(value)).toBe(`'${value}`);
      if (unescaped.includes(value)) expect(cell, JSON.stringify(value)).toBe(value);
    });
  });

  it('gives back every stored text exactly once one leading apostrophe is removed', async () => {
    const expected = await jsonTransactions('', app, auth);
    const response = await app.inject({ url: '/v2/users/transactions?format=csv', headers: auth });
    expect(fromCsv(response.body)).toEqual(expected);
  });
});

describe('which format a request gets', () => {
  const list = '/v2/users/transactions?page=1&page_size=10';
  const typeOf = async (headers: Record<string, string>, url = list) => {
    const response = await get(url, headers);
    return [response.statusCode, String(response.headers['content-type'])];
  };

  it.each([
    [{}, 'application/json; charset=utf-8'],
    [{ accept: '*/*' }, 'application/json; charset=utf-8'],
    [{ accept: 'application/*' }, 'application/json; charset=utf-8'],
    [{ accept: 'text/*' }, 'text/csv; charset=utf-8; header=present'],
    [{ accept: 'text/csv' }, 'text/csv; charset=utf-8; header=present'],
    [{ accept: 'application/x-ndjson' }, 'application/x-ndjson; charset=utf-8'],
    [
      { accept: 'application/x-ndjson;q=0.5, application/vnd.apache.parquet;q=0.9' },
      'application/vnd.apache.parquet',
    ],
    [{ accept: 'text/html, application/xml;q=0.9, */*;q=0.8' }, 'application/json; charset=utf-8'],
  ])('Accept %j: %s', async (headers, type) => {
    expect(await typeOf(headers)).toEqual([200, type]);
  });

  it('`format` wins over Accept, even one it does not meet', async () => {
    expect(await typeOf({ accept: 'application/json' }, `${list}&format=csv`)).toEqual([
      200,
      'text/csv; charset=utf-8; header=present',
    ]);
    expect(await typeOf({ accept: 'text/csv' }, `${list}&format=json`)).toEqual([
      200,
      'application/json; charset=utf-8',
    ]);
    expect((await typeOf({ accept: 'image/png' }, `${list}&format=ndjson`))[0]).toBe(200);
  });

  it('an Accept it cannot meet: 406 naming the media types, in the {detail} shape', async () => {
    for (const accept of [
      'image/png',
      'text/csv;q=0, application/json;q=0',
      'text/csv; charset=latin1',
    ]) {
      const response = await get('/v2/users/transactions', { accept });
      expect(response.statusCode, accept).toBe(406);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({
        detail:
          'Not Acceptable: this list is served as application/json, text/csv, application/x-ndjson, application/vnd.apache.parquet (Accept), or with format=json|csv|ndjson|parquet',
      });
    }
  });

  it('a format outside the four: FastAPI’s enum 422', async () => {
    for (const value of ['xml', '', 'CSV']) {
      const response = await get(`/v2/users/transactions?format=${value}`);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [
          {
            type: 'enum',
            loc: ['query', 'format'],
            msg: "Input should be 'json', 'csv', 'ndjson' or 'parquet'",
            input: value,
            ctx: { expected: "'json', 'csv', 'ndjson' or 'parquet'" },
          },
        ],
      });
    }
  });
});

describe('ETag, 304 and Vary per format', () => {
  const url = '/v2/users/transactions?transacted_at_from=2026-02-01';
  const ACCEPTS = [
    'application/json',
    'text/csv',
    'application/x-ndjson',
    'application/vnd.apache.parquet',
  ];

  it('one ETag per format selected by Accept; each revalidates with its own Accept only', async () => {
    const etags: string[] = [];
    for (const accept of ACCEPTS) {
      const response = await get(url, { accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers.vary).toContain('Accept');
      expect(response.headers['cache-control']).toBe('private, no-cache');
      etags.push(String(response.headers.etag));
    }
    expect(new Set(etags).size).toBe(ACCEPTS.length);
    for (const [index, accept] of ACCEPTS.entries()) {
      const again = await get(url, { accept, 'if-none-match': etags[index] as string });
      expect([again.statusCode, again.body], accept).toEqual([304, '']);
      expect(again.headers.vary).toContain('Accept');
      const other = etags[(index + 1) % etags.length] as string;
      expect((await get(url, { accept, 'if-none-match': other })).statusCode, accept).toBe(200);
    }
    // Spelled otherwise, the same format: the same tag.
    expect((await get(url, { accept: 'text/*;q=0.9' })).headers.etag).toBe(etags[1]);
    // `format` in the query wins, and is part of the URL.
    const chosen = await get(`${url}&format=csv`, { accept: 'application/json' });
    expect(chosen.headers.etag).not.toBe(etags[0]);
    expect(
      (await get(`${url}&format=csv`, { 'if-none-match': String(chosen.headers.etag) })).statusCode,
    ).toBe(304);
  });

  it('a page of a file revalidates too', async () => {
    const page = `${url}&format=parquet&page=1&page_size=10`;
    const first = await get(page);
    expect(first.headers.etag).toMatch(/^W\/"/);
    expect((await get(page, { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
  });
});

describe('compression and the file name', () => {
  it('CSV and NDJSON are compressed as JSON is, Parquet never', async () => {
    const csvUrl = '/v2/users/transactions?format=csv';
    const plain = await get(csvUrl);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get(csvUrl, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept, accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const ndjsonUrl = '/v2/users/transactions?format=ndjson&page=1&page_size=50';
    const gzip = await get(ndjsonUrl, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals((await get(ndjsonUrl)).rawPayload)).toBe(true);

    const parquetUrl = '/v2/users/transactions?format=parquet';
    const parquet = await get(parquetUrl, { 'accept-encoding': 'br, gzip' });
    expect(parquet.headers['content-encoding']).toBeUndefined();
    expect(parquet.rawPayload.length).toBeGreaterThan(1024);
    expect(parquet.rawPayload.equals((await get(parquetUrl)).rawPayload)).toBe(true);
  });

  it('a file is an attachment named after the user, the window and the generation; JSON is not', async () => {
    const response = await get(
      '/v2/users/transactions?format=csv&transacted_at_from=2026-01-01&transacted_at_to=2026-02-28',
    );
    const generation = String(response.headers['x-store-generation']);
    expect(generation).toMatch(/^[0-9a-f]+$/);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="transactions_u1_2026-01-01_to_2026-02-28_${generation}.csv"`,
    );
    const page = await get('/v2/users/transactions?page=2&page_size=10', {
      accept: 'application/vnd.apache.parquet',
    });
    expect(page.headers['content-disposition']).toBe(
      `attachment; filename="transactions_u1_all_${generation}_page-2_size-10.parquet"`,
    );
    expect(
      (await get('/v2/users/transactions?format=json')).headers['content-disposition'],
    ).toBeUndefined();
  });
});
