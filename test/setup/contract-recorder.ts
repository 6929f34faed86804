/**
 * Contract recorder (a vitest setup file): every response an app of this service sends during
 * the test suite is checked against the committed openapi.yaml by ajv (test/helpers/contract.ts),
 * and a response that breaks the document fails the test that produced it, with the request,
 * the status and what is wrong.
 *
 * Fastify publishes each new instance on the `fastify.initialization` diagnostics channel;
 * an `onSend` hook added there, before any plugin, sees every response of every route,
 * the not-found handler's and the error handler's included.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach } from 'vitest';
import { contractChecker } from '../helpers/contract.ts';

/** The documentation's own routes (HTML, assets, the document itself). */
const DOCS_ROUTE = /^\/(docs(\/|$)|openapi\.(json|yaml)$)/;

const problems: string[] = [];

declare global {
  /** Responses checked so far in this test file (test/api/contract.test.ts reads it). */
  var contractResponsesChecked: number | undefined;
  /** This file's channel subscriber, replaced when a worker runs the setup again. */
  var contractRecorderSubscriber: ((message: unknown) => void) | undefined;
}
globalThis.contractResponsesChecked = 0;

function bodyText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

function record(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  // Only apps of this service (bare Fastify instances of unit tests have no clock).
  if (!request.server.hasDecorator('clock')) return;
  // A streamed body (the unpaginated transaction list) is not here to read: its own test
  // holds its bytes to the schema's serialization.
  if (payload instanceof Readable) return;
  const routePath = request.routeOptions.url;
  const requestPath = request.url.split('?', 1)[0] ?? '';
  if (DOCS_ROUTE.test(routePath ?? requestPath)) return;
  const checker = contractChecker();
  const body = bodyText(payload);
  const where = `${request.method} ${request.url} answered ${reply.statusCode}`;
  globalThis.contractResponsesChecked = (globalThis.contractResponsesChecked ?? 0) + 1;
  if (routePath !== undefined && checker.operation(request.method, routePath)) {
    problems.push(
      ...checker.check({
        method: request.method,
        path: routePath,
        url: request.url,
        statusCode: reply.statusCode,
        headers: reply.getHeaders(),
        body: body ?? '',
      }),
    );
    return;
  }
  // A route left out of the document on purpose (hidden, HEAD): nothing to hold it to.
  if (routePath !== undefined) return;
  // No route: the slash redirect (307 to the routed spelling, no body), the not-found handler
  // (404, 405) or a framework error, in the error envelope.
  if (reply.statusCode === 307) {
    if (!reply.getHeader('location')) problems.push(`${where} without a location`);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    problems.push(`${where} with a body that is not JSON: ${String(body).slice(0, 200)}`);
    return;
  }
  const problem = checker.checkComponent('ErrorDetail', parsed);
  if (reply.statusCode < 400 || problem) {
    problems.push(`${where}, outside any route, not as an ErrorDetail error:\n${problem ?? ''}`);
  }
}

function onInitialization(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onSend', async (request, reply, payload) => {
    record(request, reply, payload);
    return payload;
  });
}

// The channel is process-wide: a worker that runs several test files keeps one subscriber.
if (globalThis.contractRecorderSubscriber) {
  unsubscribe('fastify.initialization', globalThis.contractRecorderSubscriber);
}
globalThis.contractRecorderSubscriber = onInitialization;
subscribe('fastify.initialization', onInitialization);

function failOnProblems(): void {
  if (problems.length === 0) return;
  const found = problems.splice(0);
  throw new Error(
    `${found.length} response(s) break the contract in openapi.yaml ` +
      `(fix the code, or the schema and then \`npm run openapi\`):\n${found.join('\n')}`,
  );
}

afterEach(failOnProblems);
afterAll(failOnProblems);
