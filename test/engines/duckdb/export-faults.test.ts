/**
 * The list's files when the store fails (docs/operations.md, "A list cut short"), on the DuckDB
 * engine over loopback: a failure before the first byte is a 503; one once the file has
 * started, or rows short of the count, cuts the body, compressed or not, so the client sees a
 * broken transfer and never a shorter file that looks whole; the next file is whole.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createClock } from '../../../src/clock.ts';
import { type DuckDbPort, openDuckDbPort } from '../../../src/engines/duckdb/port.ts';
import {
  LIST_CHUNK_ROWS,
  StoreUnavailableError,
  type TransactionFilters,
  type TransactionRecord,
} from '../../../src/port/read-port.ts';
import { get, judge } from '../../helpers/faults.ts';
import { bearer, DEMO_TODAY, DEMO_USERS, demoStoreCopy } from '../../helpers/server.ts';
import { DelegatingPort } from '../../helpers/store.ts';

describe('a file that fails once it has started', () => {
  let port: DuckDbPort;
  let token: string;
  /** How the next list's chunks go wrong. */
  let fault: 'none' | 'first' | 'middle' | 'short' = 'none';
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const demo = await demoStoreCopy(DEMO_USERS.slice(0, 1));
    token = demo.tokens[0] as string;
    port = await openDuckDbPort(demo.path);
    const faulty = new (class extends DelegatingPort {
      override transactionChunks(userId: string, filters: TransactionFilters) {
        const inner = port.transactionChunks(userId, filters);
        return (async function* (): AsyncGenerator<TransactionRecord[]> {
          let index = 0;
          for await (const chunk of inner) {
            if (fault === 'first' || (fault === 'middle' && index === 1)) {
              throw new StoreUnavailableError('Out of Memory Error: failed to pin block (test)');
            }
            // 'short': the store's rows end early, with no error.
            if (fault === 'short' && index === 1) return;
            yield chunk;
            index++;
          }
        })();
      }
    })(port);
    const app = await buildApp({ store: faulty, clock: createClock(DEMO_TODAY) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = async () => {
      await app.close();
      await port.close();
    };
  });
  afterAll(() => close?.());

  const file = (format: string, encoding?: string) =>
    get(`${baseUrl}/v2/users/transactions?format=${format}`, {
      ...bearer(token),
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    });

  it.each(['csv', 'ndjson', 'parquet'])(
    '%s: whole when nothing fails (more than a chunk), a 503 that is no file when the first read fails',
    async (format) => {
      fault = 'none';
      const whole = await file(format);
      expect([whole.status, whole.complete]).toEqual([200, true]);
      if (format === 'csv') {
        // A header row, then more rows than a chunk holds: the faults strike at the second.
        expect(whole.body.split('\r\n').length - 2).toBeGreaterThan(LIST_CHUNK_ROWS);
      }
      fault = 'first';
      expect(judge(await file(format), '')).toBe('unavailable');
      // An error answer, not a file: JSON, and nothing to save.
      const refused = await fetch(`${baseUrl}/v2/users/transactions?format=${format}`, {
        headers: bearer(token),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(refused.headers.get('content-disposition')).toBeNull();
    },
  );

  it.each([
    ['csv', 'middle', undefined],
    ['csv', 'middle', 'br'],
    ['csv', 'short', 'gzip'],
    ['ndjson', 'middle', 'gzip'],
    ['ndjson', 'short', undefined],
    ['parquet', 'middle', undefined],
    ['parquet', 'short', 'br'],
  ] as const)(
    '%s, a %s failure (%s): the body is cut, never complete',
    async (format, kind, encoding) => {
      fault = kind;
      const answer = await file(format, encoding);
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(false);
      expect(judge(answer, () => true)).toBe('cut');
      // The connection was dropped, the server was not: the next file is whole.
      fault = 'none';
      const next = await file(format, encoding);
      expect([next.status, next.complete]).toEqual([200, true]);
    },
  );
});
