import type { FastifySchemaCompiler } from 'fastify';
import { type $ZodIssue, $ZodType, safeParse } from 'zod/v4/core';
import { RequestValidationError, type ValidationErrorItem } from './errors.ts';
import { isPydanticIssueParams, lastValue } from './query.ts';

/** FastAPI's name for each part of the request, the first item of `loc`. */
const LOCATIONS: Record<string, string> = {
  querystring: 'query',
  params: 'path',
  headers: 'header',
  body: 'body',
};

/** The raw value at `path`, as FastAPI echoes it: the last one of a repeated parameter. */
function rawInput(data: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  if (path.length === 1 && (typeof value === 'string' || Array.isArray(value)))
    value = lastValue(value);
  return value === undefined ? null : value;
}

function toItem(issue: $ZodIssue, location: string, data: unknown): ValidationErrorItem {
  const loc = [location, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))];
  const input = rawInput(data, issue.path);
  const params = issue.code === 'custom' ? issue.params : undefined;
  if (isPydanticIssueParams(params)) {
    const item: ValidationErrorItem = { type: params.type, loc, msg: params.msg, input };
    if (params.ctx !== undefined) item.ctx = params.ctx;
    return item;
  }
  // A plain zod schema somebody used: keep the shape, with zod's own wording.
  if (issue.code === 'invalid_type' && input === null) {
    return { type: 'missing', loc, msg: 'Field required', input: null };
  }
  return { type: issue.code, loc, msg: issue.message, input };
}

/**
 * Fastify validator compiler for zod schemas (use instead of fastify-type-provider-zod's):
 * a failure becomes a `RequestValidationError` whose `detail` is FastAPI's 422 list.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (!(schema instanceof $ZodType)) throw new TypeError('validatorCompiler expects a zod schema');
  const location = LOCATIONS[httpPart ?? ''] ?? httpPart ?? 'query';
  return (data: unknown) => {
    const result = safeParse(schema, data);
    if (result.success) return { value: result.data };
    return {
      error: new RequestValidationError(
        result.error.issues.map((issue) => toItem(issue, location, data)),
      ),
    };
  };
};
