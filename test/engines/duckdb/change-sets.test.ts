/**
 * Change sets on a DuckDB store (build-db --changes): the store a change set leaves is the
 * store a full build of the changed data makes (every table, the derived columns and the
 * rollups); a change set that would break the contract is refused with `file:line: reason`
 * and changes nothing; loads serialize; a load killed midway leaves the published store
 * serving and the next one succeeds; the CLI's usage, help and exit codes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORE_FORMAT_VERSION } from '../../../src/contract/store-format.ts';
import { TABLE_KEYS, TABLE_NAMES, TABLES } from '../../../src/contract/tables.ts';
import { applyChanges } from '../../../src/ingest/duckdb/apply.ts';
import { buildStore } from '../../../src/ingest/duckdb/build.ts';
import { BuildInputError } from '../../../src/ingest/problems.ts';
import { tokensPathFor } from '../../../src/tokens/path.ts';
import { loadTokens } from '../../../src/tokens/token-file.ts';
import { DEMO_DIR } from '../../../tools/demo-data/demo.ts';
import { type ChangeSetFiles, writeChangeSet } from '../../helpers/changing-store.ts';
import { csvToParquet } from '../../helpers/parquet.ts';
import {
  type FixtureRow,
  makeTempDir,
  queryStoreFile,
  writeCsvFixture,
} from '../../helpers/store.ts';

const TSX = resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
const BUILD_DB = resolve(import.meta.dirname, '../../../scripts/build-db.ts');
const SLOW = 240_000;

const BEN = 'usr_jqhzo7mn41';
const CHECKING = 'acc_mp5j4s9lxtbf2n';
const SAVINGS = 'acc_k79ts0f8muwkk8';

/** A change set touching every kind of row: what the equivalence test applies. */
const EVERYTHING: ChangeSetFiles = {
  upserts: {
    users: [
      {
        id: 'usr_new',
        name: 'New User',
        email: 'new@example.com',
        created_at: '2026-11-01T00:00:00Z',
      },
    ],
    links: [
      {
        id: 'lnk_new',
        user_id: 'usr_new',
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2026-11-01T00:00:00Z',
      },
    ],
    accounts: [
      {
        id: 'acc_new',
        user_id: 'usr_new',
        link_id: 'lnk_new',
        name: 'Checking',
        type: 'depository',
      },
      // A savings account becomes an investment account: its transactions' facts change.
      {
        id: SAVINGS,
        user_id: BEN,
        link_id: 'lnk_9jsnolw673es',
        name: 'Citibank Savings',
        mask: '2748',
        type: 'investment',
        subtype: 'brokerage',
        currency: 'USD',
      },
    ],
    transactions: [
      {
        id: 'txn_lrz9m3vum8wzd2zylw28',
        user_id: BEN,
        account_id: 'acc_c91djv0subp9qu',
        transacted_at: '2025-08-21',
        amount: '150.00',
        direction: 'DEBIT',
        description: 'GEICO *AUTO',
        merchant_name: 'GEICO',
        category: 'General Services',
      },
      {
        id: 'txn_c1',
        user_id: BEN,
        account_id: CHECKING,
        transacted_at: '2026-11-19',
        amount: '12.34',
        direction: 'DEBIT',
        description: 'ROBINHOOD FUNDS',
        category: 'Transfer Out',
      },
      {
        id: 'txn_c2',
        user_id: BEN,
        account_id: CHECKING,
        transacted_at: '2026-10-02',
        amount: '45.00',
        direction: 'DEBIT',
        description: 'BLUE BOTTLE',
        merchant_name: 'Blue Bottle Coffee',
        category: 'Food and Drink',
      },
      {
        id: 'txn_c3',
        user_id: 'usr_new',
        account_id: 'acc_new',
        transacted_at: '2026-11-02',
        amount: '9.99',
        direction: 'DEBIT',
        description: 'NETFLIX',
        merchant_name: 'Netflix',
        category: 'Entertainment',
      },
    ],
    balances: [
      { account_id: CHECKING, as_of: '2026-11-21', current: '100.00' },
      { account_id: 'acc_new', as_of: '2026-11-21', current: '5.00', available: '5.00' },
    ],
  },
  deletes: {
    transactions: [{ id: 'txn_hdujbn8vlpyyux57fol1' }, { id: 'txn_not_there' }],
    balances: [{ account_id: CHECKING, as_of: '2025-08-21' }],
  },
};

