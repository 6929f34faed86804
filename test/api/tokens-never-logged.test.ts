/**
 * The logs never hold a token: not from the Authorization header, the query string, the path
 * or any other header; not in a URL however it is spelled (any letter case, any character
 * percent-encoded in either hex case, next to `+`); not behind a mangled prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { buildLoggedApp } from '../helpers/logged-app.ts';
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

const hex = (char: string, upper: boolean) => {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? code.toUpperCase() : code}`;
};
/** Every character percent-encoded, in lower- or upper-case hex. */
const encodeAll = (text: string, upper: boolean) =>
  [...text].map((char) => hex(char, upper)).join('');
/** Every other character percent-encoded, hex case alternating. */
const encodeSome = (text: string) =>
  [...text].map((char, i) => (i % 2 === 0 ? char : hex(char, i % 4 === 1))).join('');
/** Letter case flipped on every other character. */
const flipCase = (text: string) =>
  [...text].map((char, i) => (i % 2 === 0 ? char.toUpperCase() : char.toLowerCase())).join('');

/** What a URL decoder (or a person reading the log) makes of a text, decoded to a fixed point. */
function decodeFully(text: string): string {
  let current = text.replaceAll('+', ' ');
  for (;;) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_, code: string) =>
      String.fromCharCode(Number.parseInt(code, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

describe('tokens never reach the logs', () => {
  it('from the Authorization header, the query string, the path or any other header', async () => {
    const { app, lines, text } = await buildLoggedApp('trace', {
      store,
      clock: createClock(DEMO_TODAY),
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
    const log = text();
    expect(lines.length).toBeGreaterThan(requests.length);
    expect(log).toContain('pat_[redacted]');
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(4, 34));
    }
    expect(log).not.toMatch(/pat_[0-9A-Za-z]{8,}/);
  });

  it('in a URL, percent-encoded, upper-case or mixed, in the path and the query', async () => {
    const { app, lines, text } = await buildLoggedApp('info', {
      store,
      clock: createClock(DEMO_TODAY),
      config: configOf({
        RATE_LIMIT_MAX: '0',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      }),
    });
    const tokens = Array.from({ length: 14 }, () => generateToken());
    const spell = (i: number, f: (token: string) => string) => f(tokens[i] as string);
    const body = (token: string) => token.slice(4);
    const spellings = [
      spell(0, (t) => `pat%5F${body(t)}`),
      spell(1, (t) => `pat%5f${body(t)}`),
      spell(2, (t) => `%70at_${body(t)}`),
      spell(3, (t) => `PAT_${body(t)}`),
      spell(4, (t) => flipCase(t)),
      spell(5, (t) => encodeAll(t, false)),
      spell(6, (t) => encodeAll(t, true)),
      spell(7, (t) => encodeSome(t)),
      spell(8, (t) => `${encodeAll('PAT_', true)}${encodeSome(body(t))}`),
      spell(9, (t) => `%50a%54%5f${body(t)}`),
      // Encoded twice: a log reader decoding once more must not find it either.
      spell(10, (t) => `%2570at_${body(t)}`),
    ];
    const urls = [
      ...spellings.map((spelling) => `/v1/user?token=${spelling}`),
      ...spellings.map((spelling) => `/${spelling}`),
      `/v1/user?q=a+${tokens[11]}+b&r=+${encodeAll(tokens[12] as string, false)}+`,
      `/v1/users/spending?group_by=${flipCase(tokens[13] as string)}&x=1`,
    ];
    for (const url of urls) await app.inject({ url });
    await app.close();

    const log = text();
    const logged = lines
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url): url is string => url !== undefined);
    expect(logged.length).toBeGreaterThanOrEqual(urls.length);
    for (const url of logged) {
      const decoded = decodeFully(url).toLowerCase().replaceAll('pat_[redacted]', '');
      expect(decoded, url).not.toMatch(/pat_[0-9a-z]/);
    }
    const decodedLog = decodeFully(log).toLowerCase();
    for (const token of tokens) {
      const secret = body(token).toLowerCase();
      expect(decodedLog).not.toContain(secret.slice(0, 10));
      expect(decodedLog).not.toContain(secret.slice(-10));
    }
    expect(log).toContain('pat_[redacted]');
  });

  it('behind a mangled prefix, in the URL and in x-request-id', async () => {
    const { app, text } = await buildLoggedApp('debug', {
      store,
      clock: createClock(DEMO_TODAY),
    });
    const secret = generateToken().slice(4);
    const spellings = [
      `pat-${secret}`,
      `pat%EF%BC%BF${secret}`,
      `PAT.${secret}`,
      `p%61t-${secret.slice(0, 18)}%${secret.charCodeAt(18).toString(16)}${secret.slice(19)}`,
      secret,
    ];
    for (const spelling of spellings) {
      const response = await app.inject({
        url: `/v1/user?token=${spelling}`,
        headers: { 'x-request-id': `pat-${secret}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-request-id']).not.toContain(secret);
    }
    await app.close();
    const log = text();
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice(0, 30));
    expect(log).not.toContain(secret.slice(6));
  });
});
