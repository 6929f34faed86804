/**
 * The interface description: OpenAPI 3.1 as generated from the routes' zod schemas
 * (@fastify/swagger + fastify-type-provider-zod), finished with what the schemas cannot say
 * (info, tags, security, response descriptions and headers, other media types, examples). No
 * Fastify at run time here: the docs plugin serves the result, `npm run openapi` writes it to
 * openapi.yaml.
 */
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { SYNC_GONE } from './errors.ts';

export type Json = Record<string, unknown>;

/** One recorded example: the request that produced it and the response body. */
export interface RecordedExample {
  summary: string;
  value: unknown;
}
/** Examples per operation (`operationKey`), status and name; recorded by `npm run openapi`. */
export type DocumentExamples = Record<string, Record<string, Record<string, RecordedExample>>>;

export const EXAMPLES_FILE = new URL('./openapi-examples.yaml', import.meta.url);

/** `"GET /v2/users/spending"`: the key of an operation's examples. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

let committedExamples: DocumentExamples | undefined;
/** The committed examples; none before `npm run openapi` first wrote them. */
export function loadExamples(): DocumentExamples {
  if (!committedExamples) {
    let text = '{}';
    try {
      text = readFileSync(EXAMPLES_FILE, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    committedExamples = (parse(text) ?? {}) as DocumentExamples;
  }
  return committedExamples;
}

/**
 * A route schema's other media types for its 200 answer, negotiated from `Accept` (a map of
 * media type to media object, in the document's terms): the document lists them after
 * `application/json`, with `Vary` and `Content-Disposition`.
 */
export const ALTERNATIVE_CONTENT = 'x-alternative-content';

declare module 'fastify' {
  interface FastifySchema {
    [ALTERNATIVE_CONTENT]?: Record<string, { schema: Record<string, unknown> }>;
  }
}

/**
 * A route whose 200 is an event stream (`text/event-stream`), with an example of it: the zod
 * schema of its 200 describes the events in order; the document serves the 200 as text of that
 * media type holding them, never revalidated.
 */
export const EVENT_STREAM = 'x-event-stream';

declare module 'fastify' {
  interface FastifySchema {
    [EVENT_STREAM]?: { example: string };
  }
}

/** FastAPI's security scheme name for HTTPBearer. */
export const SECURITY_SCHEME = 'HTTPBearer';

export const INFO = {
  title: 'Personal Finance Read-Only API',
  version: '1.0.0',
  description: [
    'Read-only access to one user’s financial data: profile, transactions, spending analysis,',
    'balances and balance history, income, liabilities and account links.',
    '',
    'Every request acts for the user who owns the presented personal access token',
    '(`Authorization: Bearer pat_...`). Money amounts, percentages and trends are decimal',
    'strings; dates are ISO 8601 `YYYY-MM-DD`. Errors are `{"detail": ...}` bodies as FastAPI',
    'sends them; invalid query parameters answer 422 with pydantic’s validation errors.',
    'Every response carries an `x-request-id` header.',
  ].join('\n'),
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};

const TAGS = [
  { name: 'user', description: 'The token owner’s profile' },
  { name: 'spending', description: 'Spending analysis' },
  { name: 'recurring', description: 'Recurring streams: subscriptions, bills, pay' },
  { name: 'transactions', description: 'Transactions and daily totals' },
  { name: 'events', description: 'A stream telling when the user’s data changed' },
  { name: 'links', description: 'Connected institutions and payroll providers' },
  { name: 'accounts', description: 'Accounts and their latest balances' },
  { name: 'categories', description: 'The category taxonomy' },
  { name: 'balances', description: 'Balances, net worth and their history' },
  { name: 'income', description: 'Payroll and transaction income' },
  { name: 'liabilities', description: 'Credit and loan liabilities' },
  { name: 'operations', description: 'Probes for orchestrators (no authentication)' },
];

const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  '200': 'Successful Response',
  '304':
    'Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy',
  '400': 'Bad Request: an HTTP/1.1 request without a `Host` header',
  '401':
    'Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked ' +
    'or expired token (`Invalid authentication credentials`)',
  '404': 'Not Found',
  '406':
    'Not Acceptable: `Accept` names none of the media types the answer is served in (they are listed in the detail)',
  '414': 'URI Too Long: the URL exceeds the server’s limit',
  '422': 'Validation Error',
  '429': 'Too Many Requests: retry after the `Retry-After` seconds',
  '500': 'Internal Server Error: a bug on our side, never with internals in the body',
  '503': 'The data store is unavailable, the server is overloaded or shutting down; retry later',
  '505': 'HTTP Version Not Supported: the request line names a version other than HTTP/1.x',
};

const stringHeader = (description: string) => ({
  description,
  required: true,
  schema: { type: 'string' },
});

/** Response headers, as `components.headers`; each is sent on every response that lists it. */
const HEADERS: Record<string, Json> = {
  RequestId: stringHeader(
    'The request id: the caller’s own `x-request-id` when it is safe to echo, else a new UUID',
  ),
  WWWAuthenticate: stringHeader('`Bearer`, or `Bearer error="invalid_token"` for a bad token'),
  RetryAfter: {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Deprecation: stringHeader(
    'RFC 9745: when the endpoint was deprecated, `@` and Unix seconds (`@1767225600`: 2026-01-01)',
  ),
  Sunset: stringHeader(
    'RFC 8594: when the endpoint goes away, an HTTP-date (`Wed, 30 Jun 2027 23:59:59 GMT`)',
  ),
  Link: stringHeader('The successor: `</v2/users/spending>; rel="successor-version"`'),
  ETag: stringHeader(
    'Weak entity tag of the answer: the same for the same user, query, day and data; send it back in `If-None-Match` to get 304 while nothing changed',
  ),
  StoreGeneration: {
    description:
      'The store generation the answer was computed from (the data as one build or change set published it; `/readyz` names the current one): on every answer to an authenticated request. A new value means new data, and new ETags',
    required: false,
    schema: { type: 'string' },
  },
  ContentDisposition: {
    description:
      '`attachment; filename="..."` when the answer is a file (any media type but `application/json`): the name to save it under',
    required: false,
    schema: { type: 'string' },
  },
  VaryAccept: stringHeader(
    'Names `Accept` (and `accept-encoding` when compressed): the media type served depends on it',
  ),
  CacheControl: stringHeader(
    '`private, no-cache` on an authenticated answer (keep it, revalidate before use, never in a shared cache); `no-store` on everything else',
  ),
  CacheControlNoStore: stringHeader('`no-store`: an event stream is never kept'),
  AccelBuffering: stringHeader(
    '`no`: a proxy that buffers answers (nginx) passes each event on as it comes',
  ),
  RetryAfterUnavailable: {
    description:
      'Seconds to wait before retrying: the server is overloaded, or the store (or the shard holding the user) cannot answer now',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitLimit: {
    description:
      'Requests allowed per window for this token (per address without one), when rate limiting is on',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window, when rate limiting is on',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the window resets, when rate limiting is on',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
};
/** A caller's own request id, echoed in `x-request-id` (src/http/request-id.ts). */
const REQUEST_ID_PARAMETER = {
  in: 'header',
  name: 'x-request-id',
  required: false,
  description:
    'Your own request id, echoed in the `x-request-id` response header (and in a spending ' +
    'body’s `request_id`); a missing or unsafe one is replaced by a new UUID',
  // The pattern of requestIdFor's SAFE_REQUEST_ID (test/unit/openapi.test.ts holds them together).
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

function responseHeaders(
  status: string,
  operation: {
    deprecated: boolean;
    authenticated: boolean;
    negotiated: boolean;
    streamed: boolean;
  },
): Json {
  const { deprecated, authenticated, negotiated, streamed } = operation;
  const revalidated = authenticated && !streamed && (status === '200' || status === '304');
  return {
    'x-request-id': headerRef('RequestId'),
    ...(negotiated && (status === '200' || status === '304')
      ? { Vary: headerRef('VaryAccept') }
      : {}),
    ...(negotiated && status === '200'
      ? { 'Content-Disposition': headerRef('ContentDisposition') }
      : {}),
    ...(status === '401' ? { 'WWW-Authenticate': headerRef('WWWAuthenticate') } : {}),
    ...(status === '429' ? { 'Retry-After': headerRef('RetryAfter') } : {}),
    ...(status === '503' ? { 'Retry-After': headerRef('RetryAfterUnavailable') } : {}),
    ...(revalidated ? { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') } : {}),
    ...(streamed && status === '200'
      ? {
          'Cache-Control': headerRef('CacheControlNoStore'),
          'X-Accel-Buffering': headerRef('AccelBuffering'),
        }
      : {}),
    // Decided once the token is known: not on what is answered before (400, 401, 414, 429).
    ...(authenticated && !['400', '401', '414', '429'].includes(status)
      ? { 'X-Store-Generation': headerRef('StoreGeneration') }
      : {}),
    ...(authenticated
      ? {
          'RateLimit-Limit': headerRef('RateLimitLimit'),
          'RateLimit-Remaining': headerRef('RateLimitRemaining'),
          'RateLimit-Reset': headerRef('RateLimitReset'),
        }
      : {}),
    ...(deprecated && status === '200'
      ? {
          Deprecation: headerRef('Deprecation'),
          Sunset: headerRef('Sunset'),
          Link: headerRef('Link'),
        }
      : {}),
  };
}

/** Examples of the error bodies that do not depend on data. */
const ERROR_EXAMPLES: Record<string, unknown> = {
  '400': { detail: 'Bad Request' },
  '401': { detail: 'Not authenticated' },
  '404': { detail: 'Not Found' },
  '410': { detail: SYNC_GONE },
  '414': { detail: 'URI Too Long' },
  '429': { detail: 'Too Many Requests' },
  '500': { detail: 'Internal Server Error' },
  '503': { detail: 'Service Unavailable' },
  '505': { detail: 'HTTP Version Not Supported' },
};

type Operations = Record<string, Record<string, Json>>;

/**
 * Sets every JSON response's examples: the recorded ones (`examples`, named), else the fixed
 * error body of its status, else none. Replaces whatever examples were there.
 */
export function applyExamples(document: Json, examples: DocumentExamples): void {
  for (const [path, operations] of Object.entries((document.paths ?? {}) as Operations)) {
    for (const [method, operation] of Object.entries(operations)) {
      const recorded = examples[operationKey(method, path)] ?? {};
      for (const [status, response] of Object.entries(
        (operation.responses ?? {}) as Record<string, Json>,
      )) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (!media) continue;
        delete media.example;
        delete media.examples;
        const named = recorded[status];
        if (named && Object.keys(named).length > 0) media.examples = named;
        else if (ERROR_EXAMPLES[status] !== undefined) media.example = ERROR_EXAMPLES[status];
      }
    }
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** zod's `z.int()` bounds (±2^53-1) say nothing to a client: drop them, keep real ones. */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const result: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' && value === -MAX_SAFE) || (key === 'maximum' && value === MAX_SAFE))
      continue;
    result[key] = withoutSafeIntegerBounds(value);
  }
  return result;
}

/** The schema components reachable from `root`, in their original order. */
function reachableSchemas(
  root: unknown,
  schemas: Record<string, unknown>,
): Record<string, unknown> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string'
          ? value.match(/^#\/components\/schemas\/(.+)$/)?.[1]
          : undefined;
      if (name !== undefined && !seen.has(name)) {
        seen.add(name);
        visit(schemas[name]);
      } else visit(value);
    }
  };
  visit(root);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => seen.has(name)));
}

