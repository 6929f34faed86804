import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar.ts';
import { centsOf } from '../../src/domain/money.ts';
import { isRecurring } from '../../src/domain/spending/recurring.ts';

function datesEvery(start: string, gaps: number[]): string[] {
  const dates = [start];
  for (const gap of gaps) dates.push(addDays(dates.at(-1) as string, gap));
  return dates;
}
const same = (count: number, amount = '10.00') =>
  Array.from({ length: count }, () => centsOf(amount));

describe('is_recurring', () => {
  it('needs at least 3 distinct dates', () => {
    expect(isRecurring(datesEvery('2026-01-01', [30]), same(4))).toBe(false);
    expect(isRecurring(datesEvery('2026-01-01', [30, 30]), same(3))).toBe(true);
  });
  it.each([
    ['weekly', 6, 8],
    ['biweekly', 13, 16],
    ['monthly', 27, 33],
    ['quarterly', 85, 97],
    ['yearly', 355, 375],
  ])('the %s band is inclusive (%i-%i days)', (_name, min, max) => {
    expect(isRecurring(datesEvery('2020-01-01', [min, min, min]), same(4))).toBe(true);
    expect(isRecurring(datesEvery('2020-01-01', [max, max, max]), same(4))).toBe(true);
    expect(isRecurring(datesEvery('2020-01-01', [max + 1, max + 1, max + 1]), same(4))).toBe(false);
    expect(isRecurring(datesEvery('2020-01-01', [min - 1, min - 1, min - 1]), same(4))).toBe(false);
  });
  it('the median gap of an even count is the mean of the middle two', () => {
    // gaps 8, 8, 9, 9 -> median 8.5: outside every band
    expect(isRecurring(datesEvery('2026-01-01', [8, 9, 8, 9]), same(5))).toBe(false);
    // gaps 7, 7, 8, 9 -> median 7.5: weekly; 3 of 4 gaps in band = 75%
    expect(isRecurring(datesEvery('2026-01-01', [7, 9, 7, 8]), same(5))).toBe(true);
  });
  it('at least 75% of the gaps lie in the median gap band', () => {
    // gaps 30, 30, 10, 10, 30: median 30; 3 of 5 in band = 60%
    expect(isRecurring(datesEvery('2026-01-01', [30, 10, 30, 10, 30]), same(6))).toBe(false);
  });
  it('at least 75% of the amounts lie within 25% (inclusive) of the median amount', () => {
    const dates = datesEvery('2026-01-01', [30, 30, 30]);
    // median 100.00; 75.00 and 125.00 are exactly 25% away
    expect(isRecurring(dates, ['75.00', '100.00', '100.00', '125.00'].map(centsOf))).toBe(true);
    expect(isRecurring(dates, ['74.99', '100.00', '100.00', '125.01'].map(centsOf))).toBe(false);
    // 3 of 4 within: exactly 75%
    expect(isRecurring(dates, ['10.00', '100.00', '100.00', '100.00'].map(centsOf))).toBe(true);
  });
  it('amounts count per transaction, dates per distinct day', () => {
    // 3 distinct dates, monthly; 5 amounts of which 4 steady
    const dates = datesEvery('2026-01-01', [31, 28]);
    expect(isRecurring(dates, ['9.99', '9.99', '9.99', '9.99', '50.00'].map(centsOf))).toBe(true);
  });
  it('the median amount of an even count is the mean of the middle two', () => {
    // median (10 + 20) / 2 = 15, band 11.25..18.75: only 2 of 4 within
    const dates = datesEvery('2026-01-01', [30, 30, 30]);
    expect(isRecurring(dates, ['12.00', '18.75', '10.00', '20.00'].map(centsOf))).toBe(false);
  });
});
