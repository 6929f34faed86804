import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';

/** FastAPI's error body: `{"detail": ...}` with the status phrase for plain HTTP errors. */
export function sendDetail(
  reply: FastifyReply,
  statusCode: number,
  detail?: unknown,
): FastifyReply {
  return reply.code(statusCode).send({ detail: detail ?? STATUS_CODES[statusCode] ?? 'Error' });
}
