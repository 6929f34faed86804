/**
 * The settled cases of docs/api.md ("Investment-platform transfers", helpers/platform-cases.ts),
 * each through every path that decides them in DuckDB: the JavaScript matcher, the query-time
 * SQL (DuckDB's RE2), and the `to_platform` column build-db stores (with the store's own
 * query-time SQL beside it). Then the SQL and JavaScript matchers against each other over drawn
 * statement texts, and the fingerprint the store records of the rules.
 * test/api/spending-platform-transfers.test.ts runs the same cases through the spending
 * analysis on every engine.
 */
import { DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendingBody } from '../../../src/areas/spending/body.ts';
import { Exact } from '../../../src/domain/money.ts';
import {
  compilePlatformMatcher,
  INVESTMENT_PLATFORMS,
  NAME_TAIL_WORDS,
  namesInvestmentPlatform,
  TRADE_WORDS,
} from '../../../src/domain/platforms.ts';
import { GROUP_BYS } from '../../../src/domain/spending/model.ts';
import { shapeSpendingAnalysis } from '../../../src/domain/spending/shape.ts';
import { DuckDbPool } from '../../../src/engines/duckdb/pool.ts';
import {
  type DuckDbSpendingReads,
  spendingAggregates,
  spendingReadsOf,
} from '../../../src/engines/duckdb/spending.ts';
import {
  namesInvestmentPlatformSql,
  PLATFORM_RULES_FINGERPRINT,
  platformTextSql,
  toPlatformSql,
} from '../../../src/sql/platform.ts';
import {
  ALL_PLATFORM_CASES,
  type PlatformCase,
  SETTLED_PLATFORM_CASES,
} from '../../helpers/platform-cases.ts';
import { spendingQuery } from '../../helpers/spending-query.ts';
import {
  buildStoreFromCsv,
  type FixtureRow,
  makeTempDir,
  queryStoreFile,
  writeCsvFixture,
} from '../../helpers/store.ts';

let instance: DuckDBInstance;
let statement: DuckDBPreparedStatement;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  statement = await connection.prepare(
    `SELECT ${namesInvestmentPlatformSql(platformTextSql('$1::VARCHAR', '$2::VARCHAR'))} AS hit`,
  );
});
afterAll(() => instance.closeSync());

async function namesPlatformSql(merchant: string | null, description: string): Promise<boolean> {
  statement.bind([merchant, description]);
  return (await statement.runAndReadAll()).getRowObjectsJson()[0]?.hit === true;
}

