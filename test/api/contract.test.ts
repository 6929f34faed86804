/**
 * Contract tests: every endpoint, with every status it documents that a test can provoke,
 * answers what openapi.yaml says (checked by ajv over the parsed document, not by zod).
 * The recorder (test/setup/contract-recorder.ts) checks every response of the whole suite
 * the same way; this file proves it is on and that it catches what it should.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { operationKey } from '../../src/http/openapi-document.ts';
import { StoreUnavailableError } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { ContractChecker, contractChecker, type ObservedResponse } from '../helpers/contract.ts';
import {
  buildDemoStore,
  DelegatingPort,
  mintTestToken,
  openStore,
  unusedPort,
} from '../helpers/store.ts';

const TODAY = '2026-11-20';
const USER = 'usr_jqhzo7mn41';

/** The demo store, or a store that is down (every call throws StoreUnavailableError). */
class SwitchableStore extends DelegatingPort {
  down = false;
  protected override read<T>(_method: string, run: () => Promise<T>): Promise<T> {
    return this.down ? Promise.reject(new StoreUnavailableError('store is down')) : run();
  }
}

/**
 * A valid query per operation, an invalid one for those that take a query, and an `Accept`
 * that none of its media types meets for those that negotiate one.
 */
const QUERIES: Record<string, { ok: string[]; invalid?: string; unacceptable?: string }> = {
  '/healthz': { ok: [''] },
  '/readyz': { ok: [''] },
  '/v1/user': { ok: [''] },
  '/v2/users/spending': {
    ok: [
      'group_by=category&time_period=month',
      'group_by=merchant&time_period=week&include_income=true',
      'group_by=time_period&time_period=month&secondary_group_by=category',
      'group_by=time_period&time_period=day&start_date=2026-11-02&end_date=2026-11-02',
      'group_by=category&time_period=year&start_date=2020-01-01&end_date=2020-12-31',
    ],
    invalid: 'group_by=vendor&time_period=month&include_income=maybe',
  },
  '/v1/users/spending': {
    ok: ['group_by=merchant&time_period=month', 'group_by=time_period&time_period=quarter'],
    invalid: 'group_by=category&time_period=month&categories=Groceries',
  },
  '/v2/users/transactions': {
    ok: [
      '',
      'page=2&page_size=10',
      'transacted_at_from=2026-11-01&page=99&page_size=500',
      'format=csv&page=1&page_size=10',
      'format=parquet&transacted_at_from=2026-11-01',
    ],
    invalid: 'page=0&page_size=9',
    unacceptable: 'image/png',
  },
  '/v2/users/transactions/{id}': { ok: [''] },
  '/v2/users/transactions/sync': { ok: ['', 'count=2'], invalid: 'count=0' },
  '/v1/links': { ok: ['', 'page=1&page_size=10'], invalid: 'page=x' },
  '/v1/users/balances': { ok: [''] },
  '/v1/users/balance-history': {
    ok: ['', 'time_period=week&start_date=2026-10-01'],
    invalid: 'start_date=2026-11-10&end_date=2026-11-01',
  },
  '/v1/users/income': { ok: ['', 'start_date=2025-08-21'], invalid: 'end_date=yesterday' },
  '/v1/users/liabilities': { ok: [''] },
  '/v2/users/recurring': { ok: ['', 'account_ids=acc_c91djv0subp9qu', 'link_id='] },
  '/v1/accounts': { ok: [''] },
  '/v1/categories': { ok: [''] },
};

/** Documented statuses no test can provoke here: checked by the document's tests only. */
/** The URL path of an operation whose path has parameters: the demo user's own transaction. */
const URL_PATHS: Record<string, string> = {
  '/v2/users/transactions/{id}': '/v2/users/transactions/txn_hdujbn8vlpyyux57fol1',
};

const NOT_PROVOKED = new Set([
  // The auth join rejects a token whose user vanished; the route's 404 guards a race.
  'GET /v1/user 404',
  // A cursor older than the kept change log needs change sets: test/api/transactions-sync.test.ts.
  'GET /v2/users/transactions/sync 410',
]);

