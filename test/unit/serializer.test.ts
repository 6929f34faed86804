/**
 * The schema-compiled serializer (src/http/serializer.ts) writes, for every response schema of
 * every route, the bytes zod's encoding followed by JSON.stringify wrote: on values generated
 * from the schemas (any string, escapes and lone surrogates included; keys in any order; the
 * other keys of loose objects; optional keys absent or undefined), on the app's own answers
 * (test/setup/serialized-bodies.ts, checked here to be on), and it refuses the schema shapes it
 * cannot write the same way.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fc from 'fast-check';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type $ZodType, safeEncode } from 'zod/v4/core';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { compileWriter, isStreamedBody } from '../../src/http/serializer.ts';
import { buildDemoStore, mintTestToken, openStore } from '../helpers/store.ts';

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

/** Any string a store or a user may hold, with the characters JSON must escape. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', 'é', 'a') }),
);

const json: fc.Arbitrary<unknown> = fc.jsonValue();

/**
 * A key our code may give an object: any string but `__proto__`. An own `__proto__` key only
 * arises from Object.fromEntries or JSON.parse of foreign input, which no body is built from;
 * on one, the writer writes it (as JSON.stringify does) while zod's encoding drops it (it
 * copies keys by assignment, which sets the prototype instead).
 */
const anyKey = anyString.filter((key) => key !== '__proto__');

/** Values the schema accepts (generated from its definition, kept when zod agrees). */
function valuesOf(schema: $ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      // A pattern of the schema (a decimal, a date), else any string; kept when zod agrees.
      const checks = ((def.checks ?? []) as $ZodType[]).map((check) => defOf(check));
      const pattern = [def.pattern, ...checks.map((check) => check.pattern)].find(
        (candidate) => candidate instanceof RegExp,
      ) as RegExp | undefined;
      // fast-check cannot generate lookaheads (the decimal's): without them, zod filters.
      const strings = pattern
        ? fc.stringMatching(new RegExp(pattern.source.replace(/\(\?[!=][^)]*\)/g, '')))
        : anyString;
      return strings.filter((value) => !safeEncode(schema, value).error);
    }
    case 'number':
      return def.format === 'safeint'
        ? fc.maxSafeInteger()
        : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as object));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'nullable':
      return fc.oneof(fc.constant(null), valuesOf(def.innerType as $ZodType));
    case 'optional':
      return valuesOf(def.innerType as $ZodType);
    case 'array':
      return fc.array(valuesOf(def.element as $ZodType), { maxLength: 4 });
    case 'union':
      return fc.oneof(...(def.options as $ZodType[]).map(valuesOf));
    case 'record':
      return fc.dictionary(anyKey, valuesOf(def.valueType as $ZodType), { maxKeys: 4 });
    case 'unknown':
    case 'any':
      return json;
    case 'object':
      return objectsOf(def);
    default:
      throw new Error(`no generator for a ${def.type}`);
  }
}

function objectsOf(def: Def): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape as Record<string, $ZodType>;
  const keys = Object.keys(shape);
  const entries = keys.map((key) => {
    const schema = shape[key] as $ZodType;
    const value = valuesOf(schema);
    // An optional key: absent, present as undefined, or given.
    return schema._zod.optout === 'optional'
      ? fc.option(fc.oneof(fc.constant(undefined), value), { nil: Symbol.for('absent') })
      : value;
  });
  const loose = def.catchall !== undefined;
  const others = loose
    ? fc.dictionary(
        anyKey.filter((key) => !keys.includes(key)),
        fc.oneof(json, fc.constant(undefined)),
        { maxKeys: 3 },
      )
    : fc.constant({});
  return fc
    .tuple(fc.tuple(...entries), others, fc.infiniteStream(fc.nat()))
    .map(([values, extra, order]) => {
      const declared: [string, unknown][] = [];
      keys.forEach((key, index) => {
        if (values[index] !== Symbol.for('absent')) declared.push([key, values[index]]);
      });
      // Keys in any order: the writer, like zod, follows the schema's.
      const all = [...declared, ...Object.entries(extra)];
      const shuffled = all
        .map((entry) => ({ entry, rank: order.next().value as number }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ entry }) => entry);
      return Object.fromEntries(shuffled);
    });
}

