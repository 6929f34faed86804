/**
 * Packed ledgers (src/contract/ledger.ts) of rows written out in full, for the tests of the
 * layout and of the working set: the bytes build-db would write for them.
 */
import {
  CREDIT,
  LEDGER_FLAGS,
  LEDGER_TEXTS,
  type LedgerInput,
  packLedger,
} from '../../src/contract/ledger.ts';
import { dayNumber } from '../../src/domain/calendar.ts';
import { CATEGORIES, type Category } from '../../src/domain/taxonomy.ts';
import type { AccountRecord } from '../../src/port/read-port.ts';

export interface LedgerTestRow {
  id: string;
  externalId?: string | null;
  account?: string;
  date: string;
  /** Integer cents. */
  cents: number;
  credit?: boolean;
  description?: string;
  merchant?: string | null;
  category?: Category;
  subcategory?: string | null;
  code?: string | null;
  /** LEDGER_FLAGS (default: counted). */
  flags?: number;
}

/**
 * The packer's input for `rows`, which must come newest first (date, then id, descending), and
 * the user's `accounts`.
 */
export function ledgerInputOf(
  rows: readonly LedgerTestRow[],
  accounts: readonly AccountRecord[] = [],
): LedgerInput {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let length = 0;
  const texts = Object.fromEntries(
    LEDGER_TEXTS.map((name) => [
      name,
      { starts: new Int32Array(rows.length), ends: new Int32Array(rows.length) },
    ]),
  ) as LedgerInput['texts'];
  const put = (name: (typeof LEDGER_TEXTS)[number], row: number, value: string | null) => {
    if (value === null) {
      texts[name].starts[row] = -1;
      texts[name].ends[row] = -1;
      return;
    }
    const bytes = encoder.encode(value);
    texts[name].starts[row] = length;
    parts.push(bytes);
    length += bytes.length;
    texts[name].ends[row] = length;
  };
  rows.forEach((row, index) => {
    put('id', index, row.id);
    put('externalId', index, row.externalId ?? null);
    put('account', index, row.account ?? 'acc_1');
    put('description', index, row.description ?? 'COFFEE');
    put('merchant', index, row.merchant === undefined ? 'Cafe' : row.merchant);
    put('subcategory', index, row.subcategory ?? null);
    put('code', index, row.code ?? null);
  });
  const source = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    source.set(part, at);
    at += part.length;
  }
  return {
    rows: rows.length,
    days: Int32Array.from(rows, (row) => dayNumber(row.date)),
    cents: Float64Array.from(rows, (row) => row.cents),
    flags: Uint8Array.from(
      rows,
      (row) => (row.flags ?? LEDGER_FLAGS.counted) | (row.credit ? CREDIT : 0),
    ),
    categories: Uint8Array.from(rows, (row) =>
      CATEGORIES.indexOf(row.category ?? 'Food and Drink'),
    ),
    source,
    texts,
    accounts: new TextEncoder().encode(JSON.stringify(accounts)),
  };
}

/** The packed ledger of `rows` (newest first) and `accounts`. */
export const packRows = (rows: readonly LedgerTestRow[], accounts: readonly AccountRecord[] = []) =>
  packLedger(ledgerInputOf(rows, accounts));
