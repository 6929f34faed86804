/**
 * Build-db names the real file line (quoted values may span lines), says
 * in its own words what is wrong with a CSV file DuckDB cannot read, and refuses an empty
 * required table unless asked; the old store stays untouched on every refusal.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../src/ingest/duckdb/build.ts';
import { BuildInputError } from '../../src/ingest/problems.ts';
import { csvToParquet } from '../helpers/parquet.ts';
import { makeTempDir, queryStoreFile } from '../helpers/store.ts';

const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
const BUILD_DB = resolve(import.meta.dirname, '../../scripts/build-db.ts');

const USERS = 'id,name,email,created_at\nusr_a,Ann,ann@example.com,2024-01-01\n';
const LINKS =
  'id,user_id,type,name,status,created_at\nlnk_a,usr_a,institution,Chase,active,2024-01-01\n';
const ACCOUNTS = 'id,user_id,link_id,name,type\nacc_a,usr_a,lnk_a,Checking,depository\n';
const TX_HEADER = 'id,user_id,account_id,transacted_at,amount,direction,description,category\n';
const tx = (id: string, description = 'SHOP', category = 'Other', extra = '') =>
  `${id},usr_a,acc_a,2024-02-01,1.00,DEBIT,${description},${category}${extra}\n`;

/** A source folder with the three small tables and this transactions.csv (text or bytes). */
async function source(transactions: string | Buffer): Promise<string> {
  const dir = makeTempDir('source');
  await writeFile(join(dir, 'users.csv'), USERS);
  await writeFile(join(dir, 'links.csv'), LINKS);
  await writeFile(join(dir, 'accounts.csv'), ACCOUNTS);
  await writeFile(join(dir, 'transactions.csv'), transactions);
  return dir;
}

async function problemsOf(sourceDir: string, databasePath?: string): Promise<string[]> {
  const target = databasePath ?? join(makeTempDir('store'), 'finance.duckdb');
  const error = await buildStore({ sourceDir, databasePath: target }).catch((e: unknown) => e);
  if (!(error instanceof BuildInputError)) throw new Error(`expected bad input, got ${error}`);
  return error.problems;
}

/** Enough rows that a later problem lies past DuckDB's sniffing sample (20,480 rows). */
const MANY_ROWS = Array.from({ length: 25_000 }, (_, i) => tx(`t${i}`)).join('');

/** DuckDB's own wording must never reach the user. */
function expectOwnWords(problems: string[]): void {
  const text = problems.join('\n');
  expect(text).not.toMatch(/CSV Error|sniff|Possible fixes|Original Line|Invalid Input Error/i);
}

describe('build-db: file lines, not record numbers', () => {
  it('a bad row after a quoted value spanning lines is named by its file line', async () => {
    const csv =
      TX_HEADER +
      tx('t1', '"FIRST LINE\nSECOND LINE\nTHIRD LINE"') + // lines 2-4
      tx('t2') + // line 5
      tx('t3', 'SHOP', 'Nope'); // line 6
    expect(await problemsOf(await source(csv))).toEqual([
      "transactions.csv:6: unknown category 'Nope'",
    ]);
  });

  it('a duplicate names both real lines; blank lines and CRLF are counted as lines', async () => {
    const csv = (
      TX_HEADER +
      tx('t1', '"MULTI\nLINE"') + // lines 2-3
      '\n' + // line 4, blank: no record
      tx('t2') + // line 5
      tx('t1', '"A\nB"')
    ) // lines 6-7
      .replaceAll('\n', '\r\n');
    expect(await problemsOf(await source(csv))).toEqual([
      "transactions.csv:6: duplicate id 't1' (first at line 2)",
    ]);
  });

  it('past DuckDB sniffing sample too', async () => {
    const csv = TX_HEADER + tx('m', '"A\nB"') + MANY_ROWS + tx('late', 'SHOP', 'Nope');
    // header 1, the two-line row 2-3, MANY rows 4..25003, the bad row 25004.
    expect(await problemsOf(await source(csv))).toEqual([
      "transactions.csv:25004: unknown category 'Nope'",
    ]);
  });
});

