/**
 * Serialized bodies (a vitest setup file): every body a route's serializer writes during the
 * test suite (fast-json-stringify, compiled by src/http/serializer.ts) must be byte for byte
 * what the service wrote before, zod's encoding of the same payload written by JSON.stringify.
 * A body that differs, or a payload zod would have refused, fails the test that produced it.
 *
 * As in contract-recorder.ts, hooks are added to every new instance on the
 * `fastify.initialization` diagnostics channel, before any plugin: the payload is read in
 * `preSerialization`, the body the serializer made of it in `onSend`.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach } from 'vitest';
import { $ZodType, safeEncode } from 'zod/v4/core';

const problems: string[] = [];

declare global {
  /** Bodies compared so far in this test file (test/unit/serializer.test.ts reads it). */
  var serializedBodiesChecked: number | undefined;
  /** This file's channel subscriber, replaced when a worker runs the setup again. */
  var serializedBodiesSubscriber: ((message: unknown) => void) | undefined;
}
globalThis.serializedBodiesChecked = 0;

/** The bytes zod's encoding and JSON.stringify write, per request whose payload is serialized. */
const expected = new WeakMap<FastifyRequest, string>();

function responseSchema(request: FastifyRequest, reply: FastifyReply): $ZodType | undefined {
  const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  const schema = responses?.[reply.statusCode];
  return schema instanceof $ZodType ? schema : undefined;
}

function onInitialization(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('preSerialization', async (request, reply, payload) => {
    const schema = responseSchema(request, reply);
    if (!schema) return payload;
    const encoded = safeEncode(schema, payload);
    if (encoded.error) {
      problems.push(
        `${request.method} ${request.url} answered ${reply.statusCode} with a payload zod refuses: ${encoded.error.message}`,
      );
    } else {
      expected.set(request, JSON.stringify(encoded.data));
    }
    return payload;
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const bytes = expected.get(request);
    if (bytes === undefined) return payload;
    expected.delete(request);
    globalThis.serializedBodiesChecked = (globalThis.serializedBodiesChecked ?? 0) + 1;
    if (payload !== bytes) {
      const body = String(payload);
      let at = 0;
      while (at < body.length && body[at] === bytes[at]) at++;
      problems.push(
        `${request.method} ${request.url} answered ${reply.statusCode} with other bytes than zod's from character ${at}:\n` +
          `  written: ${body.slice(Math.max(0, at - 60), at + 60)}\n` +
          `  zod:     ${bytes.slice(Math.max(0, at - 60), at + 60)}`,
      );
    }
    return payload;
  });
}

// The channel is process-wide: a worker that runs several test files keeps one subscriber.
if (globalThis.serializedBodiesSubscriber) {
  unsubscribe('fastify.initialization', globalThis.serializedBodiesSubscriber);
}
globalThis.serializedBodiesSubscriber = onInitialization;
subscribe('fastify.initialization', onInitialization);

function failOnProblems(): void {
  if (problems.length === 0) return;
  const found = problems.splice(0);
  throw new Error(
    `${found.length} body(ies) differ from zod's encoding (src/http/serializer.ts):\n${found.join('\n')}`,
  );
}

afterEach(failOnProblems);
afterAll(failOnProblems);
