import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isRequestValidationError,
  qBool,
  qDate,
  qDecimal,
  qEnum,
  qInt,
  qList,
  qStr,
  queryObject,
  RequestValidationError,
  validatorCompiler,
  valueError,
} from '../../src/http/fastapi/index.ts';

/** The parameters of test/golden/generators/generate_validation_golden.py, declared the same way. */
const schemas = {
  spending: queryObject({
    group_by: qEnum(['category', 'merchant', 'time_period']),
    time_period: qEnum(['day', 'week', 'month', 'quarter', 'year']),
    link_id: qStr({ optional: true }),
    start_date: qDate({ optional: true }),
    end_date: qDate({ optional: true }),
    account_ids: qList(),
    categories: qList(),
    min_total_amount: qDecimal({ default: '50.00' }),
    include_income: qBool({ default: false }),
    secondary_group_by: qEnum(['category', 'merchant'], { optional: true }),
  }),
  transactions: queryObject({
    transacted_at_from: qDate({ optional: true }),
    transacted_at_to: qDate({ optional: true }),
    account_ids: qList(),
    page: qInt({ ge: 1, optional: true }),
    page_size: qInt({ ge: 10, le: 500, optional: true }),
  }),
  links: queryObject({
    page: qInt({ ge: 1, optional: true }),
    page_size: qInt({ ge: 10, le: 500, optional: true }),
  }),
};

type Endpoint = keyof typeof schemas;

interface GoldenCase {
  endpoint: Endpoint;
  query: string;
  status: 422 | 'valid';
  detail?: unknown[];
  values?: Record<string, unknown>;
}

const golden: GoldenCase[] = JSON.parse(
  readFileSync(resolve(import.meta.dirname, 'validation/cases.json'), 'utf8'),
).cases;

/** Parsed values as JSON carries them: missing optional parameters (None) left out. */
function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== null && v !== undefined),
  );
}

/** Starlette's `parse_qsl(keep_blank_values=True)`, shaped as Fastify's query object. */
function rawQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : [prev, value].flat();
  }
  return out;
}

function compile(endpoint: Endpoint) {
  return validatorCompiler({
    schema: schemas[endpoint],
    method: 'GET',
    url: `/${endpoint}`,
    httpPart: 'querystring',
  }) as (data: unknown) => { value?: Record<string, unknown>; error?: Error };
}

describe('golden cases through the validator compiler', () => {
  const validators = {
    spending: compile('spending'),
    transactions: compile('transactions'),
    links: compile('links'),
  };

  it.each(golden.map((c) => [`${c.endpoint}?${c.query}`, c] as const))('%s', (_name, c) => {
    const result = validators[c.endpoint](rawQuery(c.query));
    if (c.status === 'valid') {
      expect(result.error).toBeUndefined();
      expect(withoutEmpty(result.value ?? {})).toEqual(withoutEmpty(c.values ?? {}));
    } else {
      expect(result.error).toBeInstanceOf(RequestValidationError);
      expect((result.error as RequestValidationError).detail).toEqual(c.detail);
    }
  });
});

describe('golden cases through a Fastify app', () => {
  let app: FastifyInstance;
  const seenErrors: unknown[] = [];

  beforeAll(async () => {
    const fastify = Fastify().withTypeProvider<ZodTypeProvider>();
    fastify.setValidatorCompiler(validatorCompiler);
    fastify.setErrorHandler((err: FastifyError, _request, reply) => {
      seenErrors.push(err);
      if (isRequestValidationError(err)) return reply.code(422).send({ detail: err.detail });
      return reply.code(500).send({ detail: 'Internal Server Error' });
    });
    for (const endpoint of Object.keys(schemas) as Endpoint[]) {
      fastify.get(
        `/${endpoint}`,
        { schema: { querystring: schemas[endpoint] } },
        async (request) => request.query,
      );
    }
    // A cross-parameter check, run by the route once every field is valid.
    fastify.get(
      '/window',
      {
        schema: {
          querystring: queryObject({
            start_date: qDate({ optional: true }),
            end_date: qDate({ optional: true }),
          }),
        },
      },
      async (request) => {
        const { start_date, end_date } = request.query;
        if (start_date && end_date && start_date > end_date) {
          throw new RequestValidationError([
            valueError('start_date', 'start_date must be on or before end_date', start_date),
          ]);
        }
        return { start_date, end_date };
      },
    );
    app = fastify;
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers every golden case as FastAPI does', async () => {
    const mismatches = [];
    for (const c of golden) {
      const res = await app.inject({ method: 'GET', url: `/${c.endpoint}?${c.query}` });
      const expected =
        c.status === 'valid'
          ? { status: 200, body: withoutEmpty(c.values ?? {}) }
          : { status: 422, body: { detail: c.detail } };
      const actual = { status: res.statusCode, body: res.json() };
      if (!isDeepStrictEqual(actual, expected))
        mismatches.push({ query: c.query, expected, actual });
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it('hands the error handler a RequestValidationError that keeps its 422', async () => {
    seenErrors.length = 0;
    const res = await app.inject({ method: 'GET', url: '/links?page=0&page=x' });
    expect(res.statusCode).toBe(422);
    const [err] = seenErrors;
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err).toMatchObject({ statusCode: 422, validationContext: 'querystring' });
    expect(res.json()).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['query', 'page'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'x',
        },
      ],
    });
  });

  it('reports cross-parameter checks with value_error', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/window?start_date=2024-03-01&end_date=2024-02-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'start_date'],
          msg: 'Value error, start_date must be on or before end_date',
          input: '2024-03-01',
          ctx: { error: {} },
        },
      ],
    });
    const ok = await app.inject({
      method: 'GET',
      url: '/window?start_date=2024-01-01&end_date=2024-02-01',
    });
    expect(ok.json()).toEqual({ start_date: '2024-01-01', end_date: '2024-02-01' });
  });
});