describe('build-db: unreadable CSV in its own words, with file and line', () => {
  const cases: [string, string | Buffer, string][] = [
    [
      'an extra column',
      TX_HEADER + tx('t1') + tx('t2', 'SHOP', 'Other', ',surplus'),
      'transactions.csv:3: 9 fields, but the header names 8 columns',
    ],
    [
      'an extra column past the sniffing sample, after a value spanning lines',
      TX_HEADER + tx('m', '"A\nB\nC"') + MANY_ROWS + tx('late', 'SHOP', 'Other', ',x'),
      'transactions.csv:25005: 9 fields, but the header names 8 columns',
    ],
    [
      'a missing column',
      `${TX_HEADER + tx('t1')}t2,usr_a,acc_a,2024-02-01,1.00,DEBIT,SHOP\n`,
      'transactions.csv:3: 7 fields, but the header names 8 columns',
    ],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from(TX_HEADER + tx('t1') + tx('t2', '"TWO\nLINES"')),
        Buffer.from('t3,usr_a,acc_a,2024-02-01,1.00,DEBIT,CAF'),
        Buffer.from([0xc9]),
        Buffer.from(',Other\n'),
      ]),
      'transactions.csv:5: not valid UTF-8 (byte 0xc9)',
    ],
    [
      'invalid UTF-8 past the sniffing sample',
      Buffer.concat([
        Buffer.from(TX_HEADER + MANY_ROWS),
        Buffer.from('t3,usr_a,acc_a,2024-02-01,1.00,DEBIT,'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(',Other\n'),
      ]),
      'transactions.csv:25002: not valid UTF-8 (byte 0xff)',
    ],
    [
      'an unterminated quote',
      `${TX_HEADER + tx('t1')}t2,usr_a,acc_a,2024-02-01,1.00,DEBIT,"OPEN,Other\n${tx('t3')}`,
      'transactions.csv:3: a quoted value starts here and is never closed',
    ],
    [
      'a character after a closing quote',
      TX_HEADER + tx('t1', '"SAID "HI" THERE"'),
      "transactions.csv:2: unexpected 'H' after the closing quote of a value",
    ],
  ];

  it.concurrent.for(cases)('%s', async ([, csv, expected], { expect }) => {
    const problems = await problemsOf(await source(csv));
    expect(
      problems.some((problem) => problem.startsWith(expected)),
      problems.join('\n'),
    ).toBe(true);
    expectOwnWords(problems);
  });
});

