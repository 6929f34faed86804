/**
 * Saves a user's transactions as a file (CSV, NDJSON, Parquet or JSON), using the client types
 * generated from openapi.yaml (examples/generated/api.ts, by `npm run openapi`) with
 * openapi-fetch. The body is streamed to disk as it arrives, into `<file>.part`, renamed to
 * the file only once it arrived whole: a transfer the server cut short (the store failed
 * midway) leaves no file that looks complete.
 *
 *   API_BASE_URL=http://127.0.0.1:8000 API_TOKEN=pat_... npx tsx examples/export-transactions.ts \
 *     [--format csv|ndjson|parquet|json] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]
 *
 * Exit codes: 0 saved (or --help), 1 the API refused or the transfer failed, 2 wrong usage.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import { describeError, toolErrors } from './cli.ts';
import type { paths } from './generated/api.ts';

const FORMATS = ['csv', 'ndjson', 'parquet', 'json'] as const;
type Format = (typeof FORMATS)[number];

const HELP = `Usage: API_TOKEN=pat_... npx tsx examples/export-transactions.ts [--format FORMAT] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]

Saves the token owner's transactions, newest first, from GET /v2/users/transactions as a
file, streamed to disk as it arrives; prints where it saved them and how many bytes.

Options:
  --format FORMAT      csv (default), ndjson, parquet or json
  --from YYYY-MM-DD    first transaction date included (default: the first there is)
  --to YYYY-MM-DD      last transaction date included (default: the last there is)
  --out FILE           where to save the file (default: the name the API gives it, in the
                       current directory)
  -h, --help           show this help

Environment:
  API_TOKEN            personal access token (pat_...), required
  API_BASE_URL         the API's base URL (default: http://127.0.0.1:8000)

Exit codes: 0 saved, 1 the API refused, could not be reached or cut the transfer short (no
file is left then), 2 wrong usage.
`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const errors = toolErrors('export-transactions');
// Typed where declared, so TypeScript knows a call never returns.
const fail: (code: number, message: string) => never = errors.fail;
const usageError: (message: string) => never = errors.usageError;

/** The file name of `Content-Disposition: attachment; filename="..."` (the API's are plain). */
function attachmentName(header: string | null): string | null {
  return /filename="([A-Za-z0-9._-]+)"/.exec(header ?? '')?.[1] ?? null;
}

async function main(): Promise<void> {
  let values: { format?: string; from?: string; to?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        format: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const format = (values.format ?? 'csv') as Format;
  if (!FORMATS.includes(format)) {
    usageError(`--format must be one of ${FORMATS.join(', ')}, got '${values.format}'`);
  }
  for (const name of ['from', 'to'] as const) {
    const value = values[name];
    if (value !== undefined && !DATE.test(value)) {
      usageError(`--${name} must be a date as YYYY-MM-DD, got '${value}'`);
    }
  }
  if (values.out === '') usageError('--out must name a file');
  const token = process.env.API_TOKEN;
  if (!token) usageError('set API_TOKEN to a personal access token (pat_...)');
  const baseUrl = process.env.API_BASE_URL || 'http://127.0.0.1:8000';
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    usageError(
      `API_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000, got '${baseUrl}'`,
    );
  }

  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}` },
  });
  const { data, error, response } = await client.GET('/v2/users/transactions', {
    params: {
      query: {
        format,
        ...(values.from ? { transacted_at_from: values.from } : {}),
        ...(values.to ? { transacted_at_to: values.to } : {}),
      },
    },
    // The body as a stream, never whole in memory: a file may be hundreds of megabytes.
    parseAs: 'stream',
  });
  if (error !== undefined || !response.ok) fail(1, describeError(response.status, error));

  const path =
    values.out ??
    attachmentName(response.headers.get('content-disposition')) ??
    `transactions.${format}`;
  const partial = `${path}.part`;
  const body = data as ReadableStream<Uint8Array> | null | undefined;
  let bytes = 0;
  try {
    // No body at all: an empty file (NDJSON of no transactions).
    const source = body ? Readable.fromWeb(body) : Readable.from([]);
    source.on('data', (chunk: Uint8Array) => {
      bytes += chunk.length;
    });
    await pipeline(source, createWriteStream(partial));
  } catch (cause) {
    await rm(partial, { force: true });
    const reason = cause instanceof Error ? cause.message : String(cause);
    fail(1, `the transfer was cut short (${reason}): no file saved; try again`);
  }
  await rename(partial, path);
  process.stdout.write(`saved ${bytes} bytes of ${format} to ${path}\n`);
}

main().catch((error: unknown) => {
  fail(1, error instanceof Error ? error.message : String(error));
});
