import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectedValues,
  type Parsed,
  parseBool,
  parseBoundedInt,
  parseDate,
  parseDecimal,
  parseInteger,
} from '../../src/http/fastapi/pydantic.ts';

interface FuzzCase {
  kind: 'date' | 'bool' | 'decimal' | 'int';
  input: string;
  ok: boolean;
  value?: unknown;
  error?: { type: string; msg: string; ctx?: Record<string, unknown> };
}

const corpus: FuzzCase[] = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../golden/validation/fuzz.json'), 'utf8'),
).cases;

const parsers: Record<FuzzCase['kind'], (input: string) => Parsed<unknown>> = {
  date: parseDate,
  bool: parseBool,
  decimal: parseDecimal,
  int: parseInteger,
};

function outcome(result: Parsed<unknown>) {
  if (!result.ok) return { ok: false, error: result.error };
  const value = typeof result.value === 'bigint' ? String(result.value) : result.value;
  return { ok: true, value };
}

describe('pydantic parsers against the pydantic fuzz corpus', () => {
  for (const kind of Object.keys(parsers) as FuzzCase['kind'][]) {
    it(`${kind}: every case matches pydantic`, () => {
      const cases = corpus.filter((c) => c.kind === kind);
      expect(cases.length).toBeGreaterThan(1000);
      const mismatches = cases
        .map((c) => ({
          input: c.input,
          expected: c.ok ? { ok: true, value: c.value } : { ok: false, error: c.error },
          actual: outcome(parsers[kind](c.input)),
        }))
        .filter((m) => JSON.stringify(m.actual) !== JSON.stringify(m.expected));
      expect(mismatches.slice(0, 5)).toEqual([]);
    });
  }
});

describe('pydantic parsers, spot checks', () => {
  it('reads speedate dates, datetimes and timestamps', () => {
    expect(parseDate('2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseDate('2024-01-01T00:00:00Z')).toEqual({ ok: true, value: '2024-01-01' });
    expect(parseDate('1699920000')).toEqual({ ok: true, value: '2023-11-14' });
    expect(parseDate('2024-13-01')).toEqual({
      ok: false,
      error: {
        type: 'date_from_datetime_parsing',
        msg: 'Input should be a valid date or datetime, month value is outside expected range of 1-12',
        ctx: { error: 'month value is outside expected range of 1-12' },
      },
    });
    expect(parseDate('1700000000')).toMatchObject({
      ok: false,
      error: { type: 'date_from_datetime_inexact' },
    });
    expect(parseDate('0000-01-01')).toMatchObject({ ok: false, error: { type: 'date_parsing' } });
  });

  it('keeps decimals exact, in Python str() form', () => {
    expect(parseDecimal('1e3')).toEqual({ ok: true, value: '1E+3' });
    expect(parseDecimal('0050.10')).toEqual({ ok: true, value: '50.10' });
    expect(parseDecimal(' 1_000 ')).toEqual({ ok: true, value: '1000' });
    expect(parseDecimal('0.0000001')).toEqual({ ok: true, value: '1E-7' });
    expect(parseDecimal('123456789012345678901234567890.5')).toEqual({
      ok: true,
      value: '123456789012345678901234567890.5',
    });
    expect(parseDecimal('nan')).toMatchObject({ ok: false, error: { type: 'finite_number' } });
    expect(parseDecimal('0x10')).toMatchObject({ ok: false, error: { type: 'decimal_parsing' } });
  });

  it('checks int bounds after parsing, ge first', () => {
    expect(parseBoundedInt(' 50 ', { ge: 10, le: 500 })).toEqual({ ok: true, value: 50n });
    expect(parseBoundedInt('9', { ge: 10, le: 500 })).toEqual({
      ok: false,
      error: {
        type: 'greater_than_equal',
        msg: 'Input should be greater than or equal to 10',
        ctx: { ge: 10 },
      },
    });
    expect(parseBoundedInt('9'.repeat(40), { ge: 10, le: 500 })).toMatchObject({
      ok: false,
      error: { type: 'less_than_equal', ctx: { le: 500 } },
    });
  });

  it('lists expected enum values as pydantic does', () => {
    expect(expectedValues(['a'])).toBe("'a'");
    expect(expectedValues(['a', 'b'])).toBe("'a' or 'b'");
    expect(expectedValues(['a', 'b', "c'd"])).toBe(`'a', 'b' or "c'd"`);
  });
});
