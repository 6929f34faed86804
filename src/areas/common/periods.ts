import {
  addDays,
  clippedPeriod,
  type Period,
  periodKey,
  type TimePeriod,
  type Window,
} from '../../domain/calendar.ts';
import { RequestValidationError, valueError } from '../../http/fastapi/index.ts';

/**
 * At most this many periods in one response (ten years of days): a daily history since the
 * year 1000 would otherwise be a 160 MB answer. Above it the request is a 422.
 */
const MAX_PERIODS = 3660;

/** calendarPeriods one period at a time, so that a caller can stop early. */
function* periodsOf(window: Window, period: TimePeriod): Generator<Period> {
  let key = periodKey(window.start, period);
  while (key <= window.end) {
    const clipped = clippedPeriod(key, period, window);
    yield clipped;
    // A clipped period ends on its calendar end except the last one, which ends the window.
    key = addDays(clipped.end, 1);
  }
}

/** Every calendar period meeting the window, clipped to it, ascending (none is skipped). */
export function calendarPeriods(window: Window, period: TimePeriod): Period[] {
  return [...periodsOf(window, period)];
}

/**
 * `calendarPeriods`, refusing a window of more than MAX_PERIODS periods with a 422
 * `value_error` on `start_date` (a check across parameters, run once every field is valid).
 * `periodParameter` names the query parameter that chose `period`, so the message can suggest
 * a longer one; null when the endpoint fixes the period (income: months), which then only
 * suggests a shorter window.
 */
export function boundedCalendarPeriods(
  window: Window,
  period: TimePeriod,
  rawStartDate: string | null,
  periodParameter: string | null,
): Period[] {
  const periods: Period[] = [];
  for (const clipped of periodsOf(window, period)) {
    if (periods.length === MAX_PERIODS) {
      const message = periodParameter
        ? `the window holds more than ${MAX_PERIODS} periods of one ${period}; shorten it or use a longer ${periodParameter}`
        : `the window holds more than ${MAX_PERIODS} ${period}s; shorten it`;
      throw new RequestValidationError([valueError('start_date', message, rawStartDate)]);
    }
    periods.push(clipped);
  }
  return periods;
}
