/**
 * The transaction list in each of its formats (docs/api.md, "Formats"): JSON, or a file of the
 * listed transactions, one row each, with the fields of `transactions[]` in the list's order
 * and values as the JSON list shows them (`listedTransaction`): CSV, NDJSON or Parquet. A file
 * holds the transactions alone (no count, accounts or daily totals) and comes with a file name.
 */
import type { AccountRecord, TransactionRecord } from '../../port/read-port.ts';
import type { Column, TableRow } from './export/columns.ts';
import { csvHeader, csvRows } from './export/csv.ts';
import { type ListFormat, mediaTypeOf } from './export/formats.ts';
import { parquetTable } from './export/parquet.ts';
import { jsonListBody, type ListBody, listedTransaction } from './stream.ts';

type ListedTransaction = ReturnType<typeof listedTransaction>;

/** The columns of a file: the `Transaction` schema's fields, in its order (a test holds them together). */
export const TRANSACTION_COLUMNS: readonly Column<keyof ListedTransaction & string>[] = [
  { name: 'id', kind: 'text', nullable: false },
  { name: 'external_id', kind: 'text', nullable: true },
  { name: 'account_id', kind: 'text', nullable: false },
  { name: 'transacted_at', kind: 'date', nullable: false },
  { name: 'amount', kind: 'money', nullable: false },
  { name: 'direction', kind: 'text', nullable: false },
  { name: 'description', kind: 'text', nullable: false },
  { name: 'merchant_name', kind: 'text', nullable: true },
  { name: 'category', kind: 'text', nullable: false },
  { name: 'subcategory', kind: 'text', nullable: true },
  { name: 'merchant_category_code', kind: 'text', nullable: true },
  { name: 'is_hidden', kind: 'boolean', nullable: false },
  { name: 'is_internal_transfer', kind: 'boolean', nullable: false },
  { name: 'is_investment_account', kind: 'boolean', nullable: false },
];

/**
 * Rows of a Parquet row group, about a chunk of the list. A row group is encoded at once,
 * blocking the event loop meanwhile: measured (docs/performance.md, "The list's files"), a
 * group of 1,000 rows blocks it two to three times as long as a JSON chunk, one of 10,000 rows
 * about four times longer again, for a file a fifth smaller.
 */
const PARQUET_ROW_GROUP_ROWS = 1_000;

const tableRows = (rows: readonly TransactionRecord[]): TableRow[] => rows.map(listedTransaction);

/** The body of a list of `total` transactions in `format`. */
export function listBody(format: ListFormat, total: number, accounts: AccountRecord[]): ListBody {
  switch (format) {
    case 'json':
      return jsonListBody(total, accounts);
    case 'csv':
      return {
        start: () => csvHeader(TRANSACTION_COLUMNS),
        rows: (rows) => csvRows(TRANSACTION_COLUMNS, tableRows(rows)),
        end: () => '',
      };
    case 'ndjson':
      // Each line the bytes the JSON list writes for the transaction.
      return {
        start: () => '',
        rows: (rows) => rows.map((row) => `${JSON.stringify(listedTransaction(row))}\n`).join(''),
        end: () => '',
      };
    case 'parquet': {
      const table = parquetTable(TRANSACTION_COLUMNS, PARQUET_ROW_GROUP_ROWS);
      return {
        start: () => table.start(),
        rows: (rows) => table.rows(tableRows(rows)),
        end: () => table.end(),
      };
    }
  }
}

/** What may appear in a file name: anything else becomes `-`. */
const UNSAFE = /[^A-Za-z0-9._-]/g;
const safe = (text: string, length: number) => text.replace(UNSAFE, '-').slice(0, length);

/**
 * `transactions_<user>_<window>_<generation>[_page-<n>_size-<s>].<format>`: the window is
 * `<from>_to_<to>`, `from_<from>`, `to_<to>` or `all` (the `transacted_at` bounds sent), the
 * generation the store's (`X-Store-Generation`). Only `A-Z a-z 0-9 . _ -`: any other character
 * of the user id or the generation is written `-`.
 */
export function exportFileName(options: {
  userId: string;
  from: string | null;
  to: string | null;
  generation: string;
  page: { page: bigint; size: number } | null;
  format: ListFormat;
}): string {
  const { from, to, page } = options;
  const window =
    from !== null && to !== null
      ? `${from}_to_${to}`
      : from !== null
        ? `from_${from}`
        : to !== null
          ? `to_${to}`
          : 'all';
  const paged = page ? `_page-${page.page}_size-${page.size}` : '';
  return `transactions_${safe(options.userId, 64)}_${window}_${safe(options.generation, 64)}${paged}.${options.format}`;
}

const fileDescription = (what: string) =>
  `${what} Sent as an attachment: \`Content-Disposition: attachment; filename="transactions_<user>_<window>_<generation>.<format>"\`.`;

/** The 200's other media types, as openapi.yaml documents them (docs/api.md, "Formats"). */
export const FILE_CONTENT = {
  [mediaTypeOf('csv')]: {
    schema: {
      type: 'string',
      description: fileDescription(
        `RFC 4180 CSV in UTF-8, CRLF line ends: a header row \`${TRANSACTION_COLUMNS.map((column) => column.name).join(',')}\`, then one row per transaction, newest first. Values as in the JSON list (money as decimal text, dates YYYY-MM-DD, booleans true/false); null is an empty cell, the empty string a quoted one; formula guard: a text cell that begins with an apostrophe, or like a formula (=, +, -, @, their full-width and other compatibility forms, a tab or a carriage return) after any white space, control or invisible characters, is written with a leading apostrophe; remove one leading apostrophe from a cell that has one to get the stored text back.`,
      ),
    },
  },
  [mediaTypeOf('ndjson')]: {
    schema: {
      type: 'string',
      description: fileDescription(
        'Newline-delimited JSON: one `Transaction` object per line, newest first, each exactly as the JSON list writes it; nothing for an empty list.',
      ),
    },
  },
  [mediaTypeOf('parquet')]: {
    schema: {
      type: 'string',
      format: 'binary',
      description: fileDescription(
        'One Apache Parquet file: a column per `Transaction` field, in its order; `amount` DECIMAL(38,2), `transacted_at` DATE, the flags BOOLEAN, the rest UTF-8 strings (nullable as in `Transaction`); rows newest first.',
      ),
    },
  },
};
