/**
 * openapi.yaml: generated from the code (drift), complete (every route, parameter, status and
 * example), in the spec's names, and served by the app (/openapi.json, /openapi.yaml, /docs).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { relative, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildApp } from '../../src/app.ts';
import { requestIdFor } from '../../src/http/request-id.ts';
import {
  CLIENT_TYPES_FILE,
  EXAMPLES_PATH,
  GENERATED_FILES,
  type Generated,
  generate,
  OPENAPI_FILE,
} from '../../tools/openapi.ts';
import { unusedPort } from '../helpers/store.ts';

const ROOT = resolve(import.meta.dirname, '../..');

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters?: Json[];
  responses: Record<string, Json>;
  security?: unknown[];
  deprecated?: boolean;
};

const committedText = await readFile(OPENAPI_FILE, 'utf8');
const document = parse(committedText) as {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Json };
  security: unknown[];
};
const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({ path, method, operation })),
);

describe('openapi.yaml is what the code generates', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generate();
  });

  for (const { path, key } of GENERATED_FILES) {
    it(`${relative(ROOT, path)} is up to date`, async () => {
      const committed = await readFile(path, 'utf8').catch(() => '(missing)');
      // Not toEqual: a diff of thousands of lines helps nobody; the hint does.
      if (committed !== generated[key]) {
        expect.fail(
          `${path} differs from what the code generates: run \`npm run openapi\` and commit the result`,
        );
      }
    });
  }

  it('generates the same bytes twice (examples are stable)', async () => {
    const again = await generate();
    expect(again.openapi === generated.openapi).toBe(true);
    expect(again.examples === generated.examples).toBe(true);
  });

  it('writes where the README says', () => {
    expect(OPENAPI_FILE).toMatch(/openapi\.yaml$/);
    expect(EXAMPLES_PATH).toMatch(/src\/http\/openapi-examples\.yaml$/);
    expect(CLIENT_TYPES_FILE).toMatch(/examples\/generated\/api\.ts$/);
  });
});

describe('the document', () => {
  it('is OpenAPI 3.1, version 1.0.0, with the bearer scheme on every operation but the probes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes).toMatchObject({
      HTTPBearer: { type: 'http', scheme: 'bearer' },
    });
    expect(document.security).toEqual([{ HTTPBearer: [] }]);
    const publicOperations = operations.filter((o) => o.operation.security?.length === 0);
    expect(publicOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([
      'GET /healthz',
      'GET /readyz',
      'HEAD /healthz',
      'HEAD /readyz',
    ]);
  });

  it('lists every endpoint of the service', () => {
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([
      'GET /healthz',
      'GET /readyz',
      'GET /v1/accounts',
      'GET /v1/categories',
      'GET /v1/links',
      'GET /v1/user',
      'GET /v1/users/balance-history',
      'GET /v1/users/balances',
      'GET /v1/users/income',
      'GET /v1/users/liabilities',
      'GET /v1/users/spending',
      'GET /v2/users/events',
      'GET /v2/users/recurring',
      'GET /v2/users/spending',
      'GET /v2/users/transactions',
      'GET /v2/users/transactions/sync',
      'GET /v2/users/transactions/{id}',
      // Load balancers probe with HEAD: the same statuses and headers, no body.
      'HEAD /healthz',
      'HEAD /readyz',
    ]);
    expect(new Set(operations.map((o) => o.operation.operationId)).size).toBe(operations.length);
    for (const { method, operation } of operations.filter((o) => o.method === 'head')) {
      expect(operation.operationId).toMatch(/^head[A-Z]/);
      for (const response of Object.values(operation.responses)) {
        expect(response.content, method).toBeUndefined();
      }
    }
  });

  it('documents 401, 429 and 503 on every protected operation, 422 wherever there is a query', () => {
    // Queries of ids only, free text that nothing refuses: no 422 to document.
    const neverInvalid = new Set(['/v2/users/recurring']);
    for (const { path, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      expect(statuses, path).toContain('200');
      if (operation.security?.length === 0) continue;
      expect(statuses, path).toEqual(expect.arrayContaining(['401', '429', '503']));
      if (operation.parameters?.some((p) => p.in === 'query') && !neverInvalid.has(path)) {
        expect(statuses, path).toContain('422');
      } else expect(statuses, path).not.toContain('422');
    }
    expect(Object.keys(document.paths['/v1/user']?.get?.responses ?? {})).toContain('404');
  });

  it('has a realistic example for every 200 and every error status', () => {
    for (const { path, method, operation } of operations) {
      // HEAD answers have no body.
      if (method === 'head') continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        // 304 Not Modified has no body.
        if (status === '304') continue;
        const content = response.content as Record<string, Json>;
        // An event stream's example is its text.
        if (status === '200' && content['text/event-stream']) {
          expect(content['text/event-stream'].example, path).toMatch(/^retry: 5000\n\n/);
          continue;
        }
        const media = content['application/json'];
        const examples = media?.examples as Record<string, { value: unknown }> | undefined;
        expect(examples ?? media?.example, `${path} ${status}`).toBeDefined();
        if (status === '200') expect(Object.keys(examples ?? {}).length, path).toBeGreaterThan(0);
      }
    }
    const spending = document.paths['/v2/users/spending']?.get?.responses['200']?.content as Json;
    const example = (spending['application/json'] as Json).examples as Record<
      string,
      { value: Json }
    >;
    expect(example.by_category?.value).toMatchObject({
      request_id: 'req_example_004',
      created_at: '2026-11-20T14:30:00.000Z',
      spending: { by_merchant: null, by_time_period: null },
    });
    const byCategory = example.by_category?.value.spending as Json | undefined;
    expect(byCategory?.by_category).not.toHaveLength(0);
  });

  it('keeps the component names of docs/api.md', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'SpendingAnalysisEnrichedResponse',
        'SpendingDataWithTransactionIds',
        'SpendingSummary',
        'CategorySpending',
        'MerchantSpending',
        'TimePeriodSpendingWithTransactionIds',
        'TimePeriodSpendingEnriched',
        'SpendingBreakdownItem',
        'LargestTransaction',
        'Subcategory',
        'TimeSeriesPoint',
        'HTTPValidationError',
        'ValidationError',
      ]),
    );
    // zod's input twins are not used by any operation and are not published.
    expect(Object.keys(document.components.schemas).filter((n) => n.endsWith('Input'))).toEqual([]);
    expect(document.components.schemas.SpendingAnalysisEnrichedResponse).toMatchObject({
      required: ['spending', 'summary', 'request_id', 'created_at'],
    });
    expect(document.components.schemas.ValidationError).toMatchObject({
      required: ['loc', 'msg', 'type'],
    });
  });

  it('gives the spec components their required, optional and extra fields', () => {
    const figures = ['total_amount', 'transaction_count', 'average_transaction'];
    const spec: Record<string, { required: string[]; optional?: string[]; loose: boolean }> = {
      SpendingAnalysisEnrichedResponse: {
        required: ['spending', 'summary', 'request_id', 'created_at'],
        optional: ['by_time_period', 'total_income', 'total_expenses', 'savings_rate'],
        loose: false,
      },
      // The spec does not say which of its fields are required: ours are always sent.
      SpendingDataWithTransactionIds: {
        required: ['by_category', 'by_merchant', 'by_time_period'],
        loose: true,
      },
      SpendingSummary: {
        required: [
          'total_spending',
          'average_daily_spending',
          'average_monthly_spending',
          'total_transactions',
          'unique_merchants',
          'top_category',
          'top_merchant',
        ],
        loose: true,
      },
      CategorySpending: {
        required: ['category', ...figures, 'percentage_of_total', 'largest_transaction'],
        optional: ['trend'],
        loose: true,
      },
      MerchantSpending: {
        required: ['merchant_name', 'category', ...figures, 'is_recurring', 'time_series'],
        optional: ['trend'],
        loose: true,
      },
      TimePeriodSpendingWithTransactionIds: {
        required: ['time_period', 'end_date', ...figures, 'largest_transaction'],
        optional: ['start_date', 'trend', 'transaction_ids'],
        loose: true,
      },
      TimePeriodSpendingEnriched: {
        required: ['end_date', 'total_amount', 'transaction_count', 'breakdown'],
        optional: ['start_date', 'trend'],
        loose: false,
      },
      SpendingBreakdownItem: {
        required: ['name', 'amount', 'transaction_count', 'percentage'],
        loose: false,
      },
      LargestTransaction: {
        required: ['transaction_id', 'amount', 'date', 'description'],
        optional: ['merchant_category_code'],
        loose: true,
      },
      Subcategory: { required: ['name', 'amount', 'count'], loose: true },
      TimeSeriesPoint: {
        required: ['end_date', 'amount', 'count'],
        optional: ['start_date'],
        loose: true,
      },
      HTTPValidationError: { required: [], optional: ['detail'], loose: false },
      ValidationError: {
        required: ['loc', 'msg', 'type'],
        optional: ['input', 'ctx'],
        loose: false,
      },
    };
    for (const [name, fields] of Object.entries(spec)) {
      const schema = document.components.schemas[name] as {
        required?: string[];
        properties: Json;
        additionalProperties?: unknown;
      };
      expect(schema.required ?? [], name).toEqual(expect.arrayContaining(fields.required));
      for (const field of fields.optional ?? []) {
        expect(Object.keys(schema.properties), name).toContain(field);
        expect(schema.required ?? [], `${name}.${field}`).not.toContain(field);
      }
      if (fields.loose) expect(schema.additionalProperties, name).not.toBe(false);
    }
    const largest = document.components.schemas.LargestTransaction as { properties: Json };
    expect(largest.properties.transaction_id).toMatchObject({ type: 'string', maxLength: 32 });
  });

  it('documents the spending parameters as FastAPI does', () => {
    const parameters = (document.paths['/v2/users/spending']?.get?.parameters ?? []).filter(
      (p) => p.in === 'query',
    );
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    // Declaration order is FastAPI's (and the order of its 422 errors).
    expect(Object.keys(byName)).toEqual([
      'group_by',
      'time_period',
      'link_id',
      'start_date',
      'end_date',
      'account_ids',
      'categories',
      'min_total_amount',
      'include_income',
      'secondary_group_by',
    ]);
    expect(byName.group_by).toMatchObject({
      required: true,
      schema: { type: 'string', enum: ['category', 'merchant', 'time_period'] },
    });
    expect(byName.time_period).toMatchObject({
      required: true,
      schema: { type: 'string', enum: ['day', 'week', 'month', 'quarter', 'year'] },
    });
    expect(byName.secondary_group_by).toMatchObject({
      required: false,
      schema: { type: 'string', enum: ['category', 'merchant'] },
    });
    for (const name of ['start_date', 'end_date']) {
      expect(byName[name]).toMatchObject({
        required: false,
        schema: { type: 'string', format: 'date' },
      });
    }
    expect(byName.link_id).toMatchObject({ required: false, schema: { type: 'string' } });
    // Repeatable (form style, exploded: `categories=Travel&categories=Medical`), each value
    // possibly a comma-separated list: a validating proxy passes both spellings.
    for (const name of ['account_ids', 'categories']) {
      expect(byName[name]).toMatchObject({
        required: false,
        schema: { type: 'array', items: { type: 'string' } },
      });
      expect(byName[name]?.style ?? 'form').toBe('form');
      expect(byName[name]?.explode ?? true).toBe(true);
    }
    expect(byName.min_total_amount).toMatchObject({
      required: false,
      schema: {
        default: '50.00',
        anyOf: [
          { type: 'number' },
          { type: 'string', pattern: '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$' },
        ],
      },
    });
    expect(byName.include_income).toMatchObject({
      required: false,
      schema: { type: 'boolean', default: false },
    });
  });

  it('documents the x-request-id a caller may send, with the pattern the app accepts', () => {
    for (const { path, operation } of operations) {
      expect(operation.parameters, path).toContainEqual({
        $ref: '#/components/parameters/RequestId',
      });
    }
    const parameter = (document.components as unknown as { parameters: Record<string, Json> })
      .parameters.RequestId as { in: string; name: string; schema: { pattern: string } };
    expect(parameter).toMatchObject({ in: 'header', name: 'x-request-id', required: false });
    const pattern = new RegExp(parameter.schema.pattern);
    const header = (value: string) =>
      requestIdFor({ headers: { 'x-request-id': value } } as unknown as IncomingMessage);
    for (const value of ['abc', 'req-1.2:3_4', 'x'.repeat(128), '', 'a b', 'x'.repeat(129), 'é']) {
      expect(header(value) === value, JSON.stringify(value)).toBe(pattern.test(value));
    }
  });

  it('documents pagination bounds and the legacy endpoint as deprecated', () => {
    const parameters = document.paths['/v2/users/transactions']?.get?.parameters ?? [];
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    expect(byName.page).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1 } });
    expect(byName.page_size).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 10, maximum: 500 },
    });
    const legacy = document.paths['/v1/users/spending']?.get;
    expect(legacy?.deprecated).toBe(true);
    expect(Object.keys(legacy?.responses['200']?.headers as Json)).toEqual([
      'x-request-id',
      'ETag',
      'Cache-Control',
      'X-Store-Generation',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Deprecation',
      'Sunset',
      'Link',
    ]);
  });
});

describe('served by the app, without a token', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ store: unusedPort() });
  });
  afterAll(() => app.close());

  it('GET /openapi.json is the committed document', async () => {
    const response = await app.inject('/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(document);
  });

  it('GET /openapi.yaml is the committed file, byte for byte', async () => {
    const response = await app.inject('/openapi.yaml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/yaml/);
    expect(response.body === committedText).toBe(true);
  });

  it('GET /docs is Swagger UI from the installed package, nothing from elsewhere', async () => {
    const page = await app.inject('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const initializer = await app.inject('/docs/static/swagger-initializer.js');
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain("resolveUrl('./json')");
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const response = await app.inject(`/docs/static/${asset}`);
      expect(response.statusCode, asset).toBe(200);
    }
    const spec = await app.inject('/docs/json');
    expect(spec.json()).toEqual(document);
  });

  it('the API itself still wants a token', async () => {
    const response = await app.inject('/v1/user');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated' });
  });
});
