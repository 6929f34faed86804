/** Native HTTPS with TLS_CERT_FILE / TLS_KEY_FILE, against a certificate made here. */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { type RunningServer, readTlsFiles, startServer } from '../../src/server.ts';
import { configOf, DEMO_TODAY, demoStoreCopy, selfSignedCertificate } from '../helpers/server.ts';

let server: RunningServer;
let cert: string;
let token: string;

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolveResponse, reject) => {
    const request = send(url, { headers, ca: cert, timeout: 5000 }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolveResponse({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.end();
  });
}

beforeAll(async () => {
  const { keyFile, certFile } = selfSignedCertificate();
  cert = readFileSync(certFile, 'utf8');
  const demo = await demoStoreCopy(['usr_jqhzo7mn41']);
  token = demo.tokens[0] as string;
  server = await startServer(
    configOf({
      DATABASE_PATH: demo.path,
      PORT: '0',
      LOG_LEVEL: 'silent',
      TODAY: DEMO_TODAY,
      TLS_CERT_FILE: certFile,
      TLS_KEY_FILE: keyFile,
    }),
  );
});
afterAll(() => server?.close());

describe('HTTPS', () => {
  it('serves the API over TLS, verified against the generated certificate, with HSTS', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const response = await get(`${server.url}/v1/user`, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).id).toBe('usr_jqhzo7mn41');
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const health = await get(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('does not answer plain HTTP on the TLS port', async () => {
    const plain = server.url.replace('https:', 'http:');
    await expect(get(`${plain}/healthz`)).rejects.toThrow();
  });

  it('a certificate file that cannot be read stops start-up naming the variable', () => {
    expect(() =>
      readTlsFiles(configOf({ TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/x' })),
    ).toThrow(ConfigError);
    expect(() =>
      readTlsFiles(configOf({ TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/x' })),
    ).toThrow(/TLS_CERT_FILE="\/nonexistent\/cert.pem"/);
  });

  it('without TLS files the server speaks plain HTTP (behind a terminating proxy)', () => {
    expect(readTlsFiles(configOf({}))).toBeNull();
  });
});
