import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  qBool,
  qDate,
  qDecimal,
  qEnum,
  qInt,
  qList,
  qStr,
  queryObject,
  validatorCompiler,
} from '../../src/http/fastapi/index.ts';

const DECIMAL_PATTERN = '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$';

const query = queryObject({
  group_by: qEnum(['category', 'merchant', 'time_period'], { description: 'Grouping' }),
  secondary_group_by: qEnum(['category', 'merchant'], { optional: true, description: 'Breakdown' }),
  start_date: qDate({ optional: true, description: 'First day' }),
  account_ids: qList({ description: 'Account ids, comma-separated' }),
  link_id: qStr({ optional: true, description: 'Link' }),
  min_total_amount: qDecimal({ default: '50.00', description: 'Smallest total listed' }),
  include_income: qBool({ default: false, description: 'Add income entries' }),
  page: qInt({ ge: 1, optional: true, description: 'Page, from 1' }),
  page_size: qInt({ ge: 10, le: 500, optional: true, description: 'Page size' }),
});

describe('query fields document themselves', () => {
  it('as zod JSON Schema (io input)', () => {
    const schema = z.toJSONSchema(query, { io: 'input' });
    expect(schema.required).toEqual(['group_by']);
    expect(schema.properties).toEqual({
      group_by: {
        type: 'string',
        enum: ['category', 'merchant', 'time_period'],
        description: 'Grouping',
      },
      secondary_group_by: {
        type: 'string',
        enum: ['category', 'merchant'],
        description: 'Breakdown',
      },
      start_date: { type: 'string', format: 'date', description: 'First day' },
      account_ids: {
        type: 'array',
        items: { type: 'string' },
        description: 'Account ids, comma-separated',
      },
      link_id: { type: 'string', description: 'Link' },
      min_total_amount: {
        anyOf: [{ type: 'number' }, { type: 'string', pattern: DECIMAL_PATTERN }],
        default: '50.00',
        description: 'Smallest total listed',
      },
      include_income: { type: 'boolean', default: false, description: 'Add income entries' },
      page: { type: 'integer', minimum: 1, description: 'Page, from 1' },
      page_size: { type: 'integer', minimum: 10, maximum: 500, description: 'Page size' },
    });
  });

  it('as OpenAPI parameters through @fastify/swagger and jsonSchemaTransform', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    await app.register(swagger, {
      openapi: { openapi: '3.1.0', info: { title: 'test', version: '1' } },
      transform: jsonSchemaTransform,
    });
    app.get('/spending', { schema: { querystring: query } }, async () => ({}));
    await app.ready();
    const doc = app.swagger() as {
      paths: Record<string, { get: { parameters: Record<string, unknown>[] } }>;
    };
    const params = doc.paths['/spending']?.get.parameters ?? [];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(params.map((p) => p.name)).toEqual(Object.keys(query.shape));
    expect(byName.group_by).toMatchObject({ in: 'query', required: true, description: 'Grouping' });
    expect(byName.min_total_amount).toEqual({
      in: 'query',
      name: 'min_total_amount',
      required: false,
      description: 'Smallest total listed',
      schema: {
        anyOf: [{ type: 'number' }, { type: 'string', pattern: DECIMAL_PATTERN }],
        default: '50.00',
      },
    });
    expect(byName.page_size).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 10, maximum: 500 },
    });
    await app.close();
  });
});

describe('query field types', () => {
  it('infers the parsed types', () => {
    type Q = z.output<typeof query>;
    const parsed: Q = query.parse({ group_by: 'merchant', page: '2' });
    const groupBy: 'category' | 'merchant' | 'time_period' = parsed.group_by;
    const secondary: 'category' | 'merchant' | undefined = parsed.secondary_group_by;
    const start: string | undefined = parsed.start_date;
    const ids: string[] = parsed.account_ids;
    const amount: string = parsed.min_total_amount;
    const income: boolean = parsed.include_income;
    const page: number | undefined = parsed.page;
    expect({ groupBy, secondary, start, ids, amount, income, page }).toEqual({
      groupBy: 'merchant',
      secondary: undefined,
      start: undefined,
      ids: [],
      amount: '50.00',
      income: false,
      page: 2,
    });
  });

  it('normalizes a decimal default like a received value', () => {
    expect(queryObject({ m: qDecimal({ default: '0050.0' }) }).parse({})).toEqual({ m: '50.0' });
    expect(() => qDecimal({ default: 'abc' })).toThrow();
  });
});