describe('every endpoint answers as openapi.yaml says', () => {
  const checker = contractChecker();
  const covered = new Set<string>();
  let app: FastifyInstance;
  let store: SwitchableStore;
  let token: string;

  beforeAll(async () => {
    const databasePath = await buildDemoStore();
    token = await mintTestToken(databasePath, USER);
    store = new SwitchableStore(await openStore(databasePath));
    app = await buildApp({ store, clock: createClock(TODAY) });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  async function call(
    path: string,
    query: string,
    authorization?: string,
    extraHeaders: Record<string, string> = {},
    urlPath = URL_PATHS[path] ?? path,
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<ObservedResponse> {
    const url = query ? `${urlPath}?${query}` : urlPath;
    const response = await app.inject({
      method,
      url,
      headers: { ...(authorization ? { authorization } : {}), ...extraHeaders },
    });
    const observed = {
      method,
      path,
      url,
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
    };
    expect(checker.check(observed)).toEqual([]);
    covered.add(`${operationKey(method, path)} ${response.statusCode}`);
    return observed;
  }

  for (const [path, queries] of Object.entries(QUERIES)) {
    it(`${path}: 200, and every error it documents`, async () => {
      const bearer = `Bearer ${token}`;
      const isPublic = path === '/healthz' || path === '/readyz';
      for (const query of queries.ok) {
        const answer = await call(path, query, bearer);
        expect(answer.statusCode, query).toBe(200);
        if (isPublic) {
          // Probes answer HEAD as GET, without a body.
          const head = await call(path, query, undefined, {}, path, 'HEAD');
          expect([head.statusCode, head.body]).toEqual([200, '']);
        } else {
          const etag = String(answer.headers.etag);
          const again = await call(path, query, bearer, { 'if-none-match': etag });
          expect(again.statusCode, query).toBe(304);
          expect(again.body).toBe('');
        }
      }
      if (queries.invalid !== undefined) {
        expect((await call(path, queries.invalid, bearer)).statusCode).toBe(422);
      }
      if (queries.unacceptable !== undefined) {
        const answer = await call(path, '', bearer, { accept: queries.unacceptable });
        expect(answer.statusCode).toBe(406);
      }
      if (URL_PATHS[path]) {
        // Another user's transaction, or none: the same 404.
        const foreign = '/v2/users/transactions/txn_pkdov57884a9vppf823u';
        expect((await call(path, '', bearer, {}, foreign)).statusCode).toBe(404);
      }
      if (!isPublic) {
        expect((await call(path, '')).statusCode).toBe(401);
        expect((await call(path, '', 'Basic dXNlcjpwYXNz')).statusCode).toBe(401);
        expect((await call(path, '', `Bearer ${generateToken()}`)).statusCode).toBe(401);
        expect((await call(path, '', 'Bearer pat_short')).statusCode).toBe(401);
      }
      if (path !== '/healthz') {
        store.down = true;
        try {
          // A spending answer not asked before: a cached one would rightly still be served.
          const query = path.endsWith('/spending')
            ? `${queries.ok[0]}&min_total_amount=0.01`
            : (queries.ok[0] ?? '');
          expect((await call(path, query, bearer)).statusCode).toBe(503);
          if (isPublic) {
            expect((await call(path, query, undefined, {}, path, 'HEAD')).statusCode).toBe(503);
          }
        } finally {
          store.down = false;
        }
      }
    });
  }

  // The stream's 200 never ends by itself: its status, type and headers are checked as it
  // opens; its events, over a real server, by test/api/event-streams.test.ts.
  it('/v2/users/events: 200 as it opens, and every error it documents', async () => {
    const path = '/v2/users/events';
    const bearer = `Bearer ${token}`;
    const opened = await app.inject({
      url: path,
      headers: { authorization: bearer },
      payloadAsStream: true,
    });
    const observed = {
      method: 'GET',
      path,
      url: path,
      statusCode: opened.statusCode,
      headers: opened.headers,
      body: '',
    };
    expect(checker.check(observed)).toEqual([]);
    expect(opened.statusCode).toBe(200);
    covered.add(`${operationKey('GET', path)} 200`);
    opened.stream().destroy();
    expect((await call(path, '', bearer, { accept: 'application/json' })).statusCode).toBe(406);
    expect((await call(path, '')).statusCode).toBe(401);
    expect((await call(path, '', `Bearer ${generateToken()}`)).statusCode).toBe(401);
    store.down = true;
    try {
      expect((await call(path, '', bearer)).statusCode).toBe(503);
    } finally {
      store.down = false;
    }
  });

  // 429 needs a rate limit this app leaves off; 414 and 500 are provoked by the bounds and error
  // tests (test/api/abuse-limits.test.ts, test/api/errors.test.ts), 400 (HTTP/1.1 without Host, which
  // inject cannot send) over TCP by test/api/http-protocol.test.ts, 505 (an HTTP/2.0 request line)
  // over TCP by test/api/http-faults.test.ts; the recorder checks them all.
  it('covers every documented status but 400, 414, 429, 500 and 505', () => {
    const documented = Object.entries(
      checker.document.paths as Record<string, Record<string, { responses: object }>>,
    ).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        Object.keys(operation.responses).map((status) => `${operationKey(method, path)} ${status}`),
      ),
    );
    const missing = documented.filter(
      (pair) =>
        !covered.has(pair) && !NOT_PROVOKED.has(pair) && !/ (400|414|429|500|505)$/.test(pair),
    );
    expect(missing).toEqual([]);
  });

  it('unknown paths and methods answer in the ErrorDetail envelope', async () => {
    for (const [method, url, status] of [
      ['GET', '/v3/nothing', 404],
      ['POST', '/v2/users/spending', 405],
      ['DELETE', '/v1/links', 405],
    ] as const) {
      const response = await app.inject({ method, url });
      expect(response.statusCode, url).toBe(status);
      expect(checker.checkComponent('ErrorDetail', response.json())).toBeUndefined();
    }
  });
});

describe('the checker', () => {
  const checker = new ContractChecker();
  const spendingBody = {
    spending: { by_category: [], by_merchant: null, by_time_period: null },
    summary: {
      total_spending: '0.00',
      average_daily_spending: '0.00',
      average_monthly_spending: '0.00',
      total_transactions: 0,
      unique_merchants: 0,
      top_category: '',
      top_merchant: '',
    },
    request_id: 'r1',
    created_at: '2026-11-20T10:00:00.000Z',
  };
  const observed = (overrides: Partial<ObservedResponse>): ObservedResponse => ({
    method: 'GET',
    path: '/v2/users/spending',
    url: '/v2/users/spending?group_by=category&time_period=month',
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'r1',
      etag: 'W/"e"',
      'cache-control': 'private, no-cache',
    },
    body: JSON.stringify(spendingBody),
    ...overrides,
  });

  it('accepts a response that honours the document', () => {
    expect(checker.check(observed({}))).toEqual([]);
  });

  it('names the request, the status, the field and the value of a wrong body', () => {
    const body = { ...spendingBody, summary: { ...spendingBody.summary, total_spending: 12.5 } };
    const [problem] = checker.check(observed({ body: JSON.stringify(body) }));
    expect(problem).toContain(
      'GET /v2/users/spending?group_by=category&time_period=month answered 200',
    );
    expect(problem).toContain('body/summary/total_spending must be string');
    expect(problem).toContain('value 12.5');
    const missing = checker.check(observed({ body: JSON.stringify({ spending: {} }) }));
    expect(missing.join('\n')).toContain("must have required property 'summary'");
  });

  it('rejects an undocumented status, a missing header, another content type', () => {
    expect(checker.check(observed({ statusCode: 418 }))).toEqual([
      expect.stringContaining(
        'a status openapi.yaml does not document (documented: 200, 304, 400, 401',
      ),
    ]);
    expect(
      checker.check(
        observed({
          headers: {
            'content-type': 'application/json',
            etag: 'W/"e"',
            'cache-control': 'private, no-cache',
          },
        }),
      ),
    ).toEqual([expect.stringContaining('without the required header x-request-id')]);
    expect(
      checker.check(
        observed({
          headers: {
            'content-type': 'text/plain',
            'x-request-id': 'r1',
            etag: 'W/"e"',
            'cache-control': 'private, no-cache',
          },
          body: 'x',
        }),
      ),
    ).toEqual([expect.stringContaining('as text/plain, not application/json')]);
    expect(
      checker.check(
        observed({
          statusCode: 401,
          headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
          body: '{"detail":"Not authenticated"}',
        }),
      ),
    ).toEqual([expect.stringContaining('without the required header WWW-Authenticate')]);
  });

  it('checks decimal patterns and dates', () => {
    const body = {
      ...spendingBody,
      spending: {
        by_category: null,
        by_merchant: null,
        by_time_period: [
          {
            time_period: 'day',
            end_date: '2026-11-31',
            total_amount: '1e3',
            transaction_count: 1,
            average_transaction: '--1',
            percentage_of_total: '100.00',
            largest_transaction: { transaction_id: 't', amount: '1', date: 'x', description: '' },
            flow: 'spending',
          },
        ],
      },
    };
    const text = checker.check(observed({ body: JSON.stringify(body) })).join('\n');
    expect(text).toContain('by_time_period/0/average_transaction must match pattern');
    expect(text).toContain('by_time_period/0/total_amount must match pattern');
    expect(text).toContain('largest_transaction/date must match format "date"');
  });
});

describe('the recorder', () => {
  it('checks the responses of every app the suite builds', async () => {
    const app = await buildApp({ store: unusedPort() });
    const before = globalThis.contractResponsesChecked ?? 0;
    await app.inject('/healthz');
    await app.inject('/v1/user');
    await app.inject('/nowhere');
    expect((globalThis.contractResponsesChecked ?? 0) - before).toBe(3);
    await app.close();
  });
});