const zodBytes = (schema: $ZodType, value: unknown) => {
  const encoded = safeEncode(schema, value);
  return encoded.error ? undefined : JSON.stringify(encoded.data);
};

/** Every route's response schemas, as the app declares them, but a streamed body's (never serialized). */
async function routeSchemas(): Promise<[string, $ZodType][]> {
  const routes: RouteOptions[] = [];
  const onInitialization = (message: unknown) =>
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      routes.push(route);
    });
  subscribe('fastify.initialization', onInitialization);
  const app = await buildApp({ store: await openStore(await buildDemoStore()) });
  unsubscribe('fastify.initialization', onInitialization);
  await app.close();
  return routes.flatMap((route) =>
    Object.entries((route.schema?.response ?? {}) as Record<string, $ZodType>)
      .filter(([, schema]) => !isStreamedBody(schema))
      .map(([status, schema]): [string, $ZodType] => [
        `${route.method} ${route.url} ${status}`,
        schema,
      ]),
  );
}

describe('the schema-compiled serializer', () => {
  let schemas: [string, $ZodType][];
  beforeAll(async () => {
    schemas = await routeSchemas();
  });

  it('writes zod’s bytes for every response schema of every route, on generated values', () => {
    expect(schemas.length).toBeGreaterThan(40);
    for (const [name, schema] of schemas) {
      const write = compileWriter(schema, name);
      fc.assert(
        fc.property(valuesOf(schema), (value) => {
          const expected = zodBytes(schema, value);
          fc.pre(expected !== undefined);
          expect(write(value), name).toBe(expected);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('keeps the schema’s key order where an optional key comes before a required one', () => {
    const schema = z.looseObject({
      a: z.string(),
      trend: z.string().nullable().optional(),
      flow: z.string(),
    });
    const value = { flow: 'spending', extra: 1, trend: null, a: 'x' };
    expect(compileWriter(schema)(value)).toBe('{"a":"x","trend":null,"flow":"spending","extra":1}');
    expect(compileWriter(schema)(value)).toBe(zodBytes(schema, value));
  });

  it.each([
    ['a transform', z.string().transform((value) => value.length)],
    ['a default', z.object({ a: z.string().default('x') })],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])],
    ['an optional array item', z.array(z.string().optional())],
    ['a date', z.date()],
  ])('refuses %s rather than write it otherwise than zod', (_name, schema) => {
    expect(() => compileWriter(schema)).toThrow(/has no schema-compiled serialization/);
  });
});

describe('the app’s answers', () => {
  let app: FastifyInstance;
  let token: string;
  beforeAll(async () => {
    const path = await buildDemoStore();
    token = await mintTestToken(path, 'usr_jqhzo7mn41');
    app = await buildApp({ store: await openStore(path), clock: createClock('2026-11-20') });
  });
  afterAll(() => app.close());

  it('are each compared with zod’s encoding of their payload (test/setup/serialized-bodies.ts)', async () => {
    const before = globalThis.serializedBodiesChecked ?? 0;
    for (const url of [
      '/v1/user',
      '/v2/users/transactions?page=1&page_size=10',
      '/v1/links',
      '/v1/accounts',
      '/v1/categories',
      '/v1/users/balances',
      '/v1/users/balance-history',
      '/v1/users/income',
      '/v1/users/liabilities',
      '/v2/users/transactions?page=0',
    ]) {
      const response = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode, url).toBeLessThan(500);
    }
    expect((globalThis.serializedBodiesChecked ?? 0) - before).toBe(10);
  });
});