/** A new transaction of a demo user, valid on its own. */
const NEW_TRANSACTION = {
  id: 'txn_new',
  user_id: BEN,
  account_id: CHECKING,
  transacted_at: '2026-11-19',
  amount: '1.00',
  direction: 'DEBIT',
  description: 'SHOP',
  category: 'Other',
};

/** The source folder a full build of the changed data reads: the demo data with the change set applied. */
async function changedSource(changesDir: string): Promise<string> {
  const out = makeTempDir('changed-source');
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const csv = (path: string) =>
    `read_csv('${path}', all_varchar = true, header = true, quote = '"', escape = '"')`;
  const exists = async (path: string) =>
    readFile(path).then(
      () => true,
      () => false,
    );
  try {
    for (const table of TABLE_NAMES) {
      const base = join(DEMO_DIR, `${table}.csv`);
      const upserts = join(changesDir, `${table}.csv`);
      const deletes = join(changesDir, `${table}.deleted.csv`);
      if (!(await exists(base)) && !(await exists(upserts))) continue;
      const keys = TABLE_KEYS[table].join(', ');
      const columns = TABLES[table].columns.map((column) => column.name);
      const parts: string[] = [];
      if (await exists(base)) {
        const gone = [
          ...((await exists(upserts)) ? [`SELECT ${keys} FROM ${csv(upserts)}`] : []),
          ...((await exists(deletes)) ? [`SELECT ${keys} FROM ${csv(deletes)}`] : []),
        ];
        parts.push(
          `SELECT * FROM ${csv(base)}${gone.length ? ` WHERE (${keys}) NOT IN (${gone.join(' UNION ')})` : ''}`,
        );
      }
      if (await exists(upserts)) parts.push(`SELECT * FROM ${csv(upserts)}`);
      const select = columns.map((column) => `CAST(NULL AS VARCHAR) AS ${column}`).join(', ');
      await conn.run(
        `COPY (SELECT * FROM (SELECT ${select} WHERE false) UNION ALL BY NAME ${parts.join(' UNION ALL BY NAME ')})
         TO '${join(out, `${table}.csv`)}' (HEADER, QUOTE '"')`,
      );
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return out;
}

/** Every table a store's answers come from, as sorted rows (lists sorted where their order is free). */
async function contents(databasePath: string): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = Object.fromEntries(
    TABLE_NAMES.map((table) => [table, `SELECT * FROM ${table}`]),
  );
  tables.spending_daily =
    'SELECT * EXCLUDE (amounts), list_sort(amounts) AS amounts FROM spending_daily';
  tables.spending_monthly = `SELECT * EXCLUDE (amounts), list_sort(amounts) AS amounts FROM spending_monthly`;
  tables.spending_monthly_users = 'SELECT * FROM spending_monthly_users';
  const result: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(tables)) {
    const rows = await queryStoreFile(
      databasePath,
      `SELECT to_json(r)::VARCHAR AS row FROM (${sql}) r`,
    );
    result[name] = rows.map((row) => String(row.row)).sort();
  }
  return result;
}

let base: string;
beforeAll(async () => {
  base = join(makeTempDir('base'), 'finance.duckdb');
  await buildStore({ sourceDir: DEMO_DIR, databasePath: base });
}, SLOW);

async function copyOfBase(): Promise<string> {
  const path = join(makeTempDir('store'), 'finance.duckdb');
  await buildStore({ sourceDir: DEMO_DIR, databasePath: path });
  return path;
}

const meta = async (path: string) =>
  (
    await queryStoreFile<{ generation: string; seq: number; lineage: string }>(
      path,
      'SELECT generation, seq, lineage FROM store_meta',
    )
  )[0];

