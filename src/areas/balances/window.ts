import {
  addDays,
  clippedPeriod,
  type Period,
  periodKey,
  type TimePeriod,
  type Window,
} from '../spending/window.ts';

/** Every calendar period meeting the window, clipped to it, ascending (none is skipped). */
export function calendarPeriods(window: Window, period: TimePeriod): Period[] {
  const periods: Period[] = [];
  let key = periodKey(window.start, period);
  while (key <= window.end) {
    const clipped = clippedPeriod(key, period, window);
    periods.push(clipped);
    // A clipped period ends on its calendar end except the last one, which ends the window.
    key = addDays(clipped.end, 1);
  }
  return periods;
}
