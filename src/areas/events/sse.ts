/**
 * The event stream's wire format (WHATWG HTML, "Server-sent events"): which requests may have
 * it, and its frames. A frame is complete on its own (it ends with a blank line), so frames
 * written one after another never mix.
 */
import Negotiator from 'negotiator';
import type { ChangedData, ReadyData, ResetData } from './schemas.ts';

export const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

/** What a client waits before it reconnects, sent first: the interval `retry` names. */
export const RECONNECT_MS = 5_000;

/** No `Accept`, an empty one, or one that admits the event stream (`*\/*` and `text/*` too). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaType(['text/event-stream']) !== undefined;
}

export const NOT_ACCEPTABLE_EVENTS =
  'Not Acceptable: events are served as text/event-stream (Accept)';

/** The stream's first frame: how long a client waits before reconnecting. */
export const RETRY_FRAME = `retry: ${RECONNECT_MS}\n\n`;

/** A comment, sent after a silence so that proxies and clients see the stream alive. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

type EventData =
  | { event: 'changed'; data: ChangedData }
  | { event: 'reset'; data: ResetData }
  | { event: 'ready'; data: ReadyData };

/**
 * One event: its name, its `id` (the generation it brings the client to, what the client
 * sends back as `Last-Event-ID`) and its data as one line of JSON.
 */
export function eventFrame({ event, data }: EventData): string {
  return `event: ${event}\nid: ${data.generation}\ndata: ${JSON.stringify(data)}\n\n`;
}