const sqlLiteral = (value: string | null) =>
  value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`;

/** The query-time SQL over many (merchant, description) pairs in one statement. */
async function namesPlatformSqlAll(
  cases: ReadonlyArray<readonly [string | null, string]>,
): Promise<boolean[]> {
  const connection = await instance.connect();
  const values = cases.map(([m, d], i) => `(${i}, ${sqlLiteral(m)}, ${sqlLiteral(d)})`).join(',\n');
  const rows = (
    await connection.runAndReadAll(
      `SELECT ${namesInvestmentPlatformSql(platformTextSql('m', 'd'))} AS hit
       FROM (VALUES ${values}) AS cases(i, m, d) ORDER BY i`,
    )
  ).getRowObjectsJson();
  connection.closeSync();
  return rows.map((row) => row.hit === true);
}

/** Both engines over the pairs: each pair with its SQL and JS answers. */
async function decideAll(cases: ReadonlyArray<readonly [string | null, string]>) {
  const sql = await namesPlatformSqlAll(cases);
  return cases.map(([m, d], i) => ({
    text: `${m} / ${d}`,
    sql: sql[i],
    js: namesInvestmentPlatform(m, d),
  }));
}

describe('settled cases: query-time SQL and the JavaScript matcher', () => {
  for (const [rule, cases] of Object.entries(SETTLED_PLATFORM_CASES)) {
    it.each(cases)(`${rule}: %s / %s -> %s`, async (merchant, description, transfer) => {
      expect(await namesPlatformSql(merchant, description)).toBe(transfer);
      expect(namesInvestmentPlatform(merchant, description)).toBe(transfer);
      // Case-insensitive, in either engine.
      expect(
        await namesPlatformSql(merchant?.toLowerCase() ?? null, description.toLowerCase()),
      ).toBe(transfer);
      expect(
        namesInvestmentPlatform(merchant?.toUpperCase() ?? null, description.toUpperCase()),
      ).toBe(transfer);
    });
  }

  it('the same text read from the merchant name decides the same way', async () => {
    const moved = ALL_PLATFORM_CASES.filter(([merchant]) => merchant === null);
    const decided = await decideAll(moved.map(([, description]) => [description, ''] as const));
    expect(decided).toEqual(
      moved.map(([, description, transfer]) => ({
        text: `${description} / `,
        sql: transfer,
        js: transfer,
      })),
    );
  });

  it('every guard, named in one field, rules its platform out of the other field too', async () => {
    const cases: Array<readonly [string, string]> = [];
    for (const platform of INVESTMENT_PLATFORMS) {
      const bare = `${(platform.spellings[0] as string).replace('*', '').toUpperCase()} #0123`;
      expect(namesInvestmentPlatform(null, bare), bare).toBe(true);
      for (const guard of platform.guards) {
        cases.push([guard.toUpperCase(), bare], [bare, `POS ${guard.toUpperCase()}`]);
      }
    }
    const decided = await decideAll(cases);
    expect(decided).toEqual(
      cases.map(([m, d]) => ({ text: `${m} / ${d}`, sql: false, js: false })),
    );
  });

  it('a platform name followed by a trade word is another business; by any other, the platform', async () => {
    const cases: Array<readonly [string | null, string]> = [];
    const expected: boolean[] = [];
    const words: Array<[string, boolean]> = [
      ...(['PIZZA', 'PLUMBING', 'CAFE', 'BANK', 'FLORIST', 'TATTOO'] as const).map(
        (word) => [word, false] as [string, boolean],
      ),
      // Codes, product names, the rest of a legal name, words no list foresees.
      ...(['ZYXWV', 'RPS', 'PLUS', 'PIERCE', 'BUY', 'GOLD'] as const).map(
        (word) => [word, true] as [string, boolean],
      ),
    ];
    for (const [word, transfer] of words) {
      for (const platform of INVESTMENT_PLATFORMS) {
        const name = (platform.spellings[0] as string).replace('*', '').toUpperCase();
        cases.push([null, `${name} ${word} INC`], [`${name} ${word}`, 'POS PURCHASE']);
        // The second word after the name is read too; the third is not.
        cases.push([null, `${name} XQ ${word}`], [null, `${name} XQ ZZ ${word}`]);
        expected.push(transfer, transfer, transfer, true);
      }
    }
    expect(NAME_TAIL_WORDS).toBe(2);
    const decided = await decideAll(cases);
    expect(decided).toEqual(
      cases.map(([m, d], i) => ({ text: `${m} / ${d}`, sql: expected[i], js: expected[i] })),
    );
  });

  it('every trade word, whole or as a prefix, makes a look-alike of every platform', async () => {
    const cases: Array<readonly [string | null, string]> = [];
    for (const word of TRADE_WORDS) {
      const written = word.endsWith('*') ? `${word.slice(0, -1)}ing` : word;
      for (const platform of INVESTMENT_PLATFORMS) {
        const name = (platform.spellings[0] as string).replace('*', '').toUpperCase();
        cases.push([null, `${name} ${written.toUpperCase()} #12`]);
      }
    }
    const decided = await decideAll(cases);
    expect(decided.filter((row) => row.sql !== false || row.js !== false)).toEqual([]);
  });

  it('a key that begins another key is of the same platform (names and look-alikes map by key)', () => {
    const { lookalikeKeys } = compilePlatformMatcher();
    const clashes = lookalikeKeys.flatMap((a) =>
      lookalikeKeys
        .filter((b) => b.key.startsWith(a.key) && b.platform !== a.platform)
        .map((b) => `${a.key} (${a.platform}) / ${b.key} (${b.platform})`),
    );
    expect(clashes).toEqual([]);
  });

  it('trade words are single lower-case words or prefixes, listed once', () => {
    for (const word of TRADE_WORDS) expect(word).toMatch(/^[a-z]+\*?$/);
    expect(new Set(TRADE_WORDS).size).toBe(TRADE_WORDS.length);
  });
});

