import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/domain/taxonomy.ts';
import { DEMO_DIR } from '../../tools/demo-data/demo.ts';
import { generateFixtures } from '../../tools/demo-data/generator.ts';
import { buildDemoStore, makeTempDir, queryStoreFile } from '../helpers/store.ts';

const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const FIXTURES_CLI = resolve(import.meta.dirname, '../../tools/fixtures.ts');

async function filesOf(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.csv')).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')])),
  );
}

describe('fixtures generator', () => {
  it('as a CLI: help exits 0; a date that does not exist is a usage error (exit 2)', () => {
    const run = (args: string[]) =>
      spawnSync(TSX, [FIXTURES_CLI, ...args], { encoding: 'utf8', env: process.env });
    expect(run(['--help']).status).toBe(0);
    const out = makeTempDir('cli');
    const result = run([
      '--users',
      '1',
      '--months',
      '1',
      '--seed',
      's',
      '--out',
      out,
      '--end',
      '2026-02-30',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--end must be a date as YYYY-MM-DD, got '2026-02-30'");
  });

  it('gives byte-identical output for the same arguments', async () => {
    const options = { users: 7, months: 3, seed: 'same', heavyUserTransactions: 500 };
    const first = makeTempDir('gen');
    const second = makeTempDir('gen');
    await generateFixtures({ ...options, outDir: first });
    await generateFixtures({ ...options, outDir: second });
    expect(await filesOf(first)).toEqual(await filesOf(second));
    const other = makeTempDir('gen');
    await generateFixtures({ ...options, seed: 'other', outDir: other });
    expect((await filesOf(other))['transactions.csv']).not.toEqual(
      (await filesOf(first))['transactions.csv'],
    );
  });

  it('reproduces the committed demo set from its documented command', async () => {
    const outDir = makeTempDir('demo');
    await generateFixtures({ users: 5, months: 15, seed: '42', outDir });
    expect(await filesOf(outDir)).toEqual(await filesOf(DEMO_DIR));
  });

  it('adds a heavy user with exactly the requested transactions', async () => {
    const outDir = makeTempDir('heavy');
    const summary = await generateFixtures({
      users: 2,
      months: 2,
      seed: 'h',
      outDir,
      heavyUserTransactions: 3000,
    });
    const rows = (await readFile(join(outDir, 'transactions.csv'), 'utf8')).split('\n');
    const heavyRows = rows.filter((line) => line.includes(`,${summary.heavyUserId},`));
    expect(heavyRows).toHaveLength(3000);
    expect(await readFile(join(outDir, 'users.csv'), 'utf8')).toContain(
      `${summary.heavyUserId},Heavy User,heavy.user@example.com`,
    );
  });
});

describe('the demo set covers what the API rules need', () => {
  let store: string;
  const count = async (where: string): Promise<number> => {
    const [row] = await queryStoreFile<{ n: string }>(
      store,
      `SELECT count(*) AS n FROM transactions t JOIN accounts a ON a.id = t.account_id WHERE ${where}`,
    );
    return Number(row?.n);
  };

  beforeAll(async () => {
    store = await buildDemoStore();
  });

  it('has a handful of users with links, accounts and every taxonomy category', async () => {
    const users = await queryStoreFile(store, 'SELECT count(*) AS n FROM users');
    expect(users).toEqual([{ n: '5' }]);
    const categories = await queryStoreFile<{ category: string }>(
      store,
      'SELECT DISTINCT category::VARCHAR AS category FROM transactions ORDER BY 1',
    );
    expect(categories.map((row) => row.category).sort()).toEqual([...CATEGORIES].sort());
  });

  it('uses realistic ids within limits', async () => {
    const [ids] = await queryStoreFile<Record<string, string>>(
      store,
      `SELECT max(length(id)) AS longest, count(DISTINCT left(id, 8)) AS prefixes, count(*) AS n,
              count(*) FILTER (WHERE external_id = id) AS same_external
       FROM transactions`,
    );
    expect(Number(ids?.longest)).toBeLessThanOrEqual(32);
    expect(Number(ids?.prefixes)).toBeGreaterThan(Number(ids?.n) * 0.9);
    expect(ids?.same_external).toBe('0');
  });

  it('flags hidden transactions and internal transfers on both legs', async () => {
    expect(await count('t.is_hidden')).toBeGreaterThan(0);
    const cardPayments = await queryStoreFile<{ direction: string; type: string }>(
      store,
      `SELECT DISTINCT t.direction::VARCHAR AS direction, a.type::VARCHAR AS type FROM transactions t
       JOIN accounts a ON a.id = t.account_id
       WHERE t.is_internal_transfer AND t.subcategory = 'Credit Card Payment' ORDER BY 1, 2`,
    );
    expect(cardPayments).toEqual([
      { direction: 'CREDIT', type: 'credit' },
      { direction: 'DEBIT', type: 'depository' },
    ]);
  });

  it('has investment accounts with their own activity', async () => {
    const subtypes = await queryStoreFile<{ subtype: string }>(
      store,
      "SELECT DISTINCT subtype FROM accounts WHERE type = 'investment' ORDER BY 1",
    );
    expect(subtypes.map((row) => row.subtype)).toEqual(['brokerage', 'crypto', 'ira']);
    expect(await count("a.type = 'investment' AND t.direction = 'DEBIT'")).toBeGreaterThan(0);
    expect(await count("a.type = 'investment' AND t.direction = 'CREDIT'")).toBeGreaterThan(0);
  });

  it('has DEBIT transfers to platforms that are not flagged internal', async () => {
    for (const description of [
      'ROBINHOOD DES:FUNDS%',
      'COINBASE.COM 8889087930',
      'VANGUARD BUY INVESTMENT',
      'FID BKG SVC LLC MONEYLINE',
      'SCHWAB BROKERAGE%',
      'E*TRADE%',
      'KRAKEN.COM%',
    ]) {
      const where = `t.description LIKE '${description}' AND t.direction = 'DEBIT' AND NOT t.is_internal_transfer AND a.type <> 'investment'`;
      expect(await count(where), description).toBeGreaterThan(0);
    }
  });

  it('has real spending at businesses sharing a platform name', async () => {
    const guards = await queryStoreFile<{ description: string; category: string }>(
      store,
      `SELECT DISTINCT regexp_replace(description, '#[0-9]+', '#') AS description, category::VARCHAR AS category
       FROM transactions
       WHERE direction = 'DEBIT' AND regexp_matches(description, '^(LES SCHWAB|FIDELITY |VANGUARD CLEANING|SEATTLE KRAKEN)')
       ORDER BY 1`,
    );
    expect(guards).toEqual([
      { description: 'FIDELITY & GUARANTY LIFE', category: 'General Services' },
      { description: 'FIDELITY LIFE INS PREM', category: 'General Services' },
      { description: 'LES SCHWAB TIRE CENTER #', category: 'Transportation' },
      { description: 'SEATTLE KRAKEN TICKETS', category: 'Entertainment' },
      { description: 'VANGUARD CLEANING SYSTEMS', category: 'General Services' },
    ]);
  });

  it('has platform CREDITs, refunds, null and Unknown merchants, Other, missing subcategories', async () => {
    expect(
      await count("t.direction = 'CREDIT' AND t.description LIKE 'ROBINHOOD DES:WITHDRAWAL'"),
    ).toBeGreaterThan(0);
    expect(
      await count("t.direction = 'CREDIT' AND t.description LIKE 'VANGUARD DIVIDEND%'"),
    ).toBeGreaterThan(0);
    expect(
      await count(
        "t.direction = 'CREDIT' AND t.category IN ('Food and Drink', 'General Merchandise')",
      ),
    ).toBeGreaterThan(0);
    expect(await count('t.merchant_name IS NULL')).toBeGreaterThan(0);
    expect(await count("t.merchant_name = 'Unknown'")).toBeGreaterThan(0);
    expect(await count("t.category = 'Other'")).toBeGreaterThan(0);
    expect(await count("t.subcategory IS NULL AND t.category <> 'Other'")).toBeGreaterThan(0);
  });

  it('has recurring subscriptions with stable amounts, monthly and weekly', async () => {
    const subscriptions = await queryStoreFile<{ merchant_name: string; amounts: string }>(
      store,
      `SELECT merchant_name, count(DISTINCT amount) AS amounts FROM transactions
       WHERE merchant_name IN ('Netflix', 'Spotify', 'The New York Times') GROUP BY 1 ORDER BY 1`,
    );
    expect(subscriptions.length).toBeGreaterThanOrEqual(2);
    for (const row of subscriptions) expect(row.amounts).toBe('1');
  });

  it('has payroll links with pay statements matching salary CREDITs', async () => {
    const [payroll] = await queryStoreFile<Record<string, string>>(
      store,
      `SELECT count(DISTINCT p.user_id) AS users, count(*) AS statements,
              count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM transactions t WHERE t.user_id = p.user_id AND t.transacted_at = p.pay_date
                  AND t.amount = p.net_pay AND t.category = 'Income' AND t.direction = 'CREDIT')) AS matched
       FROM pay_statements p JOIN links l ON l.id = p.link_id WHERE l.type = 'payroll'`,
    );
    expect(Number(payroll?.users)).toBeGreaterThanOrEqual(3);
    expect(payroll?.matched).toBe(payroll?.statements);
  });

  it('has liabilities for cards and loans, and daily balances', async () => {
    const kinds = await queryStoreFile<{ kind: string }>(
      store,
      'SELECT DISTINCT kind::VARCHAR AS kind FROM liabilities ORDER BY 1',
    );
    expect(kinds.map((row) => row.kind)).toEqual([
      'auto_loan',
      'credit_card',
      'mortgage',
      'student_loan',
    ]);
    const [loan] = await queryStoreFile<Record<string, string | null>>(
      store,
      "SELECT apr, minimum_payment, next_payment_due_date, last_payment_amount, original_principal FROM liabilities WHERE kind = 'mortgage'",
    );
    expect(Object.values(loan ?? {}).every((value) => value !== null)).toBe(true);
    const [balances] = await queryStoreFile<Record<string, string>>(
      store,
      `SELECT count(DISTINCT account_id) AS accounts, (SELECT count(*) FROM accounts) AS all_accounts,
              count(*) / count(DISTINCT account_id) AS days_each,
              count(*) FILTER (WHERE credit_limit IS NOT NULL) AS with_limit
       FROM balances`,
    );
    expect(balances?.accounts).toBe(balances?.all_accounts);
    expect(Number(balances?.days_each)).toBeGreaterThan(450);
    expect(Number(balances?.with_limit)).toBeGreaterThan(0);
  });

  it('has a few future-dated transactions and amounts with cents', async () => {
    const future = await count("t.transacted_at > DATE '2026-11-20'");
    expect(future).toBeGreaterThan(0);
    expect(future).toBeLessThan(50);
    expect(await count('t.amount <> round(t.amount)')).toBeGreaterThan(1000);
  });
});
