/**
 * Day numbers (src/domain/calendar.ts): integer arithmetic that agrees with JavaScript's own
 * proleptic Gregorian calendar on every day from year 1 to 9999, and runs a day or month past
 * its end on into the next, as Date's setters do (the date check relies on it).
 */
import { describe, expect, it } from 'vitest';
import { dateOf, dayNumber, isCalendarDate } from '../../src/domain/calendar.ts';

const MS_PER_DAY = 86_400_000;

/** Date's own reading of a day number and of a date (years 0-99 kept, not read as 1900s). */
const byDate = {
  dateOf: (day: number) => new Date(day * MS_PER_DAY).toISOString().slice(0, 10),
  dayNumber: (date: string) => {
    const day = new Date(0);
    day.setUTCFullYear(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
    return day.getTime() / MS_PER_DAY;
  },
};

describe('day numbers', () => {
  it('agree with Date on every day from 0001-01-01 to 9999-12-31', () => {
    const first = byDate.dayNumber('0001-01-01');
    const last = byDate.dayNumber('9999-12-31');
    for (let day = first; day <= last; day++) {
      const date = byDate.dateOf(day);
      if (dateOf(day) !== date || dayNumber(date) !== day) {
        expect({ day, date: dateOf(day), number: dayNumber(date) }).toEqual({
          day,
          date,
          number: day,
        });
      }
    }
  });

  it('run a day or month past its end on, so only real dates check', () => {
    for (const date of [
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '2025-02-29',
      '2026-01-00',
    ]) {
      expect(dayNumber(date)).toBe(byDate.dayNumber(date));
      expect(isCalendarDate(date)).toBe(false);
    }
    for (const date of ['2024-02-29', '2000-02-29', '0050-03-01', '9999-12-31']) {
      expect(isCalendarDate(date)).toBe(true);
    }
  });
});
