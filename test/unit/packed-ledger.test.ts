/**
 * The packed ledger's layout (src/contract/ledger.ts): what packLedger writes, LedgerBytes
 * reads back exactly and unpackLedger turns into the packer's input again, whatever the texts
 * (any Unicode, nulls, ids of one shape or of many), amounts and dates; ids come in code point
 * order; a ledger that cannot be held exactly is refused, as are bytes of another layout or
 * version.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CREDIT,
  LEDGER_FLAGS,
  LedgerBytes,
  LedgerFormatError,
  LedgerTooLargeError,
  PACKED_LEDGER_VERSION,
  packedLedgerVersion,
  packLedger,
  unpackLedger,
} from '../../src/contract/ledger.ts';
import { dateOf, dayNumber } from '../../src/domain/calendar.ts';
import { compareCodePoints } from '../../src/domain/money.ts';
import { ACCOUNT_TYPES, CATEGORIES, type Category } from '../../src/domain/taxonomy.ts';
import { type LedgerTestRow, packRows } from '../helpers/ledger.ts';

/** What LedgerBytes says of row `row`, in LedgerTestRow's terms. */
function readBack(bytes: LedgerBytes, row: number): LedgerTestRow {
  return {
    id: bytes.ids.get(row) as string,
    externalId: bytes.externalIds.get(row),
    account: bytes.accounts.get(row) as string,
    date: dateOf(bytes.dayBase + (bytes.days[row] as number)),
    cents: bytes.cents[row] as number,
    credit: ((bytes.flags[row] as number) & CREDIT) !== 0,
    description: bytes.descriptions.get(row) as string,
    merchant: bytes.merchants.get(row),
    category: CATEGORIES[bytes.categories[row] as number] as Category,
    subcategory: bytes.subcategories.get(row),
    code: bytes.codes.get(row),
    flags: (bytes.flags[row] as number) & ~CREDIT,
  };
}

const text = fc
  .string({ unit: 'binary', maxLength: 12 })
  .filter((value) => !value.includes('\u0000'));
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null, freq: 4 });

