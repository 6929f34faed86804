/**
 * Response compression negotiated from `Accept-Encoding` (@fastify/compress): brotli or gzip
 * for bodies over 1 KB (a transaction list, a year of balance history, Swagger UI's bundle),
 * with `Vary: Accept-Encoding`. Brotli at quality 4: dynamic JSON is compressed on every
 * request, and past 4 the CPU cost climbs steeply for a few percent of size.
 *
 * What is compressed: JSON, NDJSON, CSV and other text (COMPRESSIBLE), and what mime-db calls
 * compressible. Never a Parquet file: its pages are compressed already, and its type is
 * neither.
 */

import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** @fastify/compress's own list of compressible types, and NDJSON (which mime-db lacks). */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|(?:\+|\/)(?:x-nd)?json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/;

export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(compress, {
    global: true,
    threshold: 1024,
    customTypes: COMPRESSIBLE,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
});
