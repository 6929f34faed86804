/** The logs never hold a token: not from the Authorization header, the query string, the path or any other header. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { loggerOptions } from '../../src/http/log-redaction.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

let store: ReadPort;
let token: string;
beforeAll(async () => {
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  token = demo.tokens[0] as string;
  store = await openStore(demo.path);
});
afterAll(() => store.close());

describe('log scan', () => {
  it('no request leaves a token in the logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      logger: { ...loggerOptions('trace'), stream },
      config: configOf({
        RATE_LIMIT_MAX: '1000',
        RATE_LIMIT_AUTH_FAILURES: '2',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      }),
    });
    const unknown = generateToken();
    const secrets = [token, unknown];
    const requests = [
      { url: '/v1/user', headers: { authorization: `Bearer ${token}` } },
      { url: '/v1/user', headers: { authorization: `bearer   ${token}` } },
      { url: `/v1/user?token=${token}` },
      { url: `/v1/user?access_token=${token}&x=${unknown}` },
      {
        url: `/v2/users/spending?group_by=${token}`,
        headers: { authorization: `Bearer ${token}` },
      },
      { url: `/${token}` },
      { url: `/v1/%E0%A4%A?token=${token}` },
      { url: '/v1/user', headers: { 'x-request-id': token } },
      { url: '/v1/user', headers: { cookie: `session=${token}` } },
      { url: '/v1/user', headers: { 'x-api-key': token, 'x-forwarded-for': token } },
      { url: '/v1/user', method: 'POST' as const, headers: { authorization: `Bearer ${token}` } },
      // Failed authentications last: the third one from this address is limited (429).
      { url: '/v1/user', headers: { authorization: token } },
      { url: '/v1/user', headers: { authorization: `Bearer ${unknown}` } },
      { url: '/v1/user', headers: { authorization: `Bearer ${unknown}` } },
    ];
    const statuses: number[] = [];
    for (const request of requests) {
      const response = await app.inject(request);
      statuses.push(response.statusCode);
      expect(response.headers['x-request-id']).not.toContain('pat_');
    }
    await app.close();
    // Authentication, validation, 404 (an undecodable path too), 405 and the failed-authentication
    // limit were all logged.
    expect(new Set(statuses)).toEqual(new Set([200, 401, 422, 404, 405, 429]));
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(requests.length);
    expect(text).toContain('pat_[redacted]');
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(4, 34));
    }
    expect(text).not.toMatch(/pat_[0-9A-Za-z]{8,}/);
  });
});
