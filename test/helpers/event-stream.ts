/**
 * A client of GET /v2/users/events for the suites: opens the stream with fetch (a bearer
 * token, as EventSource cannot send), parses its frames as WHATWG's parser would (fields per
 * line, a blank line ends a frame) and hands them out in order.
 */

/** One frame: an event (with its id and parsed data), a `retry`, or a comment. */
export interface Frame {
  event?: string;
  id?: string;
  data?: unknown;
  retry?: number;
  comment?: string;
}

export interface OpenedStream {
  status: number;
  headers: Headers;
  /** Every frame so far, in order. */
  frames: Frame[];
  /** The next event (comments and `retry` passed over) not taken yet, within `timeoutMs`. */
  nextEvent(timeoutMs?: number): Promise<Frame>;
  /** The next frame of any kind not taken yet. */
  nextFrame(timeoutMs?: number): Promise<Frame>;
  /** Resolves when the server ended the stream: `clean` when the body ended whole. */
  ended: Promise<'clean' | 'cut'>;
  /** The body when the answer is not a stream (an error). */
  text(): Promise<string>;
  close(): void;
}

function parseFrame(block: string): Frame {
  const frame: Frame = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') frame.event = value;
    else if (field === 'id') frame.id = value;
    else if (field === 'data') frame.data = JSON.parse(value);
    else if (field === 'retry') frame.retry = Number(value);
  }
  return frame;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string>,
): Promise<OpenedStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const frames: Frame[] = [];
  let taken = 0;
  let waiter: (() => void) | undefined;
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const ended = (async (): Promise<'clean' | 'cut'> => {
    if (!isStream || !response.body) return 'clean';
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        waiter?.();
      }
      return 'clean';
    } catch {
      return 'cut';
    } finally {
      waiter?.();
    }
  })();
  let done = false;
  void ended.then(() => {
    done = true;
  });
  const next = async (wanted: (frame: Frame) => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (taken < frames.length) {
        const frame = frames[taken++] as Frame;
        if (wanted(frame)) return frame;
      }
      if (done) throw new Error(`the stream ended; frames: ${JSON.stringify(frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms: ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    frames,
    nextEvent: (timeoutMs = 20_000) => next((frame) => frame.event !== undefined, timeoutMs),
    nextFrame: (timeoutMs = 20_000) => next(() => true, timeoutMs),
    ended,
    text: () => response.text(),
    close: () => abort.abort(),
  };
}
