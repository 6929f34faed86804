import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsOf,
  changeFrom,
  compareCodePoints,
  Exact,
  formatDifference,
  formatMoney,
  money,
  percent,
  rate,
} from '../../src/domain/money.ts';

describe('figures: exact decimals, half away from zero only when formatting', () => {
  it('money has exactly two decimals', () => {
    expect(money(new Exact('1234.5'))).toBe('1234.50');
    expect(money(new Exact(0))).toBe('0.00');
  });
  it('halves round away from zero', () => {
    expect(money(new Exact('0.125'))).toBe('0.13');
    expect(money(new Exact('-0.125'))).toBe('-0.13');
    expect(rate(new Exact('12.25'))).toBe('12.3');
    expect(rate(new Exact('-12.25'))).toBe('-12.3');
  });
  it('a negative value rounding to zero keeps its sign (savings_rate negative when expenses exceed income)', () => {
    expect(percent(new Exact('-0.001'))).toBe('-0.00');
    expect(rate(new Exact('-0.04'))).toBe('-0.0');
    expect(rate(new Exact('0.04'))).toBe('0.0');
  });
  it('stored amount text is written as its exact value is, whatever its digits', () => {
    const digits = (max: number) =>
      fc.array(fc.constantFrom(...'0123456789'), { maxLength: max }).map((d) => d.join(''));
    const text = fc
      .tuple(fc.constantFrom('', '-'), digits(22), digits(4), fc.boolean())
      .filter(([, whole, fraction]) => whole.length + fraction.length > 0)
      .map(([sign, whole, fraction, point]) =>
        fraction || point ? `${sign}${whole || '0'}.${fraction}` : `${sign}${whole}`,
      )
      .filter((value) => /^-?\d+(\.\d*)?$/.test(value) && !value.endsWith('.'));
    fc.assert(
      fc.property(text, (value) => {
        expect(formatMoney(value)).toBe(money(new Exact(value)));
      }),
      { numRuns: 5_000 },
    );
    for (const value of ['-0.00', '-0', '000', '0.5', '-007.10', '12.345', '-12.345', '1e3']) {
      expect(formatMoney(value), value).toBe(money(new Exact(value)));
    }
  });
  it('a difference of stored amounts is the exact difference, as money', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.constantFrom(0, 1, 2, 3))
      .map(([units, places]) => new Exact(units.toString()).dividedBy(10 ** places).toFixed());
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(formatDifference(a, b)).toBe(money(new Exact(a).minus(b)));
      }),
      { numRuns: 5_000 },
    );
  });
  it('stored amounts read as integer cents exactly, whatever their digits', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.constantFrom(0, 1, 2))
      .map(([units, places]) => new Exact(units.toString()).dividedBy(10 ** places).toFixed());
    fc.assert(
      fc.property(amount, (text) => {
        expect(centsOf(text).toString()).toBe(new Exact(text).times(100).toFixed());
      }),
      { numRuns: 5_000 },
    );
    for (const [text, cents] of [
      ['-0.00', 0n],
      ['0.5', 50n],
      ['-007.10', -710n],
      ['99999999999999.99', 9_999_999_999_999_999n],
      ['-123456789012.3', -12_345_678_901_230n],
    ] as const) {
      expect(centsOf(text), text).toBe(cents);
    }
  });
  it('an exact zero is unsigned, even a negative zero', () => {
    expect(percent(new Exact('-0'))).toBe('0.00');
    expect(money(new Exact(0))).toBe('0.00');
  });
  it('divisions keep enough digits for the rounding', () => {
    expect(money(new Exact('100').div(3))).toBe('33.33');
    expect(money(new Exact('0.05').div(3).times(30.4375))).toBe('0.51');
  });
  it('trend: (this - previous) / previous x 100; null when previous is zero or missing', () => {
    expect(percent(changeFrom(new Exact(150), new Exact(100)) as Exact)).toBe('50.00');
    expect(percent(changeFrom(new Exact(0), new Exact(100)) as Exact)).toBe('-100.00');
    expect(changeFrom(new Exact(5), new Exact(0))).toBeNull();
    expect(changeFrom(new Exact(5), null)).toBeNull();
  });
});

describe('name ties compare by Unicode code point', () => {
  it('astral characters sort after U+E000..U+FFFF, unlike UTF-16 order', () => {
    const astral = '\u{1F600}';
    const privateUse = '\uFF21';
    expect(astral < privateUse).toBe(true); // UTF-16 code units
    expect(compareCodePoints(astral, privateUse)).toBeGreaterThan(0);
    expect([astral, privateUse, 'b', 'a', 'B'].sort(compareCodePoints)).toEqual([
      'B',
      'a',
      'b',
      privateUse,
      astral,
    ]);
  });
  it('a prefix sorts first', () => {
    expect(compareCodePoints('Food', 'Food and Drink')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});
