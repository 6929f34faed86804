/**
 * The transaction list's file writers and negotiation, without a server: CSV cells and their
 * formula guard, CSV read back by csv-parse, Parquet read back by DuckDB (read_parquet in an
 * instance of the test's own), which format an `Accept` gets, the file name, and the file
 * columns against the list's `Transaction` schema.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Column, TableRow } from '../../src/areas/transactions/export/columns.ts';
import { csvCell, csvHeader, csvRows } from '../../src/areas/transactions/export/csv.ts';
import { negotiatedFormat } from '../../src/areas/transactions/export/formats.ts';
import { parquetTable } from '../../src/areas/transactions/export/parquet.ts';
import { exportFileName, TRANSACTION_COLUMNS } from '../../src/areas/transactions/list-formats.ts';
import { Transaction } from '../../src/areas/transactions/schemas.ts';
import { makeTempDir } from '../helpers/store.ts';

const text = (name: string, nullable = true): Column => ({ name, kind: 'text', nullable });
const COLUMNS: Column[] = [
  text('label', false),
  text('note'),
  { name: 'amount', kind: 'money', nullable: false },
  { name: 'day', kind: 'date', nullable: false },
  { name: 'flag', kind: 'boolean', nullable: false },
];

/** Formula starts and their look-alikes: full-width, small, super- and subscript forms. */
const LOOK_ALIKES = [
  '＝',
  '＋',
  '－',
  '＠',
  '﹦',
  '﹢',
  '﹣',
  '﹫',
  '⁼',
  '⁺',
  '₌',
  '₊',
  '\u{fb29}',
];
/** What a spreadsheet may skip before a formula: spaces, controls, invisible characters. */
const SKIPPABLE = [
  ' ',
  '\t',
  '\r',
  '\n',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u200b',
];
/**
 * Any text a bank may send: quotes, separators, line ends, formula starts and their
 * look-alikes, what a spreadsheet skips before them, any Unicode.
 */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      ',',
      '=',
      '+',
      '-',
      '@',
      "'",
      'a',
      'é',
      '−',
      ...LOOK_ALIKES,
      ...SKIPPABLE,
    ),
  }),
);
const money = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 36n - 1n }),
    fc.integer({ min: 0, max: 99 }),
  )
  // No "-0.00": DuckDB reads back a zero without its sign.
  .map(
    ([negative, whole, cents]) =>
      `${negative && (whole > 0n || cents > 0) ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`,
  );
const day = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const rows = fc.array(
  fc.record({
    label: anyText,
    note: fc.option(anyText, { nil: null }),
    amount: money,
    day,
    flag: fc.boolean(),
  }),
  { maxLength: 40 },
);
/**
 * Rows whose texts begin with no U+FEFF: the file holds it, but a JavaScript reader (DuckDB's
 * client, like hyparquet) decodes strings with TextDecoder, which drops a leading one.
 */
const parquetRows = rows.filter((table) =>
  table.every((row) => !row.label.startsWith('\ufeff') && !row.note?.startsWith('\ufeff')),
);

