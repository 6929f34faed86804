/** One entry of FastAPI's 422 `detail` list. */
export interface ValidationErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * Request validation failure carrying FastAPI's `detail` list. The error handler answers
 * `reply.code(422).send({ detail: err.detail })`; recognise it with `isRequestValidationError`
 * rather than by status code.
 */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  readonly detail: ValidationErrorItem[];

  constructor(detail: ValidationErrorItem[]) {
    super(
      `Request validation failed: ${detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ')}`,
    );
    this.name = 'RequestValidationError';
    this.detail = detail;
  }
}

export function isRequestValidationError(err: unknown): err is RequestValidationError {
  return err instanceof RequestValidationError;
}

/**
 * A pydantic `value_error` on a query parameter, as a FastAPI validator raising
 * `ValueError(message)` produces it (`jsonable_encoder` turns the exception in ctx into `{}`).
 * For checks across parameters, run once every field is valid:
 * `throw new RequestValidationError([valueError(...), ...])`.
 */
export function valueError(name: string, message: string, input: unknown): ValidationErrorItem {
  return {
    type: 'value_error',
    loc: ['query', name],
    msg: `Value error, ${message}`,
    input,
    ctx: { error: {} },
  };
}
