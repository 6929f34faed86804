import { spawnSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { BuildInputError } from '../../src/ingest/problems.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { hashToken } from '../../src/tokens/token.ts';
import {
  type FixtureRow,
  makeTempDir,
  mintTestToken,
  queryStoreFile,
  writeCsvFixture,
} from '../helpers/store.ts';

const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const BUILD_DB = resolve(import.meta.dirname, '../../scripts/build-db.ts');

/** A small valid data set: two users, each with their own link and accounts. */
function goodTables(): Record<string, FixtureRow[]> {
  return {
    users: [
      {
        id: 'usr_a',
        name: 'Ann',
        email: 'ann@example.com',
        created_at: '2024-01-01T02:00:00+02:00',
      },
      {
        id: 'usr_b',
        name: 'Bob',
        email: 'bob@example.com',
        phone: '+15550100',
        created_at: '2024-01-02T00:00:00Z',
      },
    ],
    links: [
      {
        id: 'lnk_a',
        user_id: 'usr_a',
        type: 'institution',
        name: 'Chase',
        status: 'active',
        created_at: '2024-01-01',
      },
      {
        id: 'lnk_ap',
        user_id: 'usr_a',
        type: 'payroll',
        name: 'ADP',
        status: 'active',
        created_at: '2024-01-01',
      },
      {
        id: 'lnk_b',
        user_id: 'usr_b',
        type: 'institution',
        name: 'Citi',
        status: 'error',
        created_at: '2024-01-01',
      },
    ],
    accounts: [
      {
        id: 'acc_a',
        user_id: 'usr_a',
        link_id: 'lnk_a',
        name: 'Checking',
        type: 'depository',
        subtype: 'checking',
      },
      {
        id: 'acc_ac',
        user_id: 'usr_a',
        link_id: 'lnk_a',
        name: 'Card',
        type: 'credit',
        subtype: 'credit card',
      },
      {
        id: 'acc_b',
        user_id: 'usr_b',
        link_id: 'lnk_b',
        name: 'Checking',
        type: 'depository',
        subtype: 'checking',
      },
    ],
    transactions: [
      // Column order differs from the contract's; optional columns are absent.
      {
        transacted_at: '2024-02-01',
        id: 'txn_1',
        user_id: 'usr_a',
        account_id: 'acc_a',
        amount: '0.10',
        direction: 'DEBIT',
        description: 'STARBUCKS',
        category: 'Food and Drink',
      },
      {
        transacted_at: '2024-02-01',
        id: 'txn_2',
        user_id: 'usr_a',
        account_id: 'acc_a',
        amount: '0.20',
        direction: 'DEBIT',
        description: 'PEET\'S, "SF"',
        category: 'Food and Drink',
      },
      {
        transacted_at: '2024-02-03',
        id: 'txn_3',
        user_id: 'usr_b',
        account_id: 'acc_b',
        amount: '1500',
        direction: 'CREDIT',
        description: 'PAYROLL',
        category: 'Income',
      },
    ],
    balances: [{ account_id: 'acc_a', as_of: '2024-02-03', current: '-12.50', available: '0' }],
    pay_statements: [
      {
        id: 'pst_1',
        user_id: 'usr_a',
        link_id: 'lnk_ap',
        employer: 'Acme',
        pay_date: '2024-02-01',
        gross_pay: '2000.00',
        net_pay: '1500.00',
      },
    ],
    liabilities: [
      { account_id: 'acc_ac', kind: 'credit_card', apr: '24.99', minimum_payment: '25.00' },
    ],
  };
}

type Tables = ReturnType<typeof goodTables>;

function row(tables: Tables, table: string, index: number): FixtureRow {
  const found = tables[table]?.[index];
  if (!found) throw new Error(`no row ${table}[${index}]`);
  return found;
}

async function writeSource(tables: Tables): Promise<string> {
  const dir = makeTempDir('source');
  await writeCsvFixture(dir, tables);
  return dir;
}

async function buildProblems(tables: Tables): Promise<string[]> {
  const sourceDir = await writeSource(tables);
  const databasePath = join(makeTempDir('store'), 'finance.duckdb');
  const error = await buildStore({ sourceDir, databasePath }).catch((caught: unknown) => caught);
  if (!(error instanceof BuildInputError))
    throw new Error(`expected bad input, got ${String(error)}`);
  return error.problems;
}

async function generationOf(databasePath: string): Promise<string> {
  const [meta] = await queryStoreFile<{ generation: string }>(
    databasePath,
    'SELECT generation FROM store_meta',
  );
  return String(meta?.generation);
}

describe('build-db: a good build', () => {
  it('loads every table with the contract types and defaults', async () => {
    const sourceDir = await writeSource(goodTables());
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    const result = await buildStore({ sourceDir, databasePath });
    expect(result.counts).toEqual({
      users: 2,
      access_tokens: 0,
      links: 3,
      accounts: 3,
      transactions: 3,
      balances: 1,
      pay_statements: 1,
      liabilities: 1,
    });
    expect(result.generation).toMatch(/^[0-9a-f]{16}$/);
    expect(await generationOf(databasePath)).toBe(result.generation);

    const [sums] = await queryStoreFile(
      databasePath,
      `SELECT sum(amount) AS total, any_value(typeof(amount)) AS amount_type, any_value(typeof(transacted_at)) AS date_type,
              any_value(typeof(category)) AS category_type, bool_or(is_hidden) AS any_hidden,
              bool_or(is_internal_transfer) AS any_internal, count(external_id) AS external_ids
       FROM transactions WHERE user_id = 'usr_a'`,
    );
    expect(sums).toMatchObject({
      total: '0.30',
      amount_type: 'DECIMAL(18,2)',
      date_type: 'DATE',
      any_hidden: false,
      any_internal: false,
      external_ids: '0',
    });
    expect(String(sums?.category_type)).toMatch(/^ENUM\('Income', 'Transfer In'/);

    const users = await queryStoreFile(
      databasePath,
      'SELECT id, phone, created_at FROM users ORDER BY id',
    );
    // Offsets are converted: 02:00+02:00 is midnight UTC.
    expect(users).toEqual([
      { id: 'usr_a', phone: null, created_at: '2024-01-01 00:00:00' },
      { id: 'usr_b', phone: '+15550100', created_at: '2024-01-02 00:00:00' },
    ]);
    const [account] = await queryStoreFile(
      databasePath,
      "SELECT currency, typeof(type) AS t FROM accounts WHERE id = 'acc_a'",
    );
    expect(account).toEqual({
      currency: 'USD',
      t: "ENUM('depository', 'credit', 'loan', 'investment', 'other')",
    });
    const [balance] = await queryStoreFile(
      databasePath,
      'SELECT "current", available, credit_limit FROM balances',
    );
    expect(balance).toEqual({ current: '-12.50', available: '0.00', credit_limit: null });
    const [description] = await queryStoreFile(
      databasePath,
      "SELECT description FROM transactions WHERE id = 'txn_2'",
    );
    expect(description?.description).toBe('PEET\'S, "SF"');
  });

  it('stores transactions ordered by user, date and id', async () => {
    const tables = goodTables();
    tables.transactions?.reverse();
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    await buildStore({ sourceDir: await writeSource(tables), databasePath });
    const rows = await queryStoreFile(databasePath, 'SELECT id FROM transactions');
    expect(rows.map((r) => r.id)).toEqual(['txn_1', 'txn_2', 'txn_3']);
  });

  it('reads Parquet input, typed columns included', async () => {
    const csvDir = await writeSource(goodTables());
    const parquetDir = makeTempDir('parquet');
    const instance = await DuckDBInstance.create();
    const conn = await instance.connect();
    for (const table of ['users', 'links', 'accounts', 'transactions', 'balances']) {
      // Auto-detected types: DATE, TIMESTAMP WITH TIME ZONE, DOUBLE...
      await conn.run(
        `COPY (SELECT * FROM read_csv('${join(csvDir, `${table}.csv`)}')) TO '${join(parquetDir, `${table}.parquet`)}' (FORMAT parquet)`,
      );
    }
    conn.closeSync();
    instance.closeSync();
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    const result = await buildStore({ sourceDir: parquetDir, databasePath });
    expect(result.counts.transactions).toBe(3);
    const [sum] = await queryStoreFile(
      databasePath,
      'SELECT sum(amount) AS total FROM transactions',
    );
    expect(sum?.total).toBe('1500.30');
  });

  it('an upgrade keeps the tokens a store of an earlier build holds inside', async () => {
    const upstream = { token_hash: 'cd'.repeat(32), user_id: 'usr_a', name: 'old' };
    const withTokens = await writeSource({
      ...goodTables(),
      access_tokens: [{ ...upstream, created_at: '2026-01-01 00:00:00' }],
    });
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    await buildStore({ sourceDir: withTokens, databasePath });
    // As an earlier build left it: tokens in the store's own table, no token store.
    await rm(tokensPathFor(databasePath));
    const minted = await mintTestToken(databasePath, 'usr_a', { name: 'new' });
    const names = () =>
      queryStoreFile(tokensPathFor(databasePath), 'SELECT name FROM access_tokens ORDER BY name');
    expect(await names()).toEqual([{ name: 'new' }, { name: 'old' }]);
    expect(minted).toMatch(/^pat_/);
    // And a rebuild without tokens, before any mint, moves them out of the store it replaces.
    await rm(tokensPathFor(databasePath));
    await buildStore({ sourceDir: await writeSource(goodTables()), databasePath });
    expect(await names()).toEqual([{ name: 'old' }]);
  });

  it('merges access_tokens input into the token store, which survives rebuilds', async () => {
    const sourceDir = await writeSource(goodTables());
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    await buildStore({ sourceDir, databasePath });
    const minted = await mintTestToken(databasePath, 'usr_a', { name: 'ci' });
    const upstream = { token_hash: 'ab'.repeat(32), user_id: 'usr_a', name: 'upstream' };
    const withTokens = await writeSource({
      ...goodTables(),
      access_tokens: [{ ...upstream, created_at: '2026-01-01 00:00:00' }],
    });
    await buildStore({ sourceDir: withTokens, databasePath });
    // A rebuild without tokens keeps both: tokens live in their own store.
    await buildStore({ sourceDir, databasePath });
    const tokens = await queryStoreFile(
      tokensPathFor(databasePath),
      'SELECT token_hash, name FROM access_tokens ORDER BY name',
    );
    expect(tokens).toEqual([
      { token_hash: hashToken(minted), name: 'ci' },
      { token_hash: upstream.token_hash, name: 'upstream' },
    ]);
  });
});

type Mutation = (tables: Tables) => void;

const badRows: [string, Mutation, string][] = [
  [
    'unknown category',
    (t) => {
      row(t, 'transactions', 1).category = 'Food';
    },
    "transactions.csv:3: unknown category 'Food'",
  ],
  [
    'negative amount',
    (t) => {
      row(t, 'transactions', 0).amount = '-4.00';
    },
    "transactions.csv:2: amount must be a positive decimal with at most 2 decimal places, got '-4.00'",
  ],
  [
    'zero amount',
    (t) => {
      row(t, 'transactions', 0).amount = '0.00';
    },
    'transactions.csv:2: amount must be a positive decimal',
  ],
  [
    'three decimal places',
    (t) => {
      row(t, 'transactions', 0).amount = '1.234';
    },
    "transactions.csv:2: amount must be a positive decimal with at most 2 decimal places, got '1.234'",
  ],
  [
    'amount that is not a number',
    (t) => {
      row(t, 'transactions', 0).amount = '1e3';
    },
    "got '1e3'",
  ],
  [
    'bad direction',
    (t) => {
      row(t, 'transactions', 2).direction = 'debit';
    },
    "transactions.csv:4: direction must be one of DEBIT, CREDIT; got 'debit'",
  ],
  [
    'bad account type',
    (t) => {
      row(t, 'accounts', 2).type = 'checking';
    },
    "accounts.csv:4: type must be one of depository, credit, loan, investment, other; got 'checking'",
  ],
  [
    'bad link status',
    (t) => {
      row(t, 'links', 0).status = 'ok';
    },
    "links.csv:2: status must be one of active, error, disconnected; got 'ok'",
  ],
  [
    'bad link type',
    (t) => {
      row(t, 'links', 0).type = 'bank';
    },
    "links.csv:2: type must be one of institution, payroll; got 'bank'",
  ],
  [
    'bad liability kind',
    (t) => {
      row(t, 'liabilities', 0).kind = 'card';
    },
    "liabilities.csv:2: kind must be one of credit_card, student_loan, mortgage, auto_loan, personal_loan, other; got 'card'",
  ],
  [
    'bad date',
    (t) => {
      row(t, 'transactions', 0).transacted_at = '2024-02-30';
    },
    "transactions.csv:2: transacted_at is not a date (YYYY-MM-DD): '2024-02-30'",
  ],
  [
    'date in another format',
    (t) => {
      row(t, 'balances', 0).as_of = '02/03/2024';
    },
    "balances.csv:2: as_of is not a date (YYYY-MM-DD): '02/03/2024'",
  ],
  [
    'bad timestamp',
    (t) => {
      row(t, 'users', 1).created_at = 'yesterday';
    },
    "users.csv:3: created_at is not an ISO 8601 timestamp: 'yesterday'",
  ],
  [
    'bad bool',
    (t) => {
      row(t, 'transactions', 0).is_hidden = 'yes';
    },
    "transactions.csv:2: is_hidden must be true or false, got 'yes'",
  ],
  [
    'missing required value',
    (t) => {
      row(t, 'transactions', 1).description = null;
    },
    'transactions.csv:3: missing required value for description',
  ],
  [
    'bad currency',
    (t) => {
      row(t, 'accounts', 0).currency = 'usd';
    },
    "accounts.csv:2: currency must be an ISO 4217 code such as USD, got 'usd'",
  ],
  [
    'mixed currencies for one user',
    (t) => {
      row(t, 'accounts', 1).currency = 'EUR';
    },
    "accounts.csv:3: currency EUR differs from the currency of the user's other accounts (USD)",
  ],
  [
    'duplicate transaction id',
    (t) => {
      row(t, 'transactions', 2).id = 'txn_1';
    },
    "transactions.csv:4: duplicate id 'txn_1' (first at line 2)",
  ],
  [
    'duplicate user id',
    (t) => {
      row(t, 'users', 1).id = 'usr_a';
    },
    "users.csv:3: duplicate id 'usr_a' (first at line 2)",
  ],
  [
    'transaction id over 32 characters',
    (t) => {
      row(t, 'transactions', 0).id = `txn_${'x'.repeat(29)}`;
    },
    "transactions.csv:2: id 'txn_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is 33 characters long; ids have at most 32 characters",
  ],
  [
    'account id over 32 characters',
    (t) => {
      row(t, 'balances', 0).account_id = 'a'.repeat(40);
    },
    'balances.csv:2: account_id',
  ],
  [
    "transaction on another user's account",
    (t) => {
      row(t, 'transactions', 2).account_id = 'acc_a';
    },
    "transactions.csv:4: account 'acc_a' belongs to another user ('usr_a'), not to 'usr_b'",
  ],
  [
    'transaction on an unknown account',
    (t) => {
      row(t, 'transactions', 0).account_id = 'acc_zz';
    },
    "transactions.csv:2: account 'acc_zz' does not exist in accounts",
  ],
  [
    "account on another user's link",
    (t) => {
      row(t, 'accounts', 2).link_id = 'lnk_a';
    },
    "accounts.csv:4: link 'lnk_a' belongs to another user ('usr_a')",
  ],
  [
    'account on an unknown link',
    (t) => {
      row(t, 'accounts', 0).link_id = 'lnk_zz';
    },
    "accounts.csv:2: link 'lnk_zz' does not exist in links",
  ],
  [
    'link of an unknown user',
    (t) => {
      row(t, 'links', 2).user_id = 'usr_zz';
    },
    "links.csv:4: user 'usr_zz' does not exist in users",
  ],
  [
    'pay statement of an unknown user',
    (t) => {
      row(t, 'pay_statements', 0).user_id = 'usr_zz';
    },
    "pay_statements.csv:2: user 'usr_zz' does not exist in users",
  ],
  [
    'pay statement on an institution link',
    (t) => {
      row(t, 'pay_statements', 0).link_id = 'lnk_a';
    },
    "pay_statements.csv:2: link 'lnk_a' is a institution link; pay statements need a payroll link",
  ],
  [
    "pay statement on another user's payroll link",
    (t) => {
      row(t, 'pay_statements', 0).user_id = 'usr_b';
    },
    "pay_statements.csv:2: link 'lnk_ap' belongs to another user ('usr_a')",
  ],
  [
    'balance of an unknown account',
    (t) => {
      row(t, 'balances', 0).account_id = 'acc_zz';
    },
    "balances.csv:2: account 'acc_zz' does not exist in accounts",
  ],
  [
    'duplicate balance for a day',
    (t) => {
      t.balances?.push({ ...row(t, 'balances', 0) });
    },
    "balances.csv:3: duplicate balance for account and date 'acc_a' '2024-02-03' (first at line 2)",
  ],
  [
    'liability of an unknown account',
    (t) => {
      row(t, 'liabilities', 0).account_id = 'acc_zz';
    },
    "liabilities.csv:2: account 'acc_zz' does not exist in accounts",
  ],
  [
    'liability on a depository account',
    (t) => {
      row(t, 'liabilities', 0).account_id = 'acc_a';
    },
    "liabilities.csv:2: account 'acc_a' is of type depository; liabilities belong to credit or loan accounts",
  ],
  [
    'token hash that is not lowercase hex',
    (t) => {
      t.access_tokens = [{ token_hash: 'ABC', user_id: 'usr_a', created_at: '2024-01-01' }];
    },
    'access_tokens.csv:2: token_hash must be 64 lowercase hex characters',
  ],
  [
    'token of an unknown user',
    (t) => {
      t.access_tokens = [
        { token_hash: 'a'.repeat(64), user_id: 'usr_zz', created_at: '2024-01-01' },
      ];
    },
    "access_tokens.csv:2: user 'usr_zz' does not exist in users",
  ],
  [
    'duplicate token hash',
    (t) => {
      t.access_tokens = [1, 2].map(() => ({
        token_hash: 'b'.repeat(64),
        user_id: 'usr_a',
        created_at: '2024-01-01',
      }));
    },
    'access_tokens.csv:3: duplicate token_hash',
  ],
  [
    'unknown column',
    (t) => {
      row(t, 'users', 0).nickname = 'annie';
    },
    "users.csv:1: unknown column 'nickname' (users has: id, name, email, phone, created_at)",
  ],
  [
    'missing required column',
    (t) => {
      for (const r of t.users ?? []) delete r.email;
    },
    "users.csv:1: missing required column 'email'",
  ],
  [
    'missing required file',
    (t) => {
      delete t.links;
    },
    'links.csv: missing (required table links)',
  ],
];

describe('build-db: bad input stops the build with file, line and reason', () => {
  // Each case builds its own store; running them concurrently keeps the file fast.
  it.concurrent.for(badRows)('%s', async ([, mutate, expected], { expect }) => {
    const tables = goodTables();
    mutate(tables);
    const problems = await buildProblems(tables);
    expect(
      problems.some((problem) => problem.includes(expected)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('reports every bad row up to the limit, in line order', async () => {
    const tables = goodTables();
    row(tables, 'transactions', 0).category = 'Nope';
    row(tables, 'transactions', 2).amount = '-1';
    const problems = await buildProblems(tables);
    expect(problems).toEqual([
      "transactions.csv:2: unknown category 'Nope'",
      "transactions.csv:4: amount must be a positive decimal with at most 2 decimal places, got '-1'",
    ]);
  });

  it('names Parquet rows by row number', async () => {
    const dir = makeTempDir('parquet-bad');
    await writeCsvFixture(dir, goodTables());
    const instance = await DuckDBInstance.create();
    const conn = await instance.connect();
    await conn.run(
      `COPY (SELECT * REPLACE ('Nope' AS category) FROM read_csv('${join(dir, 'transactions.csv')}', all_varchar = true)) TO '${join(dir, 'transactions.parquet')}' (FORMAT parquet)`,
    );
    conn.closeSync();
    instance.closeSync();
    await rm(join(dir, 'transactions.csv'));
    const error = await buildStore({
      sourceDir: dir,
      databasePath: join(makeTempDir('store'), 'f.duckdb'),
    }).catch((e: unknown) => e);
    expect((error as BuildInputError).problems[0]).toBe(
      "transactions.parquet:row 1: unknown category 'Nope'",
    );
  });

  it('leaves the existing store unchanged and no temp file behind', async () => {
    const dir = makeTempDir('store');
    const databasePath = join(dir, 'finance.duckdb');
    const { generation } = await buildStore({
      sourceDir: await writeSource(goodTables()),
      databasePath,
    });
    const tables = goodTables();
    row(tables, 'transactions', 0).category = 'Nope';
    await expect(
      buildStore({ sourceDir: await writeSource(tables), databasePath }),
    ).rejects.toThrow(BuildInputError);
    expect(await generationOf(databasePath)).toBe(generation);
    expect(await readdir(dir)).toEqual(['finance.duckdb']);
  });

  it('fails clearly on a missing source folder', async () => {
    await expect(
      buildStore({
        sourceDir: '/nonexistent/folder',
        databasePath: join(makeTempDir('store'), 'f.duckdb'),
      }),
    ).rejects.toThrow('source folder not found: /nonexistent/folder');
  });
});

describe('build-db CLI', () => {
  const run = (args: string[]) => spawnSync(TSX, [BUILD_DB, ...args], { encoding: 'utf8' });

  it('exits 1 and prints file:line: reason on bad input, keeping the store', async () => {
    const dir = makeTempDir('store');
    const databasePath = join(dir, 'finance.duckdb');
    const good = run(['--source', await writeSource(goodTables()), '--database', databasePath]);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stderr).toContain('transactions: 3 rows written');
    const tables = goodTables();
    row(tables, 'transactions', 1).amount = '-2';
    const bad = run(['--source', await writeSource(tables), '--database', databasePath]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(
      "transactions.csv:3: amount must be a positive decimal with at most 2 decimal places, got '-2'",
    );
    expect(bad.stderr).toContain('was not changed');
    expect(await readdir(dir)).toEqual(['finance.duckdb']);
  });

  it('exits 2 on wrong usage and 0 on --help', () => {
    const usage = run(['--source']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--help');
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run build-db');
  });
});
