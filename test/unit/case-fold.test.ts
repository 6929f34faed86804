/**
 * foldCase (domain/case-fold.ts) is DuckDB's lower(): code point by code point over all of
 * Unicode, and over drawn strings (so lower() works character by character, and a copy of any
 * text folds to a part of the text's folding). The transactions filter `q` relies on it on both
 * engines (transactions-filters.test.ts checks the filter itself).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase, LOWER_RANGES } from '../../src/domain/case-fold.ts';

let instance: DuckDBInstance;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
});
afterAll(() => instance.closeSync());

async function query<T>(sql: string, params: string[] = []): Promise<T[]> {
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql, params)).getRowObjectsJson() as T[];
  } finally {
    connection.closeSync();
  }
}

/** DuckDB's changes as LOWER_RANGES writes them: runs of one step and one delta. */
function rangesOf(
  changes: ReadonlyArray<[number, number]>,
): Array<[number, number, number, number]> {
  const ranges: Array<[number, number, number, number]> = [];
  for (const [codePoint, lower] of changes) {
    const delta = lower - codePoint;
    const last = ranges.at(-1);
    const step = last ? codePoint - last[1] : 0;
    if (last && last[3] === delta && (last[0] === last[1] ? step <= 2 : step === last[2])) {
      if (last[0] === last[1]) last[2] = step;
      last[1] = codePoint;
    } else ranges.push([codePoint, codePoint, 1, delta]);
  }
  return ranges;
}

/** Any code point but the surrogates and NUL. */
const codePoint = fc
  .integer({ min: 1, max: 0x10ffff - 0x800 })
  .map((n) => (n >= 0xd800 ? n + 0x800 : n));
/** Strings of them, weighted towards the scripts with case. */
const text = fc
  .array(
    fc.oneof(
      codePoint,
      fc.integer({ min: 0x41, max: 0x24f }),
      fc.integer({ min: 0x370, max: 0x52f }),
    ),
    {
      maxLength: 24,
    },
  )
  .map((points) => String.fromCodePoint(...points));

describe('foldCase is DuckDB’s lower()', () => {
  it('on every code point (LOWER_RANGES as generated from DuckDB)', async () => {
    const changed = await query<{ code_point: string; lower: string; length: string }>(
      `SELECT r AS code_point, unicode(lower(chr(r::INTEGER))) AS lower,
              length(lower(chr(r::INTEGER))) AS length
       FROM range(1, 1114112) t(r)
       WHERE (r < 55296 OR r > 57343) AND lower(chr(r::INTEGER)) <> chr(r::INTEGER)
       ORDER BY r`,
    );
    // Each changed code point lower-cases to one code point.
    expect(changed.filter((row) => row.length !== '1')).toEqual([]);
    const expected = rangesOf(changed.map((row) => [Number(row.code_point), Number(row.lower)]));
    // On a mismatch, `expected` is the table to paste into src/domain/case-fold.ts.
    expect(LOWER_RANGES).toEqual(expected);
    // And foldCase applies exactly that table.
    for (const [first, last, step, delta] of LOWER_RANGES)
      for (let point = first; point <= last; point += step)
        expect(foldCase(String.fromCodePoint(point))).toBe(String.fromCodePoint(point + delta));
    expect(foldCase('ΤΑΒΕΡΝΑ Ο ΠΑΡΑΔΕΙΣΟΣ')).toBe('ταβερνα ο παραδεισοσ');
    expect(foldCase('İSTANBUL KEBAP EVİ')).toBe('istanbul kebap evi');
  });

  it('on drawn strings, so a copy of any part of a text folds to a part of its folding', async () => {
    const samples = fc.sample(text, { numRuns: 2_000, seed: 24 });
    const values = samples.map((_, i) => `(${i}, $${i + 1})`).join(', ');
    const rows = await query<{ lowered: string }>(
      `SELECT lower(s) AS lowered FROM (VALUES ${values}) v(i, s) ORDER BY i`,
      samples,
    );
    expect(rows.map((row) => row.lowered)).toEqual(samples.map(foldCase));
  });
});