describe('build-db: an empty required table is refused unless asked', () => {
  it('a header-only transactions.csv keeps the old store; --allow-empty builds it', async () => {
    const dir = makeTempDir('store');
    const databasePath = join(dir, 'finance.duckdb');
    await buildStore({ sourceDir: await source(TX_HEADER + tx('t1')), databasePath });
    const generation = async () =>
      (
        await queryStoreFile<{ generation: string }>(
          databasePath,
          'SELECT generation FROM store_meta',
        )
      )[0]?.generation;
    const before = await generation();

    const empty = await source(TX_HEADER);
    const problems = await problemsOf(empty, databasePath);
    expect(problems).toEqual([
      expect.stringMatching(/^transactions\.csv: no rows \(only a header\)/),
    ]);
    expect(problems[0]).toContain('--allow-empty');
    expect(await generation()).toBe(before);
    expect(await readdir(dir)).toEqual(['finance.duckdb']);

    const result = await buildStore({ sourceDir: empty, databasePath, allowEmpty: true });
    expect(result.counts.transactions).toBe(0);
    expect(await generation()).toBe(result.generation);
  });

  it('the CLI: exit 1 naming the table, the store unchanged; --allow-empty in --help', async () => {
    const run = (args: string[]) => spawnSync(TSX, [BUILD_DB, ...args], { encoding: 'utf8' });
    const dir = makeTempDir('store');
    const databasePath = join(dir, 'finance.duckdb');
    const good = run(['--source', await source(TX_HEADER + tx('t1')), '--database', databasePath]);
    expect(good.status, good.stderr).toBe(0);

    const emptySource = await source(TX_HEADER);
    const refused = run(['--source', emptySource, '--database', databasePath]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('transactions.csv: no rows (only a header)');
    expect(refused.stderr).toContain('was not changed');
    const [count] = await queryStoreFile<{ n: string }>(
      databasePath,
      'SELECT count(*) AS n FROM transactions',
    );
    expect(count?.n).toBe('1');

    const unreadable = run([
      '--source',
      await source(TX_HEADER + tx('t1', 'SHOP', 'Other', ',x')),
      '--database',
      databasePath,
    ]);
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toContain('transactions.csv:2: 9 fields, but the header names 8');
    expectOwnWords([unreadable.stderr]);

    const allowed = run(['--source', emptySource, '--database', databasePath, '--allow-empty']);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(run(['--help']).stdout).toContain('--allow-empty');
    // Five runs of the CLI, each a Node process that loads TypeScript: a minute and more when
    // the machine's two cores are busy.
  }, 240_000);
});

describe('build-db: every file of the source folder is a table, or refused', () => {
  it('a misspelled table file is refused with the name it is near; nothing is built', async () => {
    const dir = await source(TX_HEADER + tx('t1'));
    await writeFile(join(dir, 'transaction.csv'), TX_HEADER + tx('t2'));
    await writeFile(join(dir, 'acounts.csv'), ACCOUNTS);
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    expect(await problemsOf(dir, databasePath)).toEqual([
      'acounts.csv: not a table of the data contract; did you mean accounts.csv?',
      'transaction.csv: not a table of the data contract; did you mean transactions.csv?',
    ]);
    expect(await readdir(dirname(databasePath))).toEqual([]);
  });

  it('hidden files and a README are ignored; any other file, and removals, are refused', async () => {
    const dir = await source(TX_HEADER + tx('t1'));
    await writeFile(join(dir, '.DS_Store'), 'x');
    await writeFile(join(dir, 'README.md'), '# export of 2026-11-21');
    const databasePath = join(makeTempDir('store'), 'finance.duckdb');
    await buildStore({ sourceDir: dir, databasePath });

    await writeFile(join(dir, 'notes.txt'), 'x');
    await writeFile(join(dir, 'transactions.deleted.csv'), 'id\nt1\n');
    expect(await problemsOf(dir)).toEqual([
      'notes.txt: not a table of the data contract (a folder holds <table>.csv, <table>.parquet; the tables are users, access_tokens, links, accounts, transactions, balances, pay_statements, liabilities)',
      'transactions.deleted.csv: removals belong in a change set (build-db --changes); a build reads whole tables',
    ]);
  });

  it('a table file that is a folder is named as one', async () => {
    const dir = await source(TX_HEADER + tx('t1'));
    await rm(join(dir, 'transactions.csv'));
    await mkdir(join(dir, 'transactions.csv'));
    expect(await problemsOf(dir)).toEqual(['transactions.csv: is a folder, not a file']);
  });

  it('a column named twice in the header is named as such, not as an unknown column', async () => {
    const header = TX_HEADER.replace('\n', ',amount\n');
    const problems = await problemsOf(
      await source(`${header}${tx('t1', 'SHOP', 'Other', ',2.00')}`),
    );
    expect(problems).toEqual(["transactions.csv:1: duplicate column 'amount' in the header"]);
  });
});

describe('build-db: a NUL character is refused at its line, CSV and Parquet alike', () => {
  it('in a CSV file', async () => {
    const csv = TX_HEADER + tx('t1') + tx('t2', 'SH\u0000OP');
    expect(await problemsOf(await source(csv))).toEqual([
      'transactions.csv:3: description contains a NUL character (U+0000), which the data contract does not allow',
    ]);
  });

  it('in a Parquet file', async () => {
    const dir = await source(TX_HEADER + tx('t1') + tx('t2', 'SH\u0000OP'));
    await csvToParquet(join(dir, 'transactions.csv'));
    expect(await problemsOf(dir)).toEqual([
      'transactions.parquet:row 2: description contains a NUL character (U+0000), which the data contract does not allow',
    ]);
  });

  it('the CLI: exit 1, the file line, nothing built', async () => {
    const run = spawnSync(
      TSX,
      [
        BUILD_DB,
        '--source',
        await source(TX_HEADER + tx('t\u0000')),
        '--database',
        join(makeTempDir('store'), 'finance.duckdb'),
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'transactions.csv:2: id contains a NUL character (U+0000), which the data contract does not allow',
    );
    expect(run.stderr).toContain('build stopped on the problems shown above');
  });
});
