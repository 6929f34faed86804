import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { StoreUnavailableError } from '../store/store.ts';
import { isRequestValidationError } from './validation/index.ts';

/** FastAPI's error body: `{"detail": ...}` with the status phrase for plain HTTP errors. */
export function sendDetail(
  reply: FastifyReply,
  statusCode: number,
  detail?: unknown,
): FastifyReply {
  return reply.code(statusCode).send({ detail: detail ?? STATUS_CODES[statusCode] ?? 'Error' });
}

/** Errors that Fastify raises before routing (bad URL, over-long parameter) answer in our shape too. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const statusCode = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  reply.header('x-request-id', request.id);
  sendDetail(reply, statusCode);
}

/**
 * The error model of decisions.md: 404 and 405 (with `Allow`) from the router, 422 from request
 * validation, 503 when the store cannot answer, 500 with no internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const methods = methodsByPath.get(path) ?? methodsByPath.get(path.replace(/\/+$/, ''));
    if (methods && !methods.has(request.method)) {
      reply.header('allow', [...methods].sort().join(', '));
      return sendDetail(reply, 405);
    }
    return sendDetail(reply, 404);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isRequestValidationError(error)) return reply.code(422).send({ detail: error.detail });
    if (error instanceof StoreUnavailableError) {
      request.log.warn({ err: error }, 'store unavailable');
      return sendDetail(reply, 503);
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500) return sendDetail(reply, statusCode);
    request.log.error({ err: error }, 'unhandled error');
    return sendDetail(reply, 500);
  });
});
