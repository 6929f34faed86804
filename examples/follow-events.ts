/**
 * Follows a user's event stream (GET /v2/users/events) and syncs on each event, as a client
 * that keeps a copy of the transactions would: on `ready` the first time (without a cursor
 * kept), on `changed`, and from nothing on `reset`; when the stream ends it reconnects with
 * the last event's id as `Last-Event-ID` and catches up. The events' types and the sync come
 * from the client types generated from openapi.yaml (examples/generated/api.ts) and
 * openapi-fetch.
 *
 * The stream is read with `fetch`, not the browsers' `EventSource`: EventSource cannot send an
 * `Authorization` header, and the API never reads a token from the URL.
 *
 *   API_BASE_URL=http://127.0.0.1:8000 API_TOKEN=pat_... npx tsx examples/follow-events.ts \
 *     [--cursor CURSOR] [--events N]
 *
 * Exit codes: 0 stopped (Ctrl-C, --events reached, or --help), 1 the API refused or could not
 * be reached, 2 wrong usage.
 */
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import { describeError, toolErrors } from './cli.ts';
import type { components, paths } from './generated/api.ts';

type Changed = components['schemas']['EventChanged'];
type Reset = components['schemas']['EventReset'];
type Ready = components['schemas']['EventReady'];

/** One frame of the stream: an event, a reconnection delay, or a comment (nothing to do). */
type Frame =
  | { event: 'changed'; id: string; data: Changed }
  | { event: 'reset'; id: string; data: Reset }
  | { event: 'ready'; id: string; data: Ready }
  | { retry: number }
  | null;

const HELP = `Usage: API_TOKEN=pat_... npx tsx examples/follow-events.ts [--cursor CURSOR] [--events N]

Follows the token owner's event stream (GET /v2/users/events) and syncs the transactions
(GET /v2/users/transactions/sync) on each event: once when the stream is first ready (from
--cursor, or from nothing), on every \`changed\` from the cursor kept, and from nothing on
\`reset\`. Prints a line per event and per sync. Reconnects when the stream ends, with the
last event's id as Last-Event-ID, so nothing is missed. Stop it with Ctrl-C.

Options:
  --cursor CURSOR   a sync cursor kept from before (default: sync from nothing)
  --events N        stop after N changed or reset events (default: never)
  -h, --help        show this help

Environment:
  API_TOKEN         personal access token (pat_...), required
  API_BASE_URL      the API's base URL (default: http://127.0.0.1:8000)

Exit codes: 0 stopped, 1 the API refused or could not be reached, 2 wrong usage.
`;

const errors = toolErrors('follow-events');
// Typed where declared, so TypeScript knows a call never returns.
const fail: (code: number, message: string) => never = errors.fail;
const usageError: (message: string) => never = errors.usageError;

const say = (line: string) => process.stdout.write(`${line}\n`);

/** A frame's lines (WHATWG: `field: value`, a line starting with `:` a comment). */
function parseFrame(block: string): Frame {
  const fields = new Map<string, string>();
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
  }
  const retry = fields.get('retry');
  if (retry !== undefined) return { retry: Number(retry) };
  const event = fields.get('event');
  const data = fields.get('data');
  if (event === undefined || data === undefined) return null;
  return { event, id: fields.get('id') ?? '', data: JSON.parse(data) } as Frame;
}

