/**
 * The unpaginated transaction list is streamed: the bytes are what
 * the list's schema serializes, it is sent in chunks, and a client that goes away early
 * releases the store's connection.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionListResponse } from '../../src/areas/transactions/schemas.ts';
import {
  bearer,
  DEMO_TODAY,
  DEMO_USERS,
  demoStoreCopy,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server.ts';

let server: ServerProcess;
let tokens: string[];

beforeAll(async () => {
  const demo = await demoStoreCopy(DEMO_USERS.slice(0, 3));
  tokens = demo.tokens;
  // One connection: a stream that kept it would block every later request.
  server = await startServerProcess({
    DATABASE_PATH: demo.path,
    TODAY: DEMO_TODAY,
    DB_POOL_SIZE: '1',
    RATE_LIMIT_MAX: '0',
  });
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

function raw(
  url: string,
  token: string,
): Promise<{ status: number; chunks: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${url}`, { headers: bearer(token) }, (response) => {
      let chunks = 0;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        chunks++;
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, chunks, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the unpaginated list, streamed', () => {
  it('is byte for byte what the schema serializes, for every demo user', async () => {
    for (const token of tokens) {
      const { status, body, chunks } = await raw('/v2/users/transactions', token);
      expect(status).toBe(200);
      const parsed = JSON.parse(body);
      expect(body).toBe(JSON.stringify(TransactionListResponse.parse(parsed)));
      expect(parsed.count).toBe(parsed.transactions.length);
      // More than one chunk of rows reached the socket.
      expect(chunks).toBeGreaterThan(1);
      const dayCounts = new Map<string, number>();
      for (const t of parsed.transactions as { transacted_at: string }[]) {
        dayCounts.set(t.transacted_at, (dayCounts.get(t.transacted_at) ?? 0) + 1);
      }
      expect(
        (parsed.daily_totals as { date: string; count: number }[]).map((d) => [d.date, d.count]),
      ).toEqual([...dayCounts.entries()]);
    }
  });

  it('matches the paginated pages, joined', async () => {
    const token = tokens[0] as string;
    const whole = JSON.parse((await raw('/v2/users/transactions', token)).body);
    const pages: unknown[] = [];
    let url: string | null = '/v2/users/transactions?page_size=500';
    while (url) {
      const page = JSON.parse((await raw(url, token)).body);
      pages.push(...page.transactions);
      url = page.next;
    }
    expect(pages).toEqual(whole.transactions);
  });

  it('a client that leaves mid-stream frees the connection for the next request', async () => {
    const token = tokens[0] as string;
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const outgoing = request(
          `${server.url}/v2/users/transactions`,
          { headers: bearer(token) },
          (response) => {
            response.once('data', () => {
              outgoing.destroy();
              resolve();
            });
          },
        );
        outgoing.on('error', () => resolve());
        outgoing.end();
      });
    }
    const next = await raw('/v1/users/balances', token);
    expect(next.status).toBe(200);
  });
});