/** Rows, newest first, with ids of one shape (`txn_` and 10 base-36 characters) or any. */
const ledgers = fc
  .record({
    shapedIds: fc.boolean(),
    wideDays: fc.boolean(),
    rows: fc.array(
      fc.record({
        id: text,
        shaped: fc.stringMatching(/^[0-9a-z]{10}$/),
        externalId: sometimes(fc.oneof(text, fc.stringMatching(/^[0-9A-Z]{24}$/))),
        account: fc.constantFrom('acc_1', 'acc_2', 'Κάρτα ✓'),
        day: fc.integer({ min: 0, max: 400 }),
        cents: fc.oneof(
          fc.integer({ min: 1, max: 2_000_000 }),
          fc.integer({ min: 1, max: 2 ** 40 }),
        ),
        credit: fc.boolean(),
        description: text,
        merchant: sometimes(fc.oneof(text, fc.constantFrom('Cafe', 'Grocer'))),
        category: fc.constantFrom(...CATEGORIES),
        subcategory: sometimes(text),
        code: sometimes(fc.stringMatching(/^[0-9]{4}$/)),
        flags: fc.integer({ min: 0, max: 31 }),
      }),
      { maxLength: 60 },
    ),
  })
  .map(({ shapedIds, wideDays, rows }) => {
    const seen = new Set<string>();
    const unique = rows.filter((row) => {
      const id = shapedIds ? `txn_${row.shaped}` : row.id;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const full: LedgerTestRow[] = unique.map(({ shaped, day, ...row }) => ({
      ...row,
      id: shapedIds ? `txn_${shaped}` : row.id,
      date: dateOf(dayNumber('2025-01-01') + day * (wideDays ? 400 : 1)),
    }));
    // Newest first: date descending, then id descending (code point order).
    return full.sort((a, b) => -(a.date.localeCompare(b.date) || compareCodePoints(a.id, b.id)));
  });

/** A user's accounts, by id, with any texts (null-free). */
const accountLists = fc
  .uniqueArray(
    fc.record({
      id: text,
      link_id: text,
      name: text,
      mask: sometimes(text),
      type: fc.constantFrom(...ACCOUNT_TYPES),
      subtype: sometimes(text),
      currency: fc.constantFrom('USD', 'EUR'),
    }),
    { selector: (account) => account.id, maxLength: 4 },
  )
  .map((accounts) => accounts.sort((a, b) => compareCodePoints(a.id, b.id)));

describe('the packed ledger', () => {
  it('reads back every row exactly, ids in code point order', () => {
    fc.assert(
      fc.property(ledgers, (rows) => {
        const bytes = new LedgerBytes(packRows(rows));
        expect(bytes.rows).toBe(rows.length);
        rows.forEach((row, index) => {
          expect(readBack(bytes, index)).toEqual({
            externalId: null,
            subcategory: null,
            code: null,
            ...row,
          });
        });
        const byId = Array.from(bytes.idOrder, (row) => rows[row]?.id as string);
        expect(byId).toEqual([...byId].sort(compareCodePoints));
        expect(new Set(bytes.idOrder).size).toBe(rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it('unpacks into the packer’s input again, accounts included: packed anew, the same bytes', () => {
    fc.assert(
      fc.property(ledgers, accountLists, (rows, accounts) => {
        const packed = packRows(rows, accounts);
        const unpacked = unpackLedger(packed);
        expect(JSON.parse(new TextDecoder().decode(unpacked.accounts))).toEqual(accounts);
        expect(packLedger(unpacked)).toEqual(packed);
      }),
      { numRuns: 300 },
    );
  });

  it('holds ids of one shape in fewer bytes than their text', () => {
    const rows = Array.from({ length: 1_000 }, (_, index) => ({
      id: `txn_${String(index).padStart(20, 'z')}`,
      externalId: `${String(index * 7919).padStart(24, 'Q')}`,
      date: dateOf(dayNumber('2026-01-01') - Math.floor(index / 3)),
      cents: 1_000 + index,
    }));
    const packed = packRows(rows);
    // 24 + 24 characters of ids each, and everything else, in less.
    expect(packed.byteLength / rows.length).toBeLessThan(48);
    const bytes = new LedgerBytes(packed);
    expect(bytes.ids.get(999)).toBe(rows[999]?.id);
    expect(bytes.externalIds.get(123)).toBe(rows[123]?.externalId);
  });

  it('reads bytes at any offset of any buffer (they are copied into a buffer of their own)', () => {
    const packed = packRows([{ id: 't1', date: '2026-01-01', cents: 5 }]);
    const padded = new Uint8Array(packed.byteLength + 3);
    padded.set(packed, 3);
    const bytes = new LedgerBytes(padded.subarray(3));
    expect(bytes.bytes.byteOffset).toBe(0);
    expect(bytes.bytes.buffer.byteLength).toBe(packed.byteLength);
    expect(bytes.ids.get(0)).toBe('t1');
  });

  it('packs a user without transactions', () => {
    const bytes = new LedgerBytes(packRows([]));
    expect(bytes.rows).toBe(0);
    expect(bytes.idOrder).toHaveLength(0);
  });

  it('refuses amounts whose sums a double would not hold exactly', () => {
    expect(() => packRows([{ id: 't1', date: '2026-01-01', cents: 2 ** 53 }])).toThrow(
      LedgerTooLargeError,
    );
    const half = 2 ** 52;
    expect(() =>
      packRows([
        { id: 't2', date: '2026-01-01', cents: half },
        { id: 't1', date: '2026-01-01', cents: half },
      ]),
    ).toThrow(LedgerTooLargeError);
  });

  it('refuses bytes that are not a packed ledger of this version', () => {
    const packed = packRows([{ id: 't1', date: '2026-01-01', cents: 5 }]);
    expect(packedLedgerVersion(packed)).toBe(PACKED_LEDGER_VERSION);
    const other = packed.slice();
    new DataView(other.buffer).setUint16(4, PACKED_LEDGER_VERSION + 1, true);
    expect(() => new LedgerBytes(other)).toThrow(LedgerFormatError);
    expect(() => new LedgerBytes(new Uint8Array(64))).toThrow('not a packed ledger');
  });

  it('keeps the flags and the direction apart', () => {
    const bytes = new LedgerBytes(
      packRows([
        { id: 't2', date: '2026-01-02', cents: 1, credit: true, flags: LEDGER_FLAGS.toPlatform },
        { id: 't1', date: '2026-01-01', cents: 1, flags: LEDGER_FLAGS.hidden },
      ]),
    );
    expect(Array.from(bytes.flags)).toEqual([
      LEDGER_FLAGS.toPlatform | CREDIT,
      LEDGER_FLAGS.hidden,
    ]);
  });
});
