/**
 * zod field builders for query strings that validate like FastAPI + pydantic v2.
 *
 * Each field is `z.preprocess(parse, doc)`: `parse` takes the raw Fastify value
 * (`string | string[] | undefined`), keeps the last value of a repeated scalar, runs the
 * pydantic parser and reports a failure as a custom issue whose `params` carry the pydantic
 * error (see `PydanticIssueParams`); `doc` receives the parsed value, and is what zod's JSON
 * Schema (io 'input') documents, so it states the parameter as FastAPI's OpenAPI does.
 *
 * Every scalar builder makes a required parameter unless given `{ optional: true }` (absent is
 * `undefined`) or `{ default }` (validated like a received value, as FastAPI does).
 */
import { z } from 'zod';
import {
  type IntBounds,
  type Parsed,
  type PydanticError,
  parseBool,
  parseBoundedInt,
  parseDate,
  parseDecimal,
  parseEnum,
  pyStrip,
} from './pydantic.ts';

/** `params` of the custom zod issue a field raises: the pydantic error, ready for `detail`. */
export interface PydanticIssueParams extends PydanticError {
  pydantic: true;
}

export function isPydanticIssueParams(params: unknown): params is PydanticIssueParams {
  return (
    typeof params === 'object' &&
    params !== null &&
    (params as { pydantic?: unknown }).pydantic === true &&
    typeof (params as { type?: unknown }).type === 'string' &&
    typeof (params as { msg?: unknown }).msg === 'string'
  );
}

/** The value FastAPI sees for a scalar: Starlette's `QueryParams.get` keeps the last one. */
export function lastValue(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return value === undefined || value === null ? undefined : String(value);
}

const MISSING: PydanticError = { type: 'missing', msg: 'Field required' };

interface CommonOptions {
  /** OpenAPI description of the parameter. */
  description?: string;
}

/** Absent parameter: required (FastAPI's `missing`), optional (`undefined`) or a default. */
type Presence<T> = { optional: true } | { default: T } | Record<never, never>;

type Documented<D extends z.ZodType, P> = P extends { optional: true }
  ? z.ZodOptional<D>
  : P extends { default: unknown }
    ? z.ZodDefault<D>
    : D;

export type QueryField<D extends z.ZodType> = z.ZodPreprocess<D>;

function field<T, D extends z.ZodType, P extends Presence<T>>(
  parse: (value: string) => Parsed<T>,
  doc: D,
  presence: P & CommonOptions,
  defaultDescription: string,
): QueryField<Documented<D, P>> {
  const required = !('optional' in presence) && !('default' in presence);
  let documented: z.ZodType = doc.meta({
    description: presence.description ?? defaultDescription,
  });
  if ('optional' in presence) documented = documented.optional();
  if ('default' in presence) documented = documented.default(presence.default as never);
  const schema = z.preprocess((raw, ctx) => {
    const value = lastValue(raw);
    if (value === undefined) {
      if (required)
        ctx.addIssue({
          code: 'custom',
          message: MISSING.msg,
          params: { ...MISSING, pydantic: true },
        });
      // `doc` fills the default, or lets an optional parameter stay undefined.
      return undefined;
    }
    const parsed = parse(value);
    if (parsed.ok) return parsed.value;
    const params: PydanticIssueParams = { ...parsed.error, pydantic: true };
    ctx.addIssue({ code: 'custom', message: parsed.error.msg, input: value, params });
    return undefined;
  }, documented);
  return schema as unknown as QueryField<Documented<D, P>>;
}

/** A `str` Enum (pydantic error `enum`). */
export function qEnum<
  const T extends readonly [string, ...string[]],
  P extends Presence<T[number]> = Record<never, never>,
>(values: T, options?: P & CommonOptions) {
  return field(
    (value) => parseEnum(value, values),
    z.enum(values as unknown as { [K in T[number]]: K }),
    options ?? ({} as P),
    `One of: ${values.join(', ')}`,
  );
}

/** A `datetime.date`, returned as `YYYY-MM-DD`. */
export function qDate<P extends Presence<string> = Record<never, never>>(
  options?: P & CommonOptions,
) {
  return field(
    parseDate,
    z.string().meta({ format: 'date' }),
    options ?? ({} as P),
    'Date (YYYY-MM-DD)',
  );
}

/** A `bool` with pydantic's words (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, ...). */
export function qBool<P extends Presence<boolean>>(options: P & CommonOptions) {
  return field(parseBool, z.boolean(), options, 'Boolean');
}

/** pydantic's JSON Schema for `Decimal` (validation mode). */
const DECIMAL_DOC = {
  anyOf: [{ type: 'number' }, { type: 'string', pattern: '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$' }],
};

/**
 * A `Decimal`, returned as Python's `str(Decimal)` (`"1E+3"`, `"50.10"`): an exact decimal
 * string for decimal.js, never a float. A default is normalized the same way.
 */
export function qDecimal<P extends Presence<string>>(options: P & CommonOptions) {
  let presence: Presence<string> & CommonOptions = options;
  if ('default' in options) {
    const parsed = parseDecimal(options.default);
    if (!parsed.ok) throw new Error(`qDecimal: invalid default ${options.default}`);
    presence = { ...options, default: parsed.value };
  }
  // z.any documents nothing but the metadata; the parser only ever hands it a string.
  const doc = z.any().meta(DECIMAL_DOC) as unknown as z.ZodType<string, string>;
  return field(parseDecimal, doc, presence as P & CommonOptions, 'Decimal number');
}

/** An `int` with pydantic's `ge`/`le` bounds, returned as a number. */
export function qInt<P extends Presence<number>>(options: IntBounds & P & CommonOptions) {
  const bounds: IntBounds = { ge: options.ge, le: options.le };
  const doc = z.number().meta({
    type: 'integer',
    ...(options.ge === undefined ? {} : { minimum: options.ge }),
    ...(options.le === undefined ? {} : { maximum: options.le }),
  });
  return field(
    (value) => {
      const parsed = parseBoundedInt(value, bounds);
      return parsed.ok ? { ok: true, value: Number(parsed.value) } : parsed;
    },
    doc,
    options,
    'Integer',
  );
}

/** A free `str`. */
export function qStr<P extends Presence<string> = Record<never, never>>(
  options?: P & CommonOptions,
) {
  return field((value) => ({ ok: true, value }), z.string(), options ?? ({} as P), 'String');
}

/**
 * Our extension, a comma-separated list: items trimmed (Python's `str.strip`), empty items
 * dropped, every occurrence of a repeated parameter merged. Never fails; absent is `[]`.
 */
export function qList(options: CommonOptions = {}) {
  // Documented as OpenAPI's repeatable parameter (an array, `form` style exploded: `a=x&a=y`),
  // each value a string that may hold a comma-separated list; optional there, yet always `[]`
  // or more here.
  const doc = z
    .any()
    .optional()
    .meta({
      type: 'array',
      items: { type: 'string' },
      description: options.description ?? 'Comma-separated list; repeatable',
    });
  return z
    .preprocess((raw) => {
      const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      return values
        .flatMap((value) => String(value).split(','))
        .map(pyStrip)
        .filter((item) => item !== '');
    }, doc)
    .pipe(z.transform((items) => items as string[]));
}

/** The `schema.querystring` object: fields in declaration order, unknown parameters ignored. */
export function queryObject<S extends z.ZodRawShape>(shape: S) {
  return z.object(shape);
}
