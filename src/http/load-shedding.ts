import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendDetail } from './fastapi/detail.ts';

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over a sample; 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilisation (0-1) over a sample; 0 turns the check off. */
  maxEventLoopUtilization: number;
  maxHeapUsedBytes: number;
  maxRssBytes: number;
  sampleIntervalMs: number;
  retryAfterSeconds: number;
}

/**
 * Load shedding with @fastify/under-pressure: past a threshold every request answers at once
 * 503 `{"detail":"Service Unavailable"}` with `Retry-After`, instead of queueing until the
 * event loop drowns. The liveness probe is exempt (an overloaded process is alive: restarting
 * it would only lose capacity); the readiness probe sheds, which takes the instance out of a
 * load balancer until it recovers.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(async (app: FastifyInstance, options) => {
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxEventLoopUtilization: options.maxEventLoopUtilization,
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes: options.maxHeapUsedBytes,
    maxRssBytes: options.maxRssBytes,
    sampleInterval: options.sampleIntervalMs,
    pressureHandler: (request, reply, type, value) => {
      if (request.routeOptions.url === '/healthz') return undefined;
      request.log.warn({ type, value }, 'load shed');
      sendDetail(reply.header('retry-after', String(options.retryAfterSeconds)), 503);
      return undefined;
    },
  });
});