describe('a change set on a DuckDB store', () => {
  it(
    'leaves the store a full build of the changed data makes: rows, derived columns, rollups',
    async () => {
      const store = await copyOfBase();
      const changesDir = await writeChangeSet(EVERYTHING);
      const result = await applyChanges({ changesDir, databasePath: store });
      expect(result.seq).toBe(1);
      expect(result.summary.log).toMatchObject({ added: 3, removed: 1 });
      const rebuilt = join(makeTempDir('rebuilt'), 'finance.duckdb');
      await buildStore({ sourceDir: await changedSource(changesDir), databasePath: rebuilt });
      const [applied, full] = await Promise.all([contents(store), contents(rebuilt)]);
      for (const table of Object.keys(full)) expect(applied[table], table).toEqual(full[table]);
      const log = await queryStoreFile(
        store,
        'SELECT count(*)::INTEGER AS n, count(DISTINCT seq)::INTEGER AS sets FROM change_log',
      );
      // The savings account's transactions changed as the list shows them (now investment).
      expect(Number(log[0]?.n)).toBeGreaterThan(10);
      expect(await meta(store)).toMatchObject({
        seq: 1,
        lineage:
          (await meta(base))?.lineage === undefined ? expect.any(String) : expect.any(String),
      });
    },
    SLOW,
  );

  it(
    'refuses what would break the contract, naming file and line, and changes nothing',
    async () => {
      const store = await copyOfBase();
      const before = await meta(store);
      const cases: [ChangeSetFiles, string[]][] = [
        [
          { deletes: { accounts: [{ id: CHECKING }] } },
          [
            `accounts.deleted.csv:2: this change leaves the stored transaction`,
            `accounts.deleted.csv:2: this change leaves the stored balance`,
          ],
        ],
        [
          {
            upserts: {
              transactions: [
                {
                  id: 'txn_x',
                  user_id: BEN,
                  account_id: 'acc_missing',
                  transacted_at: '2026-01-01',
                  amount: '1.00',
                  direction: 'DEBIT',
                  description: 'X',
                  category: 'Other',
                },
                {
                  id: 'txn_y',
                  user_id: BEN,
                  account_id: CHECKING,
                  transacted_at: '2026-01-01',
                  amount: '1.00',
                  direction: 'DEBIT',
                  description: 'Y',
                  category: 'Other',
                },
                {
                  id: 'txn_y',
                  user_id: BEN,
                  account_id: CHECKING,
                  transacted_at: '2026-01-01',
                  amount: '2.00',
                  direction: 'DEBIT',
                  description: 'Y',
                  category: 'Other',
                },
              ],
            },
          },
          [
            "transactions.csv:2: account 'acc_missing' does not exist in accounts",
            "transactions.csv:4: duplicate id 'txn_y' (first at line 3)",
          ],
        ],
        [
          {
            upserts: {
              transactions: [
                {
                  id: 'txn_z',
                  user_id: BEN,
                  account_id: CHECKING,
                  transacted_at: '2026-02-30',
                  amount: '-1',
                  direction: 'DEBIT',
                  description: 'Z',
                  category: 'Other',
                },
              ],
            },
          },
          ["transactions.csv:2: transacted_at is not a date (YYYY-MM-DD): '2026-02-30'"],
        ],
        [
          {
            upserts: {
              transactions: [
                {
                  id: 'txn_hdujbn8vlpyyux57fol1',
                  user_id: BEN,
                  account_id: CHECKING,
                  transacted_at: '2026-01-01',
                  amount: '1.00',
                  direction: 'DEBIT',
                  description: 'Z',
                  category: 'Other',
                },
              ],
            },
            deletes: { transactions: [{ id: 'txn_hdujbn8vlpyyux57fol1' }] },
          },
          [
            "transactions.deleted.csv:2: 'txn_hdujbn8vlpyyux57fol1' is both removed here and upserted in transactions.csv",
          ],
        ],
        [
          { deletes: { users: [{ id: BEN }] } },
          ['users.deleted.csv:2: this change leaves the stored link'],
        ],
        [
          { deletes: { balances: [{ account_id: CHECKING, day: '2026-01-01' }] } },
          [
            "balances.deleted.csv:1: unknown column 'day'",
            "balances.deleted.csv:1: missing required column 'as_of'",
          ],
        ],
        [
          // Misspelled files: never silently left out.
          {
            upserts: {
              transactions: [NEW_TRANSACTION],
              transaction: [{ ...NEW_TRANSACTION, id: 'txn_other' }],
              acounts: [{ id: CHECKING }],
              'transactions.delete': [{ id: 'txn_hdujbn8vlpyyux57fol1' }],
            },
          },
          [
            'acounts.csv: not a table of the data contract; did you mean accounts.csv?',
            'transaction.csv: not a table of the data contract; did you mean transactions.csv?',
            'transactions.delete.csv: not a table of the data contract; did you mean transactions.deleted.csv?',
          ],
        ],
        [
          {
            upserts: { transactions: [{ ...NEW_TRANSACTION, description: 'BLUE\u0000BOTTLE' }] },
            deletes: { transactions: [{ id: 'txn_\u0000' }] },
          },
          [
            'transactions.csv:2: description contains a NUL character (U+0000), which the data contract does not allow',
            'transactions.deleted.csv:2: id contains a NUL character (U+0000), which the data contract does not allow',
          ],
        ],
        [
          {
            upserts: {
              transactions: [{ ...NEW_TRANSACTION, 'amount ': '2.00' }],
            },
          },
          ["transactions.csv:1: duplicate column 'amount' in the header"],
        ],
      ];
      for (const [files, expected] of cases) {
        const error = await applyChanges({
          changesDir: await writeChangeSet(files),
          databasePath: store,
        }).catch((e: unknown) => e);
        expect(error, JSON.stringify(files)).toBeInstanceOf(BuildInputError);
        const problems = (error as BuildInputError).problems;
        for (const line of expected) {
          expect(
            problems.some((problem) => problem.startsWith(line)),
            `${line}\n${problems.join('\n')}`,
          ).toBe(true);
        }
      }
      expect(await meta(store)).toEqual(before);
    },
    SLOW,
  );

  it(
    'refuses a NUL character in a Parquet change file at its row, and changes nothing',
    async () => {
      const store = await copyOfBase();
      const before = await meta(store);
      const changesDir = await writeChangeSet({
        upserts: { transactions: [NEW_TRANSACTION, { ...NEW_TRANSACTION, id: 'txn_\u0000' }] },
      });
      await csvToParquet(join(changesDir, 'transactions.csv'));
      const error = await applyChanges({ changesDir, databasePath: store }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BuildInputError);
      expect((error as BuildInputError).problems).toEqual([
        'transactions.parquet:row 2: id contains a NUL character (U+0000), which the data contract does not allow',
      ]);
      expect(await meta(store)).toEqual(before);
    },
    SLOW,
  );

  it(
    'serializes loads: two at once both apply, one after the other',
    async () => {
      const store = await copyOfBase();
      const one = (id: string) =>
        writeChangeSet({
          upserts: {
            transactions: [
              {
                id,
                user_id: BEN,
                account_id: CHECKING,
                transacted_at: '2026-11-01',
                amount: '3.00',
                direction: 'DEBIT',
                description: id,
                category: 'Other',
              },
            ],
          },
        });
      const [a, b] = await Promise.all([one('txn_a'), one('txn_b')]);
      const results = await Promise.all([
        applyChanges({ changesDir: a, databasePath: store }),
        applyChanges({ changesDir: b, databasePath: store }),
      ]);
      expect(results.map((result) => result.seq).sort()).toEqual([1, 2]);
      const rows = await queryStoreFile(
        store,
        `SELECT id FROM transactions WHERE id IN ('txn_a', 'txn_b') ORDER BY id`,
      );
      expect(rows.map((row) => row.id)).toEqual(['txn_a', 'txn_b']);
    },
    SLOW,
  );

  it(
    'refuses a store of another format, saying to rebuild it, and changes nothing',
    async () => {
      const store = await copyOfBase();
      const instance = await DuckDBInstance.create(store);
      const conn = await instance.connect();
      await conn.run(`UPDATE store_meta SET format_version = ${STORE_FORMAT_VERSION - 1}`);
      conn.closeSync();
      instance.closeSync();
      const before = await meta(store);
      const error = await applyChanges({
        changesDir: await writeChangeSet(EVERYTHING),
        databasePath: store,
      }).catch((e: unknown) => e);
      expect(String(error)).toMatch(
        new RegExp(
          `store format ${STORE_FORMAT_VERSION - 1} .*rebuild it once with --source before applying change sets`,
        ),
      );
      expect(await meta(store)).toEqual(before);
    },
    SLOW,
  );

  it(
    'a load killed midway leaves the store serving, and the next load succeeds',
    async () => {
      const store = await copyOfBase();
      const before = await meta(store);
      const changesDir = await writeChangeSet(EVERYTHING);
      // One process: tsx's launcher would leave its child running when killed.
      const child = spawn(
        'node',
        ['--import', 'tsx', BUILD_DB, '--changes', changesDir, '--database', store],
        { cwd: resolve(import.meta.dirname, '../../..'), stdio: ['ignore', 'ignore', 'pipe'] },
      );
      await new Promise<void>((resolvePromise) => {
        child.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('read the stored rows')) {
            child.kill('SIGKILL');
            resolvePromise();
          }
        });
        child.once('exit', () => resolvePromise());
      });
      await new Promise((resolvePromise) => child.once('exit', resolvePromise));
      expect(await meta(store)).toEqual(before);
      const run = spawnSync(TSX, [BUILD_DB, '--changes', changesDir, '--database', store], {
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect((await meta(store))?.seq, run.stderr).toBe(1);
      // The killed load's scratch files beside the store are gone with it.
      expect(run.stderr).toMatch(/removed \d+ file\(s\) left by an interrupted build/);
      const left = (await readdir(dirname(store))).filter((name) =>
        name.startsWith(`.${basename(store)}.`),
      );
      expect(left).toEqual([]);
    },
    SLOW,
  );

  it(
    'the CLI: usage and exit codes',
    async () => {
      const store = await copyOfBase();
      const cli = (...args: string[]) => spawnSync(TSX, [BUILD_DB, ...args], { encoding: 'utf8' });
      const help = cli('--help');
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('--changes <folder>');
      expect(help.stdout).toContain('--keep-log');
      expect(cli('--source', DEMO_DIR, '--changes', DEMO_DIR, '--database', store).status).toBe(2);
      expect(cli('--changes', DEMO_DIR, '--database', store, '--keep-log', 'soon').status).toBe(2);
      expect(cli('--source', DEMO_DIR, '--database', store, '--keep-log', '3').status).toBe(2);
      const refused = cli(
        '--changes',
        await writeChangeSet({ deletes: { accounts: [{ id: CHECKING }] } }),
        '--database',
        store,
      );
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('accounts.deleted.csv:2:');
      expect(refused.stderr).toContain('change set refused');
      const empty = cli('--changes', makeTempDir('empty'), '--database', store);
      expect(empty.status).toBe(1);
      expect(empty.stderr).toContain('no change files');
      const misspelled = cli(
        '--changes',
        await writeChangeSet({ upserts: { transaction: [NEW_TRANSACTION] } }),
        '--database',
        store,
      );
      expect(misspelled.status).toBe(1);
      expect(misspelled.stderr).toContain(
        'transaction.csv: not a table of the data contract; did you mean transactions.csv?',
      );
      expect(misspelled.stderr).toContain('change set refused');
    },
    SLOW,
  );
});

