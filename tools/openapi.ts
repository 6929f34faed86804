/**
 * `npm run openapi`: writes the interface description generated from the routes' zod schemas.
 *
 * 1. Builds a store from the committed demo set (fixtures/demo), mints a token for its first
 *    user and records one realistic response per endpoint (and a 422) with TODAY pinned to
 *    2026-11-20, fixed request ids and a fixed `created_at`: the same code always gives the
 *    same bytes.
 * 2. Writes those examples to src/http/openapi-examples.yaml (the app serves them in its
 *    live document), the document to openapi.yaml and the client types generated from it by
 *    openapi-typescript to examples/generated/api.ts.
 *
 * `npm run openapi -- --check` writes nothing and exits 1 when a file is out of date.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { buildApp } from '../src/app.ts';
import { parseCliArgs, runCli } from '../src/cli/args.ts';
import { createClock } from '../src/clock.ts';
import { openDuckDbPort } from '../src/engines/duckdb/port.ts';
import {
  applyExamples,
  type DocumentExamples,
  documentToYaml,
  EXAMPLES_FILE,
  operationKey,
} from '../src/http/openapi-document.ts';
import { buildStore } from '../src/ingest/duckdb/build.ts';
import { mintToken } from '../src/tokens/token-file.ts';
import { DEMO_DIR, DEMO_TODAY, DEMO_USER } from './demo-data/demo.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const OPENAPI_FILE = join(ROOT, 'openapi.yaml');
export const CLIENT_TYPES_FILE = join(ROOT, 'examples/generated/api.ts');
export const EXAMPLES_PATH = fileURLToPath(EXAMPLES_FILE);

const EXAMPLE_CREATED_AT = '2026-11-20T14:30:00.000Z';
const EXAMPLE_STORE_GENERATION = '5f1c0ffee0ddba11';

interface ExampleRequest {
  name: string;
  url: string;
  status: number;
  /** Without the token: a 401 example. */
  anonymous?: boolean;
  /** Request headers besides the token and the request id. */
  headers?: Record<string, string>;
}