describe('settled cases: the column build-db stores, and the query-time SQL over the same rows', () => {
  const user = 'settled';
  let databasePath: string;

  beforeAll(async () => {
    const transactions: FixtureRow[] = ALL_PLATFORM_CASES.flatMap(([merchant, description], i) =>
      (['DEBIT', 'CREDIT'] as const).map((direction) => ({
        id: `${direction === 'DEBIT' ? 'd' : 'c'}${String(i).padStart(3, '0')}`,
        user_id: user,
        account_id: 'acct',
        transacted_at: '2026-03-01',
        amount: `${i + 1}.00`,
        direction,
        description,
        merchant_name: merchant,
        category: direction === 'DEBIT' ? 'General Merchandise' : 'Income',
        subcategory: null,
        is_hidden: false,
        is_internal_transfer: false,
      })),
    );
    const dir = makeTempDir('platform-cases');
    await writeCsvFixture(dir, {
      users: [{ id: user, name: 'S', email: 's@example.com', created_at: '2024-01-01T00:00:00Z' }],
      links: [
        {
          id: 'link',
          user_id: user,
          type: 'institution',
          name: 'Bank',
          status: 'active',
          created_at: '2024-01-01T00:00:00Z',
        },
      ],
      accounts: [{ id: 'acct', user_id: user, link_id: 'link', name: 'chk', type: 'depository' }],
      transactions,
    });
    databasePath = await buildStoreFromCsv(dir);
  });

  it('to_platform as stored, the query-time expression and the JS matcher agree with every case', async () => {
    const rows = await queryStoreFile<{ id: string; stored: boolean; live: boolean }>(
      databasePath,
      `SELECT id, to_platform AS stored, ${toPlatformSql('t')} AS live FROM transactions t ORDER BY id`,
    );
    expect(rows).toHaveLength(ALL_PLATFORM_CASES.length * 2);
    for (const row of rows) {
      const [merchant, description, transfer] = ALL_PLATFORM_CASES[
        Number(row.id.slice(1))
      ] as PlatformCase;
      // Only a DEBIT is a transfer to a platform; a credit from one stays income.
      const expected = row.id.startsWith('d') ? transfer : false;
      expect([row.stored, row.live], `${row.id} ${merchant} / ${description}`).toEqual([
        expected,
        expected,
      ]);
      if (row.id.startsWith('d'))
        expect(namesInvestmentPlatform(merchant, description)).toBe(transfer);
    }
    const [meta] = await queryStoreFile<{ platform_rules: string }>(
      databasePath,
      'SELECT platform_rules FROM store_meta',
    );
    expect(meta?.platform_rules).toBe(PLATFORM_RULES_FINGERPRINT);
  });

  it('the spending query answers the same from the rollup and the rows', async () => {
    const store = await DuckDbPool.open(databasePath, { poolSize: 1 });
    try {
      const reads = await spendingReadsOf(store);
      expect(reads.source).toBe('rollup');
      const rows: DuckDbSpendingReads = { source: 'rows', monthlyUsers: new Set() };
      const spent = ALL_PLATFORM_CASES.reduce(
        (sum, [, , transfer], i) => (transfer ? sum : sum + (i + 1) * 100),
        0,
      );
      for (const groupBy of GROUP_BYS) {
        const query = spendingQuery({
          userId: user,
          window: { start: '2026-01-01', end: '2026-03-15' },
          groupBy,
          includeIncome: true,
        });
        const [rollup, fromRows] = await Promise.all(
          [reads, rows].map(async (read) =>
            spendingBody(
              shapeSpendingAnalysis(query, await spendingAggregates(store, query, read)),
            ),
          ),
        );
        expect(rollup).toEqual(fromRows);
        // In cents: every case that is not a transfer to a platform is spending.
        expect(new Exact(rollup?.summary.total_spending ?? 'NaN').times(100).toFixed()).toBe(
          String(spent),
        );
      }
    } finally {
      await store.close();
    }
  });
});

describe('the two engines agree', () => {
  const words = [
    ...INVESTMENT_PLATFORMS.flatMap((platform) => [...platform.spellings, ...platform.guards]),
    ...TRADE_WORDS.filter((_, i) => i % 4 === 0),
    ...['des', 'funds', 'id', 'ach', 'transfer', 'deposit', 'buy', 'inc', 'llc', 'invest', 'ca'],
    ...['pizza', 'cafe', 'bank', 'plumbing', 'menlo park', 'bend', 'les', 'little', 'seattle'],
    ...['co', 'the', 'x', 'e', '#0123', '8889087930', '401k', 'des:funds', 'id:', '&', '.com'],
    ...['\u0130nvest', 'ROB\u0130NHOOD', '\u212Araken', '\uFF32obinhood', 'caf\u00e9', '😀'],
  ].map((word) => word.replace('*', ''));
  const separator = fc.constantFrom(' ', ' ', ' ', '', '-', '*', '.', '  ', '/', '\n', '#');
  const casing = fc.constantFrom(
    (s: string) => s.toUpperCase(),
    (s: string) => s.toLowerCase(),
    (s: string) => s.replace(/^./, (c) => c.toUpperCase()),
  );
  const field = fc
    .array(fc.tuple(fc.constantFrom(...words), separator, casing), { maxLength: 6 })
    .map((parts) => parts.map(([word, sep, cased]) => cased(word) + sep).join(''));

  it('the SQL and JavaScript matchers decide every drawn statement alike', async () => {
    const cases = fc.sample(fc.tuple(fc.option(field, { nil: null }), field), {
      numRuns: 4_000,
      seed: 17,
    });
    const sql = await namesPlatformSqlAll(cases);
    const mismatches = cases.filter(([m, d], i) => namesInvestmentPlatform(m, d) !== sql[i]);
    expect(mismatches).toEqual([]);
    const hits = sql.filter(Boolean).length;
    expect(hits).toBeGreaterThan(200); // the draw exercises both answers
    expect(hits).toBeLessThan(cases.length - 200);
  });
});

describe('the rules fingerprint', () => {
  it('changed with the settled cases, so stores built with the older rules match at query time', () => {
    // The fingerprints of the rules before the settled cases (main at 6a73f94), and before
    // trade words (main at 426f696).
    expect(PLATFORM_RULES_FINGERPRINT).not.toBe('758a65df826efe47');
    expect(PLATFORM_RULES_FINGERPRINT).not.toBe('f6c9b9de31acc320');
    expect(PLATFORM_RULES_FINGERPRINT).toMatch(/^[0-9a-f]{16}$/);
  });
});
