/**
 * Requests Node's HTTP layer used to answer (or drop) on its own, a
 * request without `Host` and `CONNECT`, answer in the `{"detail": ...}` shape with the
 * x-request-id and security headers of every other answer. Raw TCP against a listening server.
 */
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { SECURITY_HEADERS } from '../../src/http/security.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

let store: ReadPort;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const demo = await demoStoreCopy([]);
  store = await openStore(demo.path);
  app = await buildApp({
    store,
    clock: createClock(DEMO_TODAY),
    config: configOf({
      RATE_LIMIT_MAX: '100',
      SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

interface RawResponse {
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection without answering. */
  empty: boolean;
}

/** Sends raw bytes, reads until the server closes (or goes quiet), parses one response. */
function rawRequest(text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    const quiet = setTimeout(() => socket.end(), 3000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(quiet);
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const head = split < 0 ? raw : raw.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({
        statusLine,
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: split < 0 ? '' : raw.slice(split + 4),
        empty: raw.length === 0,
      });
    });
  });
}

function expectOurHeaders(response: RawResponse): void {
  expect(response.headers['x-request-id'], response.statusLine).toMatch(/^[0-9a-f-]{36}$/);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers[name], name).toBe(value);
  }
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

describe('answers Node used to give on its own keep the detail shape and headers', () => {
  it('HTTP/1.1 without Host: 400 {"detail":"Bad Request"}, before routing and authentication', async () => {
    for (const path of ['/healthz', '/v1/user', '/nowhere']) {
      const response = await rawRequest(`GET ${path} HTTP/1.1\r\nAccept: */*\r\n\r\n`);
      expect(response.empty, path).toBe(false);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ detail: 'Bad Request' });
      expectOurHeaders(response);
      expect(response.headers.connection).toBe('close');
    }
  });

  it('HTTP/1.0 without Host is legal and answered normally', async () => {
    const health = await rawRequest('GET /healthz HTTP/1.0\r\n\r\n');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    expectOurHeaders(health);
    const unauthenticated = await rawRequest('GET /v1/user HTTP/1.0\r\n\r\n');
    expect(unauthenticated.status).toBe(401);
    expect(JSON.parse(unauthenticated.body)).toEqual({ detail: 'Not authenticated' });
    expectOurHeaders(unauthenticated);
    // The slash redirect has no host to name: it points at the path alone.
    const redirect = await rawRequest('GET /v1/user/ HTTP/1.0\r\n\r\n');
    expect(redirect.status).toBe(307);
    expect(redirect.headers.location).toBe('/v1/user');
  });

  it('CONNECT to an authority: 404 {"detail":"Not Found"}, the connection closed after it', async () => {
    const request = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n';
    const response = await rawRequest(request);
    expect(response.empty).toBe(false);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Not Found' });
    expectOurHeaders(response);
    expect(response.headers.connection).toBe('close');
    // Without Host it is an HTTP/1.1 request without Host, like any other.
    const hostless = await rawRequest('CONNECT example.com:443 HTTP/1.1\r\n\r\n');
    expect(hostless.status).toBe(400);
    expect(JSON.parse(hostless.body)).toEqual({ detail: 'Bad Request' });
    expectOurHeaders(hostless);
  });

  it('CONNECT to a routed path: 405 with Allow, as any other method the route lacks', async () => {
    const response = await rawRequest('CONNECT /v1/user HTTP/1.1\r\nHost: example.com\r\n\r\n');
    expect(response.status).toBe(405);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Method Not Allowed' });
    expect(response.headers.allow).toBe('GET');
    expectOurHeaders(response);
  });
});