/** Per operation (`METHOD path`): the requests whose responses become its examples. */
const EXAMPLE_REQUESTS: Record<string, ExampleRequest[]> = {
  'GET /healthz': [{ name: 'alive', url: '/healthz', status: 200 }],
  'GET /readyz': [{ name: 'ready', url: '/readyz', status: 200 }],
  'GET /v1/user': [{ name: 'profile', url: '/v1/user', status: 200 }],
  'GET /v2/users/spending': [
    {
      name: 'by_category',
      url: '/v2/users/spending?group_by=category&time_period=month&start_date=2026-10-01&end_date=2026-10-31&min_total_amount=100',
      status: 200,
    },
    {
      name: 'monthly_with_breakdown',
      url: '/v2/users/spending?group_by=time_period&time_period=month&start_date=2026-09-01&end_date=2026-10-31&secondary_group_by=merchant',
      status: 200,
    },
    {
      name: 'invalid_query',
      url: '/v2/users/spending?group_by=vendor&start_date=2026-13-01',
      status: 422,
    },
  ],
  'GET /v1/users/spending': [
    {
      name: 'by_merchant',
      url: '/v1/users/spending?group_by=merchant&time_period=month&start_date=2026-10-01&end_date=2026-10-31&min_total_amount=150',
      status: 200,
    },
    {
      name: 'start_after_end',
      url: '/v1/users/spending?group_by=category&time_period=month&start_date=2026-11-01&end_date=2026-10-01',
      status: 422,
    },
  ],
  'GET /v2/users/transactions': [
    {
      name: 'first_page',
      url: '/v2/users/transactions?transacted_at_from=2026-11-01&transacted_at_to=2026-11-20&page=1&page_size=10',
      status: 200,
    },
    {
      name: 'page_size_too_small',
      url: '/v2/users/transactions?page=0&page_size=5',
      status: 422,
    },
    {
      name: 'not_a_served_type',
      url: '/v2/users/transactions?page_size=10',
      status: 406,
      headers: { accept: 'application/xml' },
    },
  ],
  'GET /v1/links': [
    { name: 'all_links', url: '/v1/links', status: 200 },
    { name: 'page_size_too_large', url: '/v1/links?page_size=1000', status: 422 },
  ],
  'GET /v1/users/balances': [{ name: 'balances', url: '/v1/users/balances', status: 200 }],
  'GET /v1/users/balance-history': [
    {
      name: 'quarterly',
      url: '/v1/users/balance-history?start_date=2026-01-01&time_period=quarter',
      status: 200,
    },
    {
      name: 'unknown_period',
      url: '/v1/users/balance-history?time_period=fortnight',
      status: 422,
    },
  ],
  'GET /v1/users/income': [
    { name: 'income', url: '/v1/users/income?start_date=2026-08-01', status: 200 },
    { name: 'not_a_date', url: '/v1/users/income?start_date=08/01/2026', status: 422 },
  ],
  'GET /v1/users/liabilities': [{ name: 'liabilities', url: '/v1/users/liabilities', status: 200 }],
  'GET /v2/users/recurring': [{ name: 'streams', url: '/v2/users/recurring', status: 200 }],
  'GET /v1/accounts': [{ name: 'accounts', url: '/v1/accounts', status: 200 }],
  'GET /v1/categories': [{ name: 'categories', url: '/v1/categories', status: 200 }],
  'GET /v2/users/events': [
    {
      name: 'not_acceptable',
      url: '/v2/users/events',
      status: 406,
      headers: { accept: 'application/json' },
    },
  ],
  'GET /v2/users/transactions/sync': [
    { name: 'first_sync', url: '/v2/users/transactions/sync?count=2', status: 200 },
    { name: 'invalid_cursor', url: '/v2/users/transactions/sync?cursor=not-a-cursor', status: 422 },
  ],
  'GET /v2/users/transactions/{id}': [
    { name: 'transaction', url: '/v2/users/transactions/txn_hdujbn8vlpyyux57fol1', status: 200 },
    { name: 'not_yours_or_none', url: '/v2/users/transactions/txn_nope', status: 404 },
  ],
};

/** A sync cursor as the examples show it (a real one is signed with the store's own key). */
const EXAMPLE_CURSOR = 'WzEsIjE3ZmM5ZTc3YjQ0MGEzNjEiLDAsMCwidHhuXzAwYjEiXQ.3q2TJzj7xkq5oYl8u0HdCA';

/** Fixed values for the fields that change on every request. */
function stabilized(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const body = { ...(value as Record<string, unknown>) };
  if ('created_at' in body && 'request_id' in body) body.created_at = EXAMPLE_CREATED_AT;
  if ('store_generation' in body) body.store_generation = EXAMPLE_STORE_GENERATION;
  // Signed with the store's own key: a fixed one stands for it.
  if ('next_cursor' in body) body.next_cursor = EXAMPLE_CURSOR;
  return body;
}

export interface Generated {
  examples: string;
  openapi: string;
  clientTypes: string;
}

