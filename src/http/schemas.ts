import { z } from 'zod';

/** A date in a response: ISO 8601, `YYYY-MM-DD`. */
export const isoDate = (description: string) =>
  z.iso.date().meta({ description: `${description} ISO 8601 date (YYYY-MM-DD).` });

/** FastAPI's error body for every non-422 error. */
export const ErrorDetail = z
  .object({ detail: z.string() })
  .meta({ id: 'ErrorDetail', description: 'Error with a human-readable detail' });

export const ValidationError = z
  .object({
    loc: z.array(z.union([z.string(), z.int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ValidationError', description: 'One invalid input, as pydantic reports it' });

export const HTTPValidationError = z.object({ detail: z.array(ValidationError).optional() }).meta({
  id: 'HTTPValidationError',
  description: 'Every invalid query parameter at once (FastAPI’s 422 body)',
});

/**
 * Statuses every endpoint answers whatever it is: an HTTP/1.1 request without `Host` (400), a
 * request line naming an HTTP version other than 1.x (505).
 */
export const transportResponses = { 400: ErrorDetail, 505: ErrorDetail } as const;

/** Statuses every authenticated endpoint can answer besides its own. */
export const protectedResponses = {
  ...transportResponses,
  401: ErrorDetail,
  414: ErrorDetail,
  429: ErrorDetail,
  500: ErrorDetail,
  503: ErrorDetail,
} as const;

export const validationResponse = { 422: HTTPValidationError } as const;
export const notFoundResponse = { 404: ErrorDetail } as const;
