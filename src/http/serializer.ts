/**
 * Response bodies written by fast-json-stringify (the serializer Fastify itself ships), compiled
 * once per route and status from the route's zod response schema, instead of zod encoding every
 * answer and JSON.stringify writing the copy. The bytes are the same as before: keys in the
 * schema's order, the other keys of a loose object after them in their own order, undefined
 * left out, strings escaped as JSON.stringify escapes them (test/setup/serialized-bodies.ts
 * holds every response the suites produce to that, and test/unit/serializer.test.ts every
 * response schema on generated values). What zod's encoding also checked on the way out
 * (patterns, enumerations, integers) is not checked per response any more: handlers are typed
 * against the schemas, and every response of the suites is checked against openapi.yaml.
 *
 * Only the shapes response schemas use are translated. Anything else (a transform, a codec, a
 * default, a strict object, a union of objects) is refused when the route is declared, so it
 * can never be written differently from what zod would write.
 */
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { $ZodType } from 'zod/v4/core';

/** The part of JSON Schema fast-json-stringify is given. */
interface WriterSchema {
  type?: string | string[];
  nullable?: true;
  properties?: Record<string, WriterSchema>;
  additionalProperties?: true | WriterSchema;
  items?: WriterSchema;
}

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'null']);

class UnsupportedSchemaError extends Error {}

function refuse(path: string, what: string): never {
  throw new UnsupportedSchemaError(`${path}: ${what} has no schema-compiled serialization`);
}

function primitiveOf(value: unknown, path: string): string {
  const type = value === null ? 'null' : typeof value;
  if (!PRIMITIVES.has(type)) refuse(path, `a literal of type ${type}`);
  return type;
}

/** One JSON type, or a nullable one, for a set of primitive types; several otherwise. */
function ofTypes(types: Set<string>): WriterSchema {
  const nullable = types.delete('null');
  const [only] = types;
  if (types.size === 0) return { type: 'null' };
  if (types.size === 1 && only) return nullable ? { type: only, nullable: true } : { type: only };
  return { type: [...types, ...(nullable ? ['null'] : [])] };
}

/**
 * `optional` is accepted only where zod's encoding and JSON.stringify leave an undefined out:
 * as an object's property (the caller passes `property`).
 */
function translate(schema: $ZodType, path: string, property = false): WriterSchema {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      // Integers are numbers: JSON.stringify writes both as String(n) does.
      return { type: def.type };
    case 'enum':
      return ofTypes(
        new Set(Object.values(def.entries as object).map((value) => primitiveOf(value, path))),
      );
    case 'literal':
      return ofTypes(new Set((def.values as unknown[]).map((value) => primitiveOf(value, path))));
    case 'nullable':
      return { ...translate(def.innerType as $ZodType, path, property), nullable: true };
    case 'optional':
      if (!property) refuse(path, 'an optional value outside an object');
      return translate(def.innerType as $ZodType, path, property);
    case 'array':
      return { type: 'array', items: translate(def.element as $ZodType, `${path}[]`) };
    case 'object':
      return object(def, path);
    case 'record': {
      const key = (def.keyType as $ZodType)._zod.def;
      if (key.type !== 'string' || (key.checks?.length ?? 0) > 0) refuse(path, 'a record key');
      return { type: 'object', additionalProperties: anyValue(def.valueType as $ZodType, path) };
    }
    case 'union': {
      const types = new Set<string>();
      for (const option of def.options as $ZodType[]) {
        const translated = translate(option, path);
        const optionTypes = [translated.type ?? 'any'].flat();
        if (optionTypes.some((type) => !PRIMITIVES.has(type)))
          refuse(path, 'a union of non-primitives');
        for (const type of optionTypes) types.add(type);
        if (translated.nullable) types.add('null');
      }
      return ofTypes(types);
    }
    case 'unknown':
    case 'any':
      // fast-json-stringify writes a value of no type with JSON.stringify.
      return {};
    default:
      return refuse(path, `a ${def.type}`);
  }
}

/** A value of any type, kept as it is, is `true` (JSON.stringify); else its schema. */
function anyValue(schema: $ZodType, path: string): true | WriterSchema {
  const translated = translate(schema, `${path}{}`);
  return Object.keys(translated).length === 0 ? true : translated;
}

function object(def: Record<string, unknown>, path: string): WriterSchema {
  const properties: Record<string, WriterSchema> = {};
  for (const [key, value] of Object.entries(def.shape as Record<string, $ZodType>)) {
    properties[key] = translate(value, `${path}.${key}`, true);
  }
  // No `required`: fast-json-stringify writes required keys before optional ones, where zod
  // kept the schema's order (an optional `trend` before a required `flow`).
  const written: WriterSchema = { type: 'object', properties };
  // z.object drops other keys, as a schema without additionalProperties does; z.looseObject
  // keeps them as they are (a catchall of unknown); z.strictObject refuses them (never).
  const catchall = def.catchall as $ZodType | undefined;
  if (catchall === undefined) return written;
  if (catchall._zod.def.type !== 'unknown') {
    refuse(path, `an object with a ${catchall._zod.def.type} catchall`);
  }
  return { ...written, additionalProperties: true };
}

/** The writer of one zod response schema: a function from the payload to its JSON text. */
export function compileWriter(schema: unknown, path = 'response'): (payload: unknown) => string {
  if (!(schema instanceof $ZodType)) refuse(path, 'a schema that is not a zod schema');
  const written = translate(schema, path);
  return fastJson(written as Parameters<typeof fastJson>[0]) as (payload: unknown) => string;
}

/**
 * Response schemas of bodies their routes write as streams (an event stream's events): they
 * describe the body to the document and are never serialized here.
 */
const streamed = new WeakSet<$ZodType>();

/** Marks `schema` as a streamed body's; returns it. */
export function streamedBody<T extends $ZodType>(schema: T): T {
  streamed.add(schema);
  return schema;
}

export const isStreamedBody = (schema: unknown): boolean =>
  schema instanceof $ZodType && streamed.has(schema);

/** Fastify's serializer compiler: one writer per route and status. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({
  schema,
  method,
  url,
  httpStatus,
}) => {
  const path = `${method} ${url} ${httpStatus}`;
  if (isStreamedBody(schema)) return () => refuse(path, 'a streamed body');
  return compileWriter(schema, path);
};