/** The frames of a response body as they arrive. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true }).replaceAll('\r\n', '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      yield parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  let values: { cursor?: string; events?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        cursor: { type: 'string' },
        events: { type: 'string' },
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
  const limit = values.events === undefined ? Number.POSITIVE_INFINITY : Number(values.events);
  if (!Number.isSafeInteger(limit) && limit !== Number.POSITIVE_INFINITY) {
    usageError(`--events must be a whole number, got '${values.events}'`);
  }
  if (limit < 1) usageError(`--events must be at least 1, got '${values.events}'`);
  const token = process.env.API_TOKEN;
  if (!token) usageError('set API_TOKEN to a personal access token (pat_...)');
  const baseUrl = process.env.API_BASE_URL || 'http://127.0.0.1:8000';
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    usageError(
      `API_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000, got '${baseUrl}'`,
    );
  }
  const authorization = `Bearer ${token}`;
  const client = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });

  let cursor: string | null = values.cursor ?? null;
  /** Syncs from the cursor kept (none: from nothing), page after page; keeps the next one. */
  const sync = async (why: string): Promise<void> => {
    let added = 0;
    let modified = 0;
    let removed = 0;
    const from = cursor === null ? 'from nothing' : 'from the cursor kept';
    for (let more = true, next = cursor; more; ) {
      const answer = await client.GET('/v2/users/transactions/sync', {
        params: { query: { count: 500, ...(next === null ? {} : { cursor: next }) } },
      });
      if (answer.response.status === 410 && next !== null) {
        // The store's history no longer leads from the cursor: start over.
        cursor = null;
        return sync(`${why}, the cursor gone`);
      }
      if (answer.error || !answer.data)
        fail(1, describeError(answer.response.status, answer.error));
      added += answer.data.added.length;
      modified += answer.data.modified.length;
      removed += answer.data.removed.length;
      next = answer.data.next_cursor;
      more = answer.data.has_more;
      if (!more) cursor = next;
    }
    say(`  synced ${from} (${why}): ${added} added, ${modified} modified, ${removed} removed`);
  };

  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  let lastEventId: string | null = null;
  let retryMs = 5_000;
  let synced = false;
  let told = 0;
  while (!stop.signal.aborted) {
    let response: Response;
    try {
      response = await fetch(new URL('/v2/users/events', baseUrl), {
        headers: {
          Authorization: authorization,
          Accept: 'text/event-stream',
          ...(lastEventId === null ? {} : { 'Last-Event-ID': lastEventId }),
        },
        signal: stop.signal,
      });
    } catch (error) {
      if (stop.signal.aborted) break;
      fail(1, `the API could not be reached: ${error instanceof Error ? error.message : error}`);
    }
    if (response.status === 429 || response.status === 503) {
      // Too many streams of this token, or a full server: wait as told.
      const wait = Number(response.headers.get('retry-after') ?? 5) * 1000;
      say(`refused (${response.status}): trying again in ${wait / 1000} s`);
      await response.body?.cancel();
      await sleep(wait);
      continue;
    }
    if (response.status !== 200 || !response.body) {
      fail(1, describeError(response.status, await response.json().catch(() => undefined)));
    }
    try {
      for await (const frame of frames(response.body)) {
        if (frame === null) continue;
        if ('retry' in frame) {
          retryMs = frame.retry;
          continue;
        }
        lastEventId = frame.id;
        if (frame.event === 'ready') {
          say(`ready at ${frame.data.generation}`);
          if (!synced) await sync('first');
          synced = true;
          continue;
        }
        if (frame.event === 'changed') {
          const { added, modified, removed } = frame.data.transactions;
          say(
            `changed ${frame.data.previous_generation} -> ${frame.data.generation} ` +
              `(${frame.data.tables.join(', ')}): ${added} added, ${modified} modified, ${removed} removed`,
          );
          await sync('changed');
        } else {
          say(`reset at ${frame.data.generation} (${frame.data.reason})`);
          cursor = null;
          await sync('reset');
        }
        synced = true;
        told++;
        if (told >= limit) {
          stop.abort();
          break;
        }
      }
    } catch (error) {
      if (stop.signal.aborted) break;
      say(`stream cut: ${error instanceof Error ? error.message : error}`);
    }
    if (stop.signal.aborted) break;
    say(`stream ended: reconnecting in ${retryMs / 1000} s with Last-Event-ID ${lastEventId}`);
    await sleep(retryMs);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => fail(1, error instanceof Error ? error.message : String(error)),
);
