import { describe, expect, it } from 'vitest';
import {
  clippedPeriod,
  daysIn,
  effectiveWindow,
  lastTwoPeriods,
  periodKey,
  previousKey,
  wholeMonths,
} from '../../src/domain/calendar.ts';

describe('window: end_date omitted or in the future is today', () => {
  it('omitted end_date -> today', () => {
    expect(effectiveWindow('2026-03-15', '2026-03-01', undefined).end).toBe('2026-03-15');
  });
  it('future end_date -> today', () => {
    expect(effectiveWindow('2026-03-15', '2026-03-01', '2027-01-01').end).toBe('2026-03-15');
  });
  it('past end_date is kept', () => {
    expect(effectiveWindow('2026-03-15', '2026-03-01', '2026-03-10').end).toBe('2026-03-10');
  });
});

describe('window: start_date omitted -> same date a year before the end, plus one day', () => {
  it('a trailing year, both ends inclusive', () => {
    const window = effectiveWindow('2026-03-15', undefined, undefined);
    expect(window).toEqual({ start: '2025-03-16', end: '2026-03-15' });
    expect(daysIn(window)).toBe(365);
  });
  it('Feb 29 -> Feb 28 of the year before, plus one day', () => {
    expect(effectiveWindow('2030-01-01', undefined, '2024-02-29').start).toBe('2023-03-01');
  });
  it('a year holding Feb 29 has 366 days', () => {
    expect(daysIn(effectiveWindow('2030-01-01', undefined, '2024-03-01'))).toBe(366);
  });
  it('never reaches before 0001-01-01, the first date there is', () => {
    expect(effectiveWindow('2030-01-01', undefined, '0001-01-01')).toEqual({
      start: '0001-01-01',
      end: '0001-01-01',
    });
    expect(effectiveWindow('2030-01-01', undefined, '0001-06-30').start).toBe('0001-01-01');
    expect(effectiveWindow('2030-01-01', undefined, '0002-06-30').start).toBe('0001-07-01');
  });
});

describe('periods are calendar periods', () => {
  it('ISO weeks start on Monday', () => {
    expect(periodKey('2026-03-15', 'week')).toBe('2026-03-09'); // a Sunday
    expect(periodKey('2026-03-16', 'week')).toBe('2026-03-16'); // a Monday
    expect(periodKey('2026-01-01', 'week')).toBe('2025-12-29');
  });
  it('quarters start in Jan, Apr, Jul, Oct', () => {
    expect(periodKey('2026-03-31', 'quarter')).toBe('2026-01-01');
    expect(periodKey('2026-04-01', 'quarter')).toBe('2026-04-01');
    expect(periodKey('2026-12-31', 'quarter')).toBe('2026-10-01');
  });
  it('months and years', () => {
    expect(periodKey('2026-02-28', 'month')).toBe('2026-02-01');
    expect(periodKey('2026-02-28', 'year')).toBe('2026-01-01');
  });
  it('previous periods', () => {
    expect(previousKey('2026-01-01', 'quarter')).toBe('2025-10-01');
    expect(previousKey('2026-03-01', 'month')).toBe('2026-02-01');
    expect(previousKey('2026-03-09', 'week')).toBe('2026-03-02');
  });
  it("a period's start and end are clipped to the window", () => {
    const window = { start: '2026-01-15', end: '2026-03-10' };
    expect(clippedPeriod('2026-01-01', 'month', window)).toEqual({
      key: '2026-01-01',
      start: '2026-01-15',
      end: '2026-01-31',
    });
    expect(clippedPeriod('2026-03-01', 'month', window).end).toBe('2026-03-10');
    expect(clippedPeriod('2026-01-01', 'quarter', window)).toMatchObject({
      start: '2026-01-15',
      end: '2026-03-10',
    });
    expect(
      clippedPeriod('2024-02-01', 'month', { start: '2024-01-01', end: '2024-12-31' }).end,
    ).toBe('2024-02-29');
  });
  it("the window's last two periods; none before when the window has one period", () => {
    expect(lastTwoPeriods({ start: '2026-01-15', end: '2026-03-10' }, 'month')).toEqual({
      last: '2026-03-01',
      beforeLast: '2026-02-01',
    });
    expect(lastTwoPeriods({ start: '2026-03-02', end: '2026-03-10' }, 'month').beforeLast).toBe(
      null,
    );
  });
});

describe('dates before year 100 (pydantic accepts start_date=0001-01-01)', () => {
  it('days, weeks and years are counted on the proleptic Gregorian calendar', () => {
    expect(daysIn({ start: '0001-01-01', end: '0001-12-31' })).toBe(365);
    expect(daysIn({ start: '0050-01-01', end: '2026-03-15' })).toBe(721_793);
    expect(periodKey('0050-06-01', 'week')).toBe('0050-05-30');
    expect(clippedPeriod('0050-01-01', 'year', { start: '0001-01-01', end: '2026-03-15' })).toEqual(
      { key: '0050-01-01', start: '0050-01-01', end: '0050-12-31' },
    );
  });
});

describe('a window’s whole months (read from a monthly rollup)', () => {
  it.each([
    ['2025-08-01', '2026-11-20', { start: '2025-08-01', end: '2026-10-31' }],
    ['2025-08-17', '2026-10-31', { start: '2025-09-01', end: '2026-10-31' }],
    ['2026-01-31', '2026-03-31', { start: '2026-02-01', end: '2026-03-31' }],
    ['2025-12-31', '2026-02-01', { start: '2026-01-01', end: '2026-01-31' }],
    ['2024-02-01', '2024-02-29', { start: '2024-02-01', end: '2024-02-29' }],
    ['2024-02-01', '2024-02-28', null],
    ['2026-02-10', '2026-03-05', null],
    ['2026-03-05', '2026-03-05', null],
  ])('%s to %s', (start, end, months) => {
    expect(wholeMonths({ start, end })).toEqual(months);
  });
});