describe('CSV cells', () => {
  /** A cell's text, its RFC 4180 quotes removed. */
  const unquoted = (cell: string) =>
    cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;

  it.each<[string | boolean | null, string, string]>([
    ['plain', 'text', 'plain'],
    ['a,b', 'text', '"a,b"'],
    ['say "hi"', 'text', '"say ""hi"""'],
    ['two\nlines', 'text', '"two\nlines"'],
    ['cr\rhere', 'text', '"cr\rhere"'],
    ['', 'text', '""'],
    [null, 'text', ''],
    [true, 'boolean', 'true'],
    [false, 'boolean', 'false'],
    ['=HYPERLINK("http://x")', 'text', '"\'=HYPERLINK(""http://x"")"'],
    ['+1', 'text', "'+1"],
    ['-1', 'text', "'-1"],
    ['@SUM(A1)', 'text', "'@SUM(A1)"],
    ['\tTAB', 'text', "'\tTAB"],
    ['\rCR', 'text', '"\'\rCR"'],
    // An apostrophe of its own gets one more: removing one always gives the value back.
    ["'quoted", 'text', "''quoted"],
    ["'=1", 'text', "''=1"],
    ["'", 'text', "''"],
    // Formula starts after what a spreadsheet skips, and their look-alikes.
    [' =1', 'text', "' =1"],
    ['\ufeff=1', 'text', "'\ufeff=1"],
    ['\u0085+1', 'text', "'\u0085+1"],
    ['\u00a0@SUM(A1)', 'text', "'\u00a0@SUM(A1)"],
    ['\u2028-1', 'text', "'\u2028-1"],
    ['\u200b\u3000=1', 'text', "'\u200b\u3000=1"],
    ['\n=1', 'text', '"\'\n=1"'],
    [' \tx', 'text', "' \tx"],
    ['＝1', 'text', "'＝1"],
    ['＋1', 'text', "'＋1"],
    ['－1', 'text', "'－1"],
    ['＠SUM(A1)', 'text', "'＠SUM(A1)"],
    // Not formula starts: written as they are.
    [' hello', 'text', ' hello'],
    ['\nabc', 'text', '"\nabc"'],
    ['a=1', 'text', 'a=1'],
    ['2-1', 'text', '2-1'],
    ['−1', 'text', '−1'],
    [" 'x", 'text', " 'x"],
    ['ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ', 'text', 'ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ'],
    // Money and dates are no formulas: written as they are.
    ['-12.30', 'money', '-12.30'],
    ['2026-11-20', 'date', '2026-11-20'],
  ])('%j as %s: %j', (value, kind, written) => {
    expect(csvCell(value, { name: 'x', kind: kind as Column['kind'], nullable: true })).toBe(
      written,
    );
  });

  it('guards every character whose compatibility form is = + - or @, and no other', () => {
    const text: Column = { name: 'x', kind: 'text', nullable: true };
    const wrong: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCodePoint(code);
      const trigger = '=+-@'.includes(c.normalize('NFKC')) || c === '\t' || c === '\r';
      if (unquoted(csvCell(`${c}1`, text)).startsWith("'") !== (trigger || c === "'")) {
        wrong.push(`U+${code.toString(16)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('guards = after any run of the characters a spreadsheet may skip', () => {
    const text: Column = { name: 'x', kind: 'text', nullable: true };
    const skipped = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
    let count = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCodePoint(code);
      if (!skipped.test(c)) continue;
      count++;
      expect(unquoted(csvCell(`${c}${c}=1`, text)), `U+${code.toString(16)}`).toBe(`'${c}${c}=1`);
      expect(unquoted(csvCell(`${c}a=1`, text)), `U+${code.toString(16)}`).toBe(
        c === '\t' || c === '\r' ? `'${c}a=1` : `${c}a=1`,
      );
    }
    // U+0085, U+00A0, U+2028, U+FEFF among them.
    expect(count).toBeGreaterThan(4000);
  });

  it('writes a header of the column names and a CRLF after every row', () => {
    expect(
      csvHeader(COLUMNS) +
        csvRows(COLUMNS, [
          { label: 'a', note: null, amount: '1.00', day: '2026-01-02', flag: true },
        ]),
    ).toBe('label,note,amount,day,flag\r\na,,1.00,2026-01-02,true\r\n');
  });
});

describe('CSV read back by csv-parse', () => {
  /** What a reader gets back: a quoted empty cell is '', an unquoted one null. */
  const read = (csv: string): Record<string, string | null>[] =>
    parse(csv, {
      columns: true,
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    });
  /**
   * The cell as the guard writes it, by docs/api.md's rule spelled independently: a `'` before
   * a value that begins with `'`, or whose leading run of skippable characters holds a tab or
   * CR or is followed by a character whose compatibility form is = + - or @.
   */
  const guarded = (value: string) => {
    const [, run = '', next = ''] =
      /^([\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*)(.?)/su.exec(value) ?? [];
    const formula = /[\t\r]/.test(run) || (next !== '' && '=+-@'.includes(next.normalize('NFKC')));
    return value.startsWith("'") || formula ? `'${value}` : value;
  };
  /** The documented decoding: a cell that begins with `'` loses that one `'`. */
  const decoded = (cell: string | null) => (cell?.startsWith("'") ? cell.slice(1) : cell);

  it('gives every value back, the guarded ones with their leading quote', () => {
    fc.assert(
      fc.property(rows, (table) => {
        const parsed = read(csvHeader(COLUMNS) + csvRows(COLUMNS, table));
        expect(parsed).toEqual(
          table.map((row) => ({
            label: guarded(row.label),
            note: row.note === null ? null : guarded(row.note),
            amount: row.amount,
            day: row.day,
            flag: String(row.flag),
          })),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('gives every value back exactly once the documented decoding removes the guard', () => {
    fc.assert(
      fc.property(rows, (table) => {
        const parsed = read(csvHeader(COLUMNS) + csvRows(COLUMNS, table));
        expect(
          parsed.map((row) => [decoded(row.label ?? null), decoded(row.note ?? null)]),
        ).toEqual(table.map((row) => [row.label, row.note]));
      }),
      { numRuns: 300 },
    );
  });
});

describe('Parquet read back by DuckDB', () => {
  let instance: DuckDBInstance;
  const dir = makeTempDir('parquet');
  let files = 0;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
  });
  afterAll(() => instance.closeSync());

  /** The table written in chunks of `chunk` rows, as the stream hands them over. */
  function written(table: readonly TableRow[], rowGroupRows: number, chunk: number): Buffer {
    const file = parquetTable(COLUMNS, rowGroupRows);
    const pieces = [file.start()];
    for (let at = 0; at < table.length; at += chunk) {
      pieces.push(file.rows(table.slice(at, at + chunk)));
    }
    pieces.push(file.end());
    return Buffer.concat(pieces);
  }

  async function query(bytes: Buffer, sql: (file: string) => string) {
    const path = join(dir, `t${files++}.parquet`);
    await writeFile(path, bytes);
    const connection = await instance.connect();
    try {
      return (await connection.runAndReadAll(sql(`'${path}'`))).getRowObjectsJson();
    } finally {
      connection.closeSync();
    }
  }

  it('gives every value back exactly, with the declared types', async () => {
    await fc.assert(
      fc.asyncProperty(parquetRows, fc.integer({ min: 1, max: 7 }), async (table, chunk) => {
        const bytes = written(table, 5, chunk);
        const back = await query(bytes, (file) => `SELECT * FROM read_parquet(${file})`);
        expect(back).toEqual(table.map((row) => ({ ...row })));
      }),
      { numRuns: 40 },
    );
    const types = await query(
      written([], 5, 1),
      (file) =>
        `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${file}))`,
    );
    expect(types).toEqual([
      { column_name: 'label', column_type: 'VARCHAR' },
      { column_name: 'note', column_type: 'VARCHAR' },
      { column_name: 'amount', column_type: 'DECIMAL(38,2)' },
      { column_name: 'day', column_type: 'DATE' },
      { column_name: 'flag', column_type: 'BOOLEAN' },
    ]);
  });

  it('writes row groups of exactly the size asked (the last fewer), whatever the chunks', async () => {
    const table = Array.from({ length: 23 }, (_, i) => ({
      label: `r${i}`,
      note: null,
      amount: `${i}.05`,
      day: '2026-11-20',
      flag: i % 2 === 0,
    }));
    const bytes = written(table, 10, 7);
    // The same rows, the same bytes: however they were chunked.
    expect(written(table, 10, 1).equals(bytes)).toBe(true);
    expect(written(table, 10, 23).equals(bytes)).toBe(true);
    const groups = await query(
      bytes,
      (file) =>
        `SELECT row_group_id, any_value(row_group_num_rows) AS num_rows FROM parquet_metadata(${file}) GROUP BY ALL ORDER BY ALL`,
    );
    expect(groups.map((group) => Number(group.num_rows))).toEqual([10, 10, 3]);
  });

  it('an empty table is a file of no rows', async () => {
    const back = await query(written([], 10, 1), (file) => `SELECT count(*) AS n FROM ${file}`);
    expect(back).toEqual([{ n: '0' }]);
  });
});

describe('the format an Accept header gets', () => {
  it.each<[string | undefined, string | undefined]>([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['text/*', 'csv'],
    ['text/csv', 'csv'],
    ['TEXT/CSV; charset=UTF-8', 'csv'],
    ['application/x-ndjson', 'ndjson'],
    ['application/vnd.apache.parquet', 'parquet'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['text/csv;q=0, */*;q=0.1', 'json'],
    ['application/xml, */*;q=0.1', 'json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'json'],
    ['application/x-ndjson;q=0.9, application/vnd.apache.parquet', 'parquet'],
    ['image/png', undefined],
    ['text/csv; charset=latin1', undefined],
    ['text/csv; header=absent', undefined],
    ['application/json;q=0', undefined],
  ])('%j: %s', (accept, format) => {
    expect(negotiatedFormat(accept)).toBe(format);
  });
});

describe('the file name', () => {
  const base = {
    userId: 'usr_jqhzo7mn41',
    from: null,
    to: null,
    generation: '5f1c0ffee0ddba11',
    page: null,
  };
  it.each<[string, Partial<Parameters<typeof exportFileName>[0]>]>([
    ['transactions_usr_jqhzo7mn41_all_5f1c0ffee0ddba11.csv', { format: 'csv' }],
    [
      'transactions_usr_jqhzo7mn41_2026-01-01_to_2026-03-31_5f1c0ffee0ddba11.parquet',
      { format: 'parquet', from: '2026-01-01', to: '2026-03-31' },
    ],
    [
      'transactions_usr_jqhzo7mn41_from_2026-01-01_5f1c0ffee0ddba11.ndjson',
      { format: 'ndjson', from: '2026-01-01' },
    ],
    [
      'transactions_usr_jqhzo7mn41_to_2026-03-31_5f1c0ffee0ddba11.csv',
      { format: 'csv', to: '2026-03-31' },
    ],
    [
      'transactions_usr_jqhzo7mn41_all_5f1c0ffee0ddba11_page-3_size-50.csv',
      { format: 'csv', page: { page: 3n, size: 50 } },
    ],
    [
      'transactions_---x--..----_all_g-1.csv',
      { format: 'csv', userId: 'ü "x"/..\\;\r\n', generation: 'g 1' },
    ],
  ])('%s', (name, options) => {
    expect(exportFileName({ ...base, format: 'json', ...options })).toBe(name);
  });
});

describe('the file columns', () => {
  it('are the Transaction schema’s fields, in its order, nullable where it is', () => {
    const shape = Transaction.shape as Record<
      string,
      { safeParse(value: unknown): { success: boolean } }
    >;
    expect(TRANSACTION_COLUMNS.map((column) => column.name)).toEqual(Object.keys(shape));
    for (const column of TRANSACTION_COLUMNS) {
      expect(shape[column.name]?.safeParse(null).success, column.name).toBe(column.nullable);
    }
    expect(
      TRANSACTION_COLUMNS.filter((column) => column.kind !== 'text').map((column) => column.name),
    ).toEqual([
      'transacted_at',
      'amount',
      'is_hidden',
      'is_internal_transfer',
      'is_investment_account',
    ]);
  });
});
