/** The analysis window's parameters and their cross-parameter check, shared by every area. */
import type { FastifyRequest } from 'fastify';
import type { Window } from '../../domain/calendar.ts';
import {
  qDate,
  RequestValidationError,
  type ValidationErrorItem,
  valueError,
} from '../../http/fastapi/index.ts';
import { lastRawValue } from '../../http/fastapi/raw-query.ts';

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
export function windowProblem(request: FastifyRequest, window: Window): ValidationErrorItem | null {
  if (window.start <= window.end) return null;
  return valueError(
    'start_date',
    'start_date must be on or before end_date',
    lastRawValue(request, 'start_date'),
  );
}

export function assertWindowOrdered(request: FastifyRequest, window: Window): void {
  const problem = windowProblem(request, window);
  if (problem) throw new RequestValidationError([problem]);
}
