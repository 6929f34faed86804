/**
 * Hostile input on every endpoint: random query strings (known and unknown parameters, odd
 * values, repeated keys, broken percent-encoding) and random headers never produce a 500 nor
 * a status the API does not document, and every error answers in the `{"detail": ...}` shape.
 */

import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

const SPENDING = [
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
];
const WINDOW = ['start_date', 'end_date'];
const PAGES = ['page', 'page_size'];

/** Every endpoint with its query parameters and the statuses it may answer. */
const PROTECTED = [200, 401, 404, 405, 422, 429, 503];
const ENDPOINTS: Array<{ path: string; params: string[]; statuses: number[] }> = [
  { path: '/v1/user', params: [], statuses: PROTECTED },
  { path: '/v2/users/spending', params: SPENDING, statuses: PROTECTED },
  { path: '/v1/users/spending', params: SPENDING, statuses: PROTECTED },
  {
    path: '/v2/users/transactions',
    params: ['transacted_at_from', 'transacted_at_to', 'format', ...PAGES],
    // 406: an Accept naming none of the list's formats.
    statuses: [...PROTECTED, 406],
  },
  // Its scope (account_ids, link_id) takes any text: nothing to answer 422 to.
  { path: '/v2/users/recurring', params: [], statuses: PROTECTED },
  { path: '/v1/links', params: PAGES, statuses: PROTECTED },
  { path: '/v1/users/balances', params: [], statuses: PROTECTED },
  { path: '/v1/users/balance-history', params: [...WINDOW, 'time_period'], statuses: PROTECTED },
  { path: '/v1/users/income', params: WINDOW, statuses: PROTECTED },
  { path: '/v1/users/liabilities', params: [], statuses: PROTECTED },
  { path: '/healthz', params: [], statuses: [200, 404, 405, 429] },
  { path: '/readyz', params: [], statuses: [200, 404, 405, 429, 503] },
];

let app: FastifyInstance;
let store: ReadPort;
let token: string;
beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  token = demo.tokens[0] as string;
  store = await openStore(demo.path);
  app = await buildApp({
    store,
    clock: createClock(DEMO_TODAY),
    config: configOf({
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_AUTH_FAILURES: '1000000',
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    }),
  });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});

/** Values near the valid ones and far from them. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    'category',
    'merchant',
    'time_period',
    'day',
    'week',
    'month',
    'quarter',
    'year',
    'true',
    'false',
    'yes',
    '0',
    '1',
    '-1',
    '100',
    '101',
    '1e3',
    '1e309',
    'NaN',
    '-0',
    '99999999999999999999999',
    '2026-02-29',
    '2024-02-29',
    '2026-11-20',
    '2000-01-01',
    '9999-12-31',
    '0000-00-00',
    '2026-11-20T10:00:00Z',
    '1700000000',
    'Food and Drink',
    'food and drink,transportation',
    ',,,',
    'acc_mp5j4s9lxtbf2n',
    'lnk_9jsnolw673es',
    "' OR 1=1 --",
    '%',
    '%zz',
    '%00',
    '%C0%AF',
    '\u0000',
    '\u202e',
    'é',
    '😀',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);

function queryOf(params: string[]) {
  const name =
    params.length > 0
      ? fc.oneof(fc.constantFrom(...params), fc.string({ maxLength: 12 }))
      : fc.string({ maxLength: 12 });
  const pair = fc.record({ name, value, raw: fc.boolean() });
  return fc
    .array(pair, { maxLength: 8 })
    .map((pairs) =>
      pairs
        .map(({ name: key, value: text, raw }) =>
          raw && /^[\x21-\x7e]*$/.test(text) && !/[#&]/.test(text)
            ? `${encodeURIComponent(key)}=${text}`
            : `${encodeURIComponent(key)}=${encodeURIComponent(text)}`,
        )
        .join('&'),
    );
}

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(() => `Bearer ${token}`) },
  fc.constant(() => `bearer ${token}`),
  fc.constant(() => `Bearer ${generateToken()}`),
  fc.constant(() => `Basic ${Buffer.from('a:b').toString('base64')}`),
  fc.constant(() => 'Bearer'),
  fc.constant(() => `Bearer ${token.slice(0, -1)}x`),
  fc.constant(() => `Bearer  ${token} extra`),
  printable.map((text) => () => text),
  printable.map((text) => () => `Bearer ${text}`),
);

const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
  .filter(
    (name) =>
      !['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade'].includes(
        name,
      ),
  );
const headers = fc.record(
  {
    authorization,
    extra: fc.dictionary(headerName, printable, { maxKeys: 4 }),
    accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml', ''),
    'x-request-id': printable,
    'x-forwarded-for': printable,
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', '*', 'nonsense'),
  },
  { requiredKeys: ['authorization'] },
);

const method = fc.oneof(
  { weight: 8, arbitrary: fc.constant('GET' as const) },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') },
);
const suffix = fc.oneof(
  { weight: 8, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('/', '//', '/x', '/..', '/%2e%2e', '.json', '%00') },
);

describe('fuzzing every endpoint', () => {
  it.each(ENDPOINTS)('$path: never a 500, never an undocumented status', async (endpoint) => {
    const seen = new Set<number>();
    // Spending needs group_by and time_period: start from a valid pair half of the time.
    const base = endpoint.params.includes('group_by')
      ? fc.option(
          fc
            .tuple(
              fc.constantFrom('category', 'merchant', 'time_period'),
              fc.constantFrom('day', 'week', 'month', 'quarter', 'year'),
            )
            .map(([group, period]) => `group_by=${group}&time_period=${period}`),
          { nil: '' },
        )
      : fc.constant('');
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(base, queryOf(endpoint.params))
          .map(([start, rest]) => [start, rest].filter(Boolean).join('&')),
        headers,
        method,
        suffix,
        async (query, sent, verb, tail) => {
          const { authorization: auth, extra, ...named } = sent;
          const requestHeaders: Record<string, string> = { ...extra, ...named };
          if (auth) requestHeaders.authorization = auth();
          const url = `${endpoint.path}${tail}${query ? `?${query}` : ''}`;
          const response = await app.inject({
            method: verb as 'GET',
            url,
            headers: requestHeaders,
          });
          const allowed = [
            ...endpoint.statuses,
            // A trailing slash redirects to the routed spelling, as Starlette does.
            ...(tail ? [404, 400, 307] : []),
            ...(verb !== 'GET' ? [405, 413, 415, 400] : []),
          ];
          expect(allowed, `${verb} ${url} -> ${response.statusCode} ${response.body}`).toContain(
            response.statusCode,
          );
          seen.add(response.statusCode);
          expect(response.headers['x-request-id']).toBeTruthy();
          if (response.statusCode === 307) {
            expect(response.headers.location).toContain(endpoint.path);
          } else if (response.statusCode !== 200 && verb !== 'HEAD') {
            const body = response.json();
            expect(Object.keys(body), `${url}: ${response.body}`).toEqual(['detail']);
          }
        },
      ),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 60),
        seed: Number(process.env.FUZZ_SEED ?? 20261123),
      },
    );
    // The inputs reach the handlers too, not only the authentication and validation layers.
    expect([...seen]).toContain(200);
    if (endpoint.statuses === PROTECTED) expect([...seen]).toContain(401);
    if (endpoint.params.length > 0) expect([...seen]).toContain(422);
  });
});
