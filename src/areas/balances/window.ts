import {
  addDays,
  endOfISOWeek,
  endOfMonth,
  endOfQuarter,
  endOfYear,
  format,
  parseISO,
  startOfISOWeek,
  startOfMonth,
  startOfQuarter,
  startOfYear,
  subYears,
} from 'date-fns';

export const TIME_PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type TimePeriod = (typeof TIME_PERIODS)[number];

/** An inclusive range of ISO dates (YYYY-MM-DD compare correctly as strings). */
export interface DateRange {
  start: string;
  end: string;
}

const toIso = (date: Date) => format(date, 'yyyy-MM-dd');

/**
 * decisions.md "Clock and window": end omitted or after today -> today; start omitted -> the
 * same date a year before end (Feb 29 -> Feb 28) plus one day. `start > end` is left to the
 * caller, which reports it as a 422 on start_date.
 */
export function resolveWindow(
  startDate: string | undefined,
  endDate: string | undefined,
  today: string,
): DateRange {
  const end = endDate === undefined || endDate > today ? today : endDate;
  const start = startDate ?? toIso(addDays(subYears(parseISO(end), 1), 1));
  return { start, end };
}

const BOUNDS: Record<TimePeriod, { startOf: (d: Date) => Date; endOf: (d: Date) => Date }> = {
  day: { startOf: (d) => d, endOf: (d) => d },
  week: { startOf: startOfISOWeek, endOf: endOfISOWeek },
  month: { startOf: startOfMonth, endOf: endOfMonth },
  quarter: { startOf: startOfQuarter, endOf: endOfQuarter },
  year: { startOf: startOfYear, endOf: endOfYear },
};

/** The calendar periods (ISO weeks, Jan/Apr/Jul/Oct quarters) meeting the window, clipped to it, ascending. */
export function calendarPeriods(window: DateRange, period: TimePeriod): DateRange[] {
  const { startOf, endOf } = BOUNDS[period];
  const periods: DateRange[] = [];
  let cursor = parseISO(window.start);
  while (toIso(cursor) <= window.end) {
    const start = toIso(startOf(cursor));
    const end = toIso(endOf(cursor));
    periods.push({
      start: start < window.start ? window.start : start,
      end: end < window.end ? end : window.end,
    });
    cursor = addDays(endOf(cursor), 1);
  }
  return periods;
}