/** A one-user store with a token: what the tests of file names and tokens build. */
const TOKEN_A = 'a'.repeat(64);
const TOKEN_B = 'b'.repeat(64);
const token = (hash: string, created: string): FixtureRow => ({
  token_hash: hash,
  user_id: 'usr_a',
  name: 'upstream',
  created_at: created,
});
const transaction = (id: string): FixtureRow => ({
  id,
  user_id: 'usr_a',
  account_id: 'acc_a',
  transacted_at: '2024-02-01',
  amount: '1.00',
  direction: 'DEBIT',
  description: 'SHOP',
  category: 'Other',
});
const SMALL: Record<string, FixtureRow[]> = {
  users: [{ id: 'usr_a', name: 'Ann', email: 'ann@example.com', created_at: '2024-01-01' }],
  links: [
    {
      id: 'lnk_a',
      user_id: 'usr_a',
      type: 'institution',
      name: 'Chase',
      status: 'active',
      created_at: '2024-01-01',
    },
  ],
  accounts: [
    { id: 'acc_a', user_id: 'usr_a', link_id: 'lnk_a', name: 'Checking', type: 'depository' },
  ],
  transactions: [transaction('t1')],
  access_tokens: [token(TOKEN_A, '2024-01-01T00:00:00Z')],
};
/** Adds a transaction and a token, revokes the build's token. */
const WITH_TOKENS: ChangeSetFiles = {
  upserts: {
    transactions: [transaction('t2')],
    access_tokens: [token(TOKEN_B, '2024-01-02T00:00:00Z')],
  },
  deletes: { access_tokens: [{ token_hash: TOKEN_A }] },
};

