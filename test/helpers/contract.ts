/**
 * Checks responses against the committed openapi.yaml with an independent validator (ajv,
 * JSON Schema 2020-12 as OpenAPI 3.1 uses it), never with the zod schemas that produced them:
 * the status must be documented for the operation, the body must match that status's schema,
 * the content type must be documented and the required headers present.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const OPENAPI_PATH = resolve(import.meta.dirname, '../../openapi.yaml');
const DOCUMENT_ID = 'https://finance-api.invalid/openapi.yaml';

type Json = Record<string, unknown>;

interface Operation {
  responses?: Record<string, Json>;
}

export interface ObservedResponse {
  method: string;
  /** The route's path (its pattern), or the request path when no route matched. */
  path: string;
  /** The request URL, for messages. */
  url: string;
  statusCode: number;
  headers: Record<string, unknown>;
  /** The raw body as sent. */
  body: string;
}

/** `/` → `~1`, as JSON Pointer wants. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export class ContractChecker {
  readonly document: Json;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(documentText: string = readFileSync(OPENAPI_PATH, 'utf8')) {
    this.document = parse(documentText) as Json;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...this.document, $id: DOCUMENT_ID });
  }

  operation(method: string, path: string): Operation | undefined {
    const paths = this.document.paths as Record<string, Record<string, Operation>>;
    return paths[path]?.[method.toLowerCase()];
  }

  /** The ajv validator of a schema inside the document, by JSON Pointer. */
  private validator(schemaPointer: string): ValidateFunction {
    let validate = this.validators.get(schemaPointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${schemaPointer}` });
      this.validators.set(schemaPointer, validate);
    }
    return validate;
  }

  /** Problems of a response of a documented operation; empty when it honours the document. */
  check(observed: ObservedResponse): string[] {
    const operation = this.operation(observed.method, observed.path);
    if (!operation) return [`${observed.method} ${observed.path} is not in openapi.yaml`];
    const status = String(observed.statusCode);
    const response = operation.responses?.[status];
    const where = `${observed.method} ${observed.url} answered ${status}`;
    if (!response) {
      const documented = Object.keys(operation.responses ?? {}).join(', ');
      return [`${where}, a status openapi.yaml does not document (documented: ${documented})`];
    }
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const resolved = this.resolve(header);
      if (resolved.required === true && observed.headers[name.toLowerCase()] === undefined) {
        problems.push(`${where} without the required header ${name}`);
      }
    }
    const content = (response.content ?? {}) as Record<string, Json>;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return problems;
    const contentType =
      String(observed.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    if (!mediaTypes.includes(contentType)) {
      problems.push(
        `${where} as ${contentType || 'no content type'}, not ${mediaTypes.join(', ')}`,
      );
      return problems;
    }
    // A file (CSV, NDJSON, Parquet): its own tests read it; only JSON bodies have a schema here.
    if (contentType !== 'application/json') return problems;
    let body: unknown;
    try {
      body = JSON.parse(observed.body);
    } catch {
      problems.push(`${where} with a body that is not JSON: ${observed.body.slice(0, 200)}`);
      return problems;
    }
    const schemaPointer = [
      'paths',
      observed.path,
      observed.method.toLowerCase(),
      'responses',
      status,
      'content',
      contentType,
      'schema',
    ]
      .map(pointer)
      .join('/');
    const validate = this.validator(`/${schemaPointer}`);
    if (!validate(body)) {
      problems.push(
        `${where} with a body openapi.yaml rejects:\n${describe(validate.errors, body)}`,
      );
    }
    return problems;
  }

  /** Checks a body against a component schema (`ErrorDetail`, ...). */
  checkComponent(name: string, body: unknown): string | undefined {
    const validate = this.validator(`/components/schemas/${pointer(name)}`);
    return validate(body) ? undefined : describe(validate.errors, body);
  }

  private resolve(node: Json): Json {
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    let target: unknown = this.document;
    for (const segment of ref.slice(2).split('/')) {
      target = (target as Json)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    return target as Json;
  }
}

/** ajv's errors as lines: where in the body, what is wrong, and the offending value. */
function describe(errors: ErrorObject[] | null | undefined, body: unknown): string {
  return (errors ?? [])
    .slice(0, 10)
    .map((error) => {
      const at = error.instancePath || '(root)';
      const value = valueAt(body, error.instancePath);
      const shown = JSON.stringify(value)?.slice(0, 120);
      return `  - body${at === '(root)' ? '' : at} ${error.message} (schema ${error.schemaPath}; value ${shown})`;
    })
    .join('\n');
}

function valueAt(body: unknown, instancePath: string): unknown {
  let value = body;
  for (const segment of instancePath.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Json)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

let shared: ContractChecker | undefined;

/** One checker per test process, over the committed openapi.yaml. */
export function contractChecker(): ContractChecker {
  shared ??= new ContractChecker();
  return shared;
}
