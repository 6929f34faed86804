import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The query string as the router parsed it (Python's `parse_qsl`), before validation
     * replaced `query` with parsed values: what a 422's `input` echoes.
     */
    rawQuery: Record<string, string | string[]>;
  }
}

/** Keeps the router's parse of the query string beside the validated one. */
export const rawQueryPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('rawQuery', null as unknown as Record<string, string | string[]>);
  app.addHook('preValidation', async (request) => {
    request.rawQuery = (request.query ?? {}) as Record<string, string | string[]>;
  });
});

/** A parameter as sent: one string, every repeat in order, or null when absent. */
export function rawParameter(request: FastifyRequest, name: string): string | string[] | null {
  const value = request.rawQuery?.[name];
  if (value === undefined) return null;
  return Array.isArray(value) && value.length === 1 ? (value[0] as string) : value;
}

/** The value FastAPI validated for a scalar parameter: the last one sent, or null. */
export function lastRawValue(request: FastifyRequest, name: string): string | null {
  const value = rawParameter(request, name);
  return Array.isArray(value) ? (value.at(-1) ?? null) : value;
}