/**
 * A HEAD operation (a route documented with `config.swagger.exposeHeadRoute`), from the GET one
 * @fastify/swagger copies: its statuses and headers, no body; `headLiveness` for
 * `getLiveness-head`.
 */
function headOperation(generated: Json): Json {
  const responses = Object.fromEntries(
    Object.entries((generated.responses ?? {}) as Record<string, Json>).map(
      ([status, { content: _body, ...response }]) => [status, response],
    ),
  );
  return {
    ...generated,
    operationId: String(generated.operationId).replace(/^get(.*)-head$/, 'head$1'),
    description: 'As GET, with the same status and headers, without a body.',
    responses,
  };
}

/**
 * What the zod schemas cannot say, added to the generated document: info, tags, the bearer
 * security scheme (every operation but the public ones), response descriptions, headers
 * and examples. Components that no operation uses (zod's `*Input` twins) are dropped.
 * Deterministic: the same routes and examples give the same document.
 */
export function finishDocument(generated: Json, examples: DocumentExamples): Json {
  const document = withoutSafeIntegerBounds(generated) as Json;
  const paths = (document.paths ?? {}) as Operations;
  for (const operations of Object.values(paths)) {
    for (const [method, generatedOperation] of Object.entries(operations)) {
      const operation: Json =
        method === 'head' ? headOperation(generatedOperation) : { ...generatedOperation };
      operation.parameters = [
        ...((operation.parameters as unknown[] | undefined) ?? []),
        { $ref: '#/components/parameters/RequestId' },
      ];
      operations[method] = operation;
      // Public operations (probes) declare `security: []`; the rest authenticate.
      const authenticated = !Array.isArray(operation.security);
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const stream = operation[EVENT_STREAM] as { example: string } | undefined;
      delete operation[EVENT_STREAM];
      const streamed = stream !== undefined;
      if (authenticated && !streamed) {
        operation.responses = { '200': responses['200'], '304': {}, ...responses };
      }
      const alternatives = operation[ALTERNATIVE_CONTENT] as Json | undefined;
      delete operation[ALTERNATIVE_CONTENT];
      const ok = responses['200'];
      if (alternatives && ok) ok.content = { ...(ok.content as Json), ...alternatives };
      if (stream && ok) {
        // The body is text; what it holds, decoded, is the events in order (JSON Schema's
        // contentSchema), so a validator checks the text and a reader finds the events' types.
        const { 'application/json': events } = ok.content as Record<string, Json>;
        const { description, ...decoded } = (events?.schema ?? {}) as Json;
        ok.content = {
          'text/event-stream': {
            schema: {
              type: 'string',
              description,
              contentMediaType: 'text/event-stream',
              contentSchema: decoded,
            },
            example: stream.example,
          },
        };
      }
      const negotiated = alternatives !== undefined;
      for (const [status, response] of Object.entries(
        (operation.responses ?? {}) as Record<string, Json>,
      )) {
        response.description = RESPONSE_DESCRIPTIONS[status] ?? response.description;
        response.headers = responseHeaders(status, {
          deprecated: operation.deprecated === true,
          authenticated,
          negotiated,
          streamed,
        });
      }
    }
  }
  const components = (document.components ?? {}) as Json;
  const finished: Json = {
    openapi: document.openapi,
    info: INFO,
    tags: TAGS,
    servers: [{ url: '/', description: 'The host serving this document' }],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    components: {
      schemas: reachableSchemas(paths, (components.schemas ?? {}) as Record<string, unknown>),
      parameters: { RequestId: REQUEST_ID_PARAMETER },
      headers: HEADERS,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal access token: `pat_` followed by 36 base62 characters, issued in the ' +
            'web application under Settings > API keys.',
        },
      },
    },
  };
  applyExamples(finished, examples);
  return finished;
}

/** The document as openapi.yaml holds it. */
export function documentToYaml(document: unknown): string {
  return stringify(document, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false });
}