/** Builds the demo store, records the examples and renders the three generated files. */
export async function generate(): Promise<Generated> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    const databasePath = join(dir, 'demo.duckdb');
    await buildStore({ sourceDir: DEMO_DIR, databasePath });
    const token = await mintToken({ databasePath, userId: DEMO_USER, name: 'openapi' });
    const store = await openDuckDbPort(databasePath);
    const app = await buildApp({ store, clock: createClock(DEMO_TODAY) });
    try {
      await app.ready();
      const examples: DocumentExamples = {};
      let sequence = 0;
      for (const [operation, requests] of Object.entries(EXAMPLE_REQUESTS)) {
        const [method = 'GET'] = operation.split(' ');
        for (const request of requests) {
          sequence += 1;
          const response = await app.inject({
            method: method as 'GET',
            url: request.url,
            headers: {
              ...request.headers,
              'x-request-id': `req_example_${String(sequence).padStart(3, '0')}`,
              ...(request.anonymous ? {} : { authorization: `Bearer ${token}` }),
            },
          });
          if (response.statusCode !== request.status) {
            throw new Error(
              `${request.url}: expected ${request.status}, got ${response.statusCode}: ${response.body}`,
            );
          }
          const byStatus = examples[operation] ?? {};
          const named = byStatus[String(request.status)] ?? {};
          examples[operation] = byStatus;
          byStatus[String(request.status)] = named;
          named[request.name] = {
            summary: `${method} ${request.url}${Object.entries(request.headers ?? {})
              .map(([name, value]) => `, ${name}: ${value}`)
              .join('')}`,
            value: stabilized(response.json()),
          };
        }
      }
      const document = structuredClone(app.swagger()) as unknown as Record<string, unknown>;
      applyExamples(document, examples);
      assertEveryOperationHasExamples(document, examples);
      const clientTypes = astToString(await openapiTS(document as never));
      return {
        examples: documentToYaml(examples),
        openapi: documentToYaml(document),
        clientTypes,
      };
    } finally {
      await app.close();
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function assertEveryOperationHasExamples(
  document: Record<string, unknown>,
  examples: DocumentExamples,
): void {
  type Operation = { responses?: Record<string, { content?: Record<string, unknown> }> };
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  // Every operation whose 200 has a JSON body (HEAD has none; an event stream's example is
  // written with its route).
  const missing = Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(
        ([, operation]) =>
          operation.responses?.['200']?.content?.['application/json'] !== undefined,
      )
      .map(([method]) => operationKey(method, path))
      .filter((key) => !examples[key]?.['200']),
  );
  if (missing.length > 0) {
    throw new Error(
      `no 200 example recorded for ${missing.join(', ')}: add one to EXAMPLE_REQUESTS`,
    );
  }
}

export const GENERATED_FILES: { path: string; key: keyof Generated }[] = [
  { path: EXAMPLES_PATH, key: 'examples' },
  { path: OPENAPI_FILE, key: 'openapi' },
  { path: CLIENT_TYPES_FILE, key: 'clientTypes' },
];

/** The generated files whose committed content differs from `generated`. */
export async function staleFiles(generated: Generated): Promise<string[]> {
  const stale: string[] = [];
  for (const { path, key } of GENERATED_FILES) {
    const committed = await readFile(path, 'utf8').catch(() => undefined);
    if (committed !== generated[key]) stale.push(path);
  }
  return stale;
}

/** The committed openapi.yaml, parsed. */
export async function readCommittedDocument(): Promise<Record<string, unknown>> {
  return parse(await readFile(OPENAPI_FILE, 'utf8')) as Record<string, unknown>;
}

const HELP = `
Usage: npm run openapi [-- --check]

Generates openapi.yaml (OpenAPI 3.1) from the routes' zod schemas, with examples recorded
from the demo store (fixtures/demo, TODAY=${DEMO_TODAY}), src/http/openapi-examples.yaml and
the client types examples/generated/api.ts.

Options:
  --check      write nothing; exit 1 when a generated file is out of date
  -h, --help   show this help
`;

async function main(): Promise<void> {
  const options = parseCliArgs(HELP, { check: { type: 'boolean' } });
  const generated = await generate();
  if (options.check) {
    const stale = await staleFiles(generated);
    for (const path of stale) process.stderr.write(`out of date: ${path}\n`);
    if (stale.length > 0) {
      process.stderr.write('run `npm run openapi` and commit the result\n');
      process.exitCode = 1;
    }
    return;
  }
  for (const { path, key } of GENERATED_FILES) {
    await writeFile(path, generated[key]);
    process.stdout.write(`wrote ${path}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void runCli('openapi', main);
}