async function smallSource(): Promise<string> {
  const dir = makeTempDir('small');
  await writeCsvFixture(dir, SMALL);
  return dir;
}

describe('any store file name', () => {
  // DuckDB names a file's catalog after the file: each of these names once met a catalog,
  // schema or alias of build-db's SQL (`store`, `staging`, `delta`, ...), the token file's
  // among them (`source.tokens.duckdb`), and made a build or a change set fail.
  const NAMES = [
    'store',
    'out',
    'staging',
    'delta',
    'cur',
    'want',
    'source',
    'scratch',
    'build',
    'tokens',
    'main',
    'memory',
    'finance.tokens',
  ];
  const CASES: { store: string; tokens: string; given: boolean }[] = [
    ...NAMES.map((name) => ({
      store: `${name}.duckdb`,
      tokens: `${name}.tokens.duckdb`,
      given: false,
    })),
    // A token file named apart from its store (--tokens).
    { store: 'finance.duckdb', tokens: 'source.duckdb', given: true },
    { store: 'finance.duckdb', tokens: 'staging.duckdb', given: true },
  ];
  it.for(CASES)(
    '$store with $tokens: a build and a change set, tokens included',
    async ({ store, tokens: tokensName, given }) => {
      const dir = makeTempDir('named');
      const databasePath = join(dir, store);
      const tokensPath = join(dir, tokensName);
      expect(given || tokensPathFor(databasePath) === tokensPath).toBe(true);
      await buildStore({
        sourceDir: await smallSource(),
        databasePath,
        ...(given ? { tokensPath } : {}),
      });
      const result = await applyChanges({
        changesDir: await writeChangeSet(WITH_TOKENS),
        databasePath,
        ...(given ? { tokensPath } : {}),
      });
      expect(result.seq).toBe(1);
      const ids = await queryStoreFile(databasePath, 'SELECT id FROM transactions ORDER BY id');
      expect(ids.map((row) => row.id)).toEqual(['t1', 't2']);
      const tokens = await loadTokens(tokensPath);
      expect(tokens.map((stored) => [stored.tokenHash, stored.revokedAtMs !== null])).toEqual([
        [TOKEN_A, true],
        [TOKEN_B, false],
      ]);
      expect((await readdir(dir)).sort()).toEqual([store, tokensName].sort());
    },
  );
});

