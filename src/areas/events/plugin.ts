/**
 * `GET /v2/users/events`: the user's event stream (docs/api.md, "GET /v2/users/events"). A
 * request is authenticated and admitted as any; once its stream is open it holds no running
 * place and no generation (the hub writes to it from then on).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { presentedTokenHash } from '../../http/auth.ts';
import { sendDetail } from '../../http/fastapi/detail.ts';
import { EVENT_STREAM } from '../../http/openapi-document.ts';
import { ErrorDetail, protectedResponses } from '../../http/schemas.ts';
import { descent, servedGeneration } from '../../port/change-log.ts';
import type { ReadPort } from '../../port/read-port.ts';
import { changedFrame, EventHub, resetFrame } from './hub.ts';
import { EventStream, EventStreamHeaders } from './schemas.ts';
import {
  acceptsEventStream,
  EVENT_STREAM_TYPE,
  eventFrame,
  KEEP_ALIVE_FRAME,
  NOT_ACCEPTABLE_EVENTS,
  RECONNECT_MS,
  RETRY_FRAME,
} from './sse.ts';

export interface EventsOptions {
  perToken: number;
  max: number;
  keepAliveMs: number;
  lifetimeMs: number;
}

/**
 * The document's example: a client resuming after a change set, told of the next one, then of
 * a full rebuild.
 */
const EXAMPLE = [
  RETRY_FRAME,
  eventFrame({
    event: 'changed',
    data: {
      generation: '5f1c0ffee0ddba11',
      previous_generation: '0b7e9a4c2d316f58',
      transactions: { added: 3, modified: 1, removed: 0 },
      tables: ['transactions', 'balances'],
    },
  }),
  eventFrame({ event: 'ready', data: { generation: '5f1c0ffee0ddba11' } }),
  KEEP_ALIVE_FRAME,
  eventFrame({
    event: 'changed',
    data: {
      generation: '9a04d6e1b2c37f85',
      previous_generation: '5f1c0ffee0ddba11',
      transactions: { added: 0, modified: 0, removed: 1 },
      tables: ['accounts', 'transactions'],
    },
  }),
  eventFrame({ event: 'reset', data: { generation: 'c3e8f1a05d7b2946', reason: 'rebuild' } }),
].join('');

/** How often the open streams' tokens are checked: a revocation ends them within about this. */
const TOKEN_CHECK_MS = 1_000;

/** At shutdown, how long ended streams may take to reach their clients before they are cut. */
const END_GRACE_MS = 1_000;

/** `Retry-After` of a refused stream: the interval a client reconnects at. */
const RETRY_AFTER_S = String(RECONNECT_MS / 1000);

/**
 * What a stream opening on `port` tells first: nothing without `Last-Event-ID` (or with the
 * generation served); else one `changed` (or nothing when the user's data did not change) when
 * the change log leads from it, a `reset` when it does not.
 */
async function catchUp(
  port: ReadPort,
  userId: string,
  lastEventId: string | undefined,
): Promise<string[]> {
  if (lastEventId === undefined || lastEventId === port.generation) return [];
  const way = descent(lastEventId, port.sync);
  if ('reset' in way) return [resetFrame(port.generation, way.reset)];
  const [change] = await port.userChanges([userId], way.from, port.sync.seq);
  return change ? [changedFrame(lastEventId, port.generation, change)] : [];
}

export const eventsPlugin: FastifyPluginAsyncZod<EventsOptions> = async (app, options) => {
  const hub = new EventHub(app.store, {
    ...options,
    tokenCheckMs: TOKEN_CHECK_MS,
    log: app.log,
  });
  app.addHook('preClose', () => hub.close(END_GRACE_MS));

  app.get(
    '/v2/users/events',
    {
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream events',
        description:
          'Server-sent events telling when the user’s data changed: `changed` (with the sync feed’s counts and the user’s tables that changed), `reset` (the data does not descend from what the client knew: sync again without a cursor), `ready` once the stream is open. Each event’s `id` is a store generation; reconnect with it as `Last-Event-ID` to catch up. ' +
          '`Accept` must be absent or admit `text/event-stream` (406 otherwise). At most 4 open streams per token (429 past them) and a bound per server (503). A stream ends after an hour, when its token is revoked or expires, and on shutdown. Browsers’ `EventSource` cannot send the bearer token: read the stream with `fetch`.',
        tags: ['events'],
        headers: EventStreamHeaders,
        response: { 200: EventStream, 406: ErrorDetail, ...protectedResponses },
        [EVENT_STREAM]: { example: EXAMPLE },
      },
      config: { uncached: true },
    },
    async (request, reply) => {
      if (!acceptsEventStream(request.headers.accept)) {
        return sendDetail(reply, 406, NOT_ACCEPTABLE_EVENTS);
      }
      // Authenticated: the token is well formed.
      const place = hub.reserve(presentedTokenHash(request) as string);
      if (place === 'token' || place === 'process') {
        reply.header('retry-after', RETRY_AFTER_S);
        return sendDetail(reply, place === 'token' ? 429 : 503);
      }
      const { store, userId } = request;
      let body: ReturnType<typeof place.open>;
      try {
        // An empty header is no resume (EventSource sends none before an event had an id).
        const lastEventId = request.headers['last-event-id']?.trim() || undefined;
        body = place.open(
          userId,
          servedGeneration(store),
          await catchUp(store, userId, lastEventId),
        );
      } catch (error) {
        place.cancel();
        throw error;
      }
      reply
        .header('content-type', EVENT_STREAM_TYPE)
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        // The connection ends with the stream, whatever ends it. A client reconnects on a new
        // one, which a load balancer may send to another replica; and at shutdown no connection
        // is left idle once its stream ended (Node closes only the connections idle when the
        // drain starts: one whose stream ended a moment later would hold the drain until its
        // keep-alive timeout, past the grace).
        .header('connection', 'close');
      // Open: it goes at the pace of the generations, holding no running place.
      request.leaveRunning();
      reply.send(body as never);
      request.releaseStore();
      return reply;
    },
  );
};
