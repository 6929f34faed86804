import type { FastifyRequest } from 'fastify';
import type { Window } from '../../domain/calendar.ts';
import { qDate, RequestValidationError, valueError } from '../../http/fastapi/index.ts';
import { rawQueryValues } from '../../http/fastapi/python-query.ts';

/** The analysis window's parameters, as on the spending endpoint. */
export const windowQuery = {
  start_date: qDate({
    optional: true,
    description:
      'First day of the window (YYYY-MM-DD); default: the same date a year before end_date, plus one day.',
  }),
  end_date: qDate({
    optional: true,
    description: 'Last day of the window (YYYY-MM-DD); omitted or in the future -> today.',
  }),
};

/** docs/api.md: a start after the effective end is a 422 value_error on start_date. */
export function assertWindowOrdered(request: FastifyRequest, window: Window): void {
  if (window.start <= window.end) return;
  throw new RequestValidationError([
    valueError('start_date', 'start_date must be on or before end_date', rawStartDate(request)),
  ]);
}

/**
 * The start_date exactly as received (its last occurrence), for the error's `input`; null when
 * absent (pydantic's `input` of a missing value).
 */
export function rawStartDate(request: FastifyRequest): string | null {
  return rawQueryValues(request.url, 'start_date')?.at(-1) ?? null;
}