describe('a change set that changes nothing publishes nothing', () => {
  /** What a change set that publishes nothing must leave as it is: the files, their bytes. */
  const files = async (paths: string[]) =>
    Promise.all(
      paths.map(async (path) => {
        const info = await stat(path);
        const sha256 = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
        return { path, ino: info.ino, mtimeMs: info.mtimeMs, sha256 };
      }),
    );

  it(
    'applied twice, the second time: the same generation, no change set entry, files untouched',
    async () => {
      const store = await copyOfBase();
      const changesDir = await writeChangeSet(EVERYTHING);
      const first = await applyChanges({ changesDir, databasePath: store });
      expect([first.published, first.seq]).toEqual([true, 1]);
      const before = await files([store]);
      const again = await applyChanges({ changesDir, databasePath: store });
      expect(again).toMatchObject({ published: false, generation: first.generation, seq: 1 });
      expect(again.summary.changesStore).toBe(false);
      expect(await files([store])).toEqual(before);
      expect(await meta(store)).toMatchObject({ generation: first.generation, seq: 1 });
      const sets = await queryStoreFile(store, 'SELECT count(*)::INTEGER AS n FROM change_sets');
      expect(sets).toEqual([{ n: 1 }]);
      expect(await readdir(dirname(store))).toEqual(['finance.duckdb']);
    },
    SLOW,
  );

  it(
    'tokens count by the token store: a repeated revocation or upsert changes nothing, a new one does',
    async () => {
      const databasePath = join(makeTempDir('store'), 'finance.duckdb');
      await buildStore({ sourceDir: await smallSource(), databasePath });
      const tokensPath = tokensPathFor(databasePath);
      expect(
        (await applyChanges({ changesDir: await writeChangeSet(WITH_TOKENS), databasePath }))
          .published,
      ).toBe(true);
      const before = await files([databasePath, tokensPath]);
      for (const change of [
        WITH_TOKENS,
        // Revoking a revoked token, or one the store never held, changes nothing.
        { deletes: { access_tokens: [{ token_hash: TOKEN_A }, { token_hash: 'c'.repeat(64) }] } },
        // A known hash keeps its row: other details in an upsert change nothing.
        {
          upserts: {
            access_tokens: [{ ...token(TOKEN_B, '2024-01-02T00:00:00Z'), name: 'renamed' }],
          },
        },
      ]) {
        const result = await applyChanges({
          changesDir: await writeChangeSet(change),
          databasePath,
        });
        expect(result.published, JSON.stringify(change)).toBe(false);
      }
      expect(await files([databasePath, tokensPath])).toEqual(before);
      // Revoking a token still in force does change it.
      const revoke = await applyChanges({
        changesDir: await writeChangeSet({ deletes: { access_tokens: [{ token_hash: TOKEN_B }] } }),
        databasePath,
      });
      expect([revoke.published, revoke.seq]).toEqual([true, 2]);
      expect((await loadTokens(tokensPath)).every((stored) => stored.revokedAtMs !== null)).toBe(
        true,
      );
    },
    SLOW,
  );

  it(
    'the CLI says so in one line and exits 0',
    async () => {
      const databasePath = join(makeTempDir('store'), 'finance.duckdb');
      await buildStore({ sourceDir: await smallSource(), databasePath });
      const changesDir = await writeChangeSet({ upserts: { transactions: [transaction('t1')] } });
      const generation = (await meta(databasePath))?.generation;
      const run = spawnSync(TSX, [BUILD_DB, '--changes', changesDir, '--database', databasePath], {
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        `build-db: the change set changes nothing: generation ${generation} still serves, nothing was published\n`,
      );
      expect(run.stderr).not.toContain('published generation');
      expect((await meta(databasePath))?.generation).toBe(generation);
    },
    SLOW,
  );
});

describe('a build or a change set applies whole or not at all', () => {
  it('a token store that cannot take the tokens leaves the store unchanged too', async () => {
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    await buildStore({ sourceDir: await smallSource(), databasePath });
    const before = await meta(databasePath);
    const tokensPath = tokensPathFor(databasePath);
    await writeFile(tokensPath, 'not a DuckDB file');

    const build = await buildStore({ sourceDir: await smallSource(), databasePath }).catch(
      (error: unknown) => error,
    );
    expect(build).toBeInstanceOf(Error);
    expect(await meta(databasePath)).toEqual(before);

    const apply = await applyChanges({
      changesDir: await writeChangeSet(WITH_TOKENS),
      databasePath,
    }).catch((error: unknown) => error);
    expect(apply).toBeInstanceOf(Error);
    expect(await meta(databasePath)).toEqual(before);
    expect(await readFile(tokensPath, 'utf8')).toBe('not a DuckDB file');
  });
});
