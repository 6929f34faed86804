/**
 * The cadences recurring streams read (domain/cadence.ts, docs/api.md "Cadences"): the bands of
 * the three long cadences, their skips, the schedules of their next dates, two dates, and the
 * four short cadences pay frequency shares (test/api/income.test.ts holds those to pay frequency).
 */
import { describe, expect, it } from 'vitest';
import { CADENCES, inferCadence, nextExpectedDate } from '../../src/domain/cadence.ts';
import { addDays } from '../../src/domain/calendar.ts';

/** Dates `gaps` apart from `first`. */
function datesEvery(first: string, gaps: readonly number[]): string[] {
  const dates = [first];
  for (const gap of gaps) dates.push(addDays(dates.at(-1) as string, gap));
  return dates;
}

describe('inferCadence', () => {
  it.each([
    [['weekly'], 5, 9],
    [['biweekly', 'semimonthly'], 12, 17],
    [['monthly'], 26, 35],
    [['quarterly'], 80, 100],
    [['semiannually'], 165, 200],
    [['annually'], 350, 380],
  ])('%j: a median gap of %i to %i days, both inclusive', (cadences, low, high) => {
    const cadenceOf = (gap: number) => inferCadence(datesEvery('2020-01-06', [gap, gap]), CADENCES);
    expect(cadences).toContain(cadenceOf(low));
    expect(cadences).toContain(cadenceOf(high));
    expect(cadences).not.toContain(cadenceOf(low - 1));
    expect(cadences).not.toContain(cadenceOf(high + 1));
  });

  it('takes no cadence from one date, and any from two', () => {
    expect(inferCadence(['2026-01-05'], CADENCES)).toBeNull();
    expect(inferCadence(['2026-01-05', '2026-01-12'], CADENCES)).toBe('weekly');
    expect(inferCadence(['2026-01-05', '2026-04-06'], CADENCES)).toBe('quarterly');
    expect(inferCadence(['2025-03-14', '2026-03-14'], CADENCES)).toBe('annually');
    // 40 days: between monthly and quarterly.
    expect(inferCadence(['2026-01-05', '2026-02-14'], CADENCES)).toBeNull();
  });

  it('tolerates a skipped date (a gap in twice the band) in up to a quarter of the gaps', () => {
    // Quarterly, one quarter skipped: 91, 182, 91, 92.
    expect(inferCadence(datesEvery('2025-01-15', [91, 182, 91, 92]), CADENCES)).toBe('quarterly');
    // Half-yearly, one skipped: 181, 365, 184, 181 (median 182.5).
    expect(inferCadence(datesEvery('2022-01-10', [181, 365, 184, 181]), CADENCES)).toBe(
      'semiannually',
    );
    // Yearly with a year skipped: 365, 730, 366, 365.
    expect(inferCadence(datesEvery('2019-05-01', [365, 730, 366, 365]), CADENCES)).toBe('annually');
    // Median 91, but two gaps of five fit neither the band nor twice it: 60%.
    expect(inferCadence(datesEvery('2025-01-15', [91, 91, 130, 91, 130]), CADENCES)).toBeNull();
  });

  it('tells biweekly from semimonthly by the schedule the dates fit, even from two dates', () => {
    // 14 days apart fit a grid and a pair of days equally: biweekly.
    expect(inferCadence(['2026-01-01', '2026-01-15'], CADENCES)).toBe('biweekly');
    // 13 days apart fit the 3rd and the 16th exactly, no grid.
    expect(inferCadence(['2026-01-03', '2026-01-16'], CADENCES)).toBe('semimonthly');
  });

  it('considers only the cadences asked for (pay frequency asks for the four short ones)', () => {
    const quarterly = datesEvery('2025-01-15', [90, 91, 92]);
    expect(inferCadence(quarterly, CADENCES)).toBe('quarterly');
    expect(inferCadence(quarterly, ['weekly', 'biweekly', 'semimonthly', 'monthly'])).toBeNull();
  });
});

describe('nextExpectedDate of the long cadences', () => {
  it.each([
    // The 20th of every third month from November.
    [['2025-11-20', '2026-02-20', '2026-05-20', '2026-08-20'], 'quarterly', '2026-11-20'],
    // Paid on the 30th, the 31st, the 30th: the 31st, or the month's last day.
    [['2025-04-30', '2025-07-31', '2025-10-31', '2026-01-30'], 'quarterly', '2026-04-30'],
    // Every six months on the 5th; 2026-12-05 is a Saturday: the Friday before.
    [['2025-06-05', '2025-12-05', '2026-06-05'], 'semiannually', '2026-12-04'],
    // Yearly on the 14th of March, 2026's paid on its Saturday; 2027-03-14 is a Sunday.
    [['2025-03-14', '2026-03-14'], 'annually', '2027-03-12'],
    // Yearly on February 29th: the 28th in other years.
    [['2024-02-29', '2025-02-28'], 'annually', '2026-02-27'],
    // A quarter skipped keeps the schedule: the 10th of Jan, Apr, Jul, Oct.
    [['2025-01-10', '2025-04-10', '2025-10-10', '2026-01-09'], 'quarterly', '2026-04-10'],
  ] as const)('%j %s -> %s', (dates, cadence, next) => {
    expect(inferCadence(dates, CADENCES)).toBe(cadence);
    expect(nextExpectedDate(dates, cadence)).toBe(next);
  });

  it('takes the day of the month the dates fit best, a weekend day paid the Friday before', () => {
    // Feb, May, Aug, Nov, on the 1st to the 3rd: the 3rd fits best (sum of distances 2); the
    // next, 2026-05-03, is a Sunday.
    const dates = ['2025-02-03', '2025-05-01', '2025-08-01', '2025-11-03', '2026-02-02'];
    expect(inferCadence(dates, CADENCES)).toBe('quarterly');
    expect(nextExpectedDate(dates, 'quarterly')).toBe('2026-05-01');
  });
});
