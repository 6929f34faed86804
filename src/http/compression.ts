/**
 * Response compression negotiated from `Accept-Encoding` (@fastify/compress): brotli or gzip
 * for bodies over 1 KB (a transaction list, a year of balance history, Swagger UI's bundle),
 * with `Vary: Accept-Encoding`. Brotli at quality 4: dynamic JSON is compressed on every
 * request, and past 4 the CPU cost climbs steeply for a few percent of size.
 */

import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
});
