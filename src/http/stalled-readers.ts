/**
 * A client that stops reading is cut: a connection with bytes waiting to be sent that has
 * taken none of them for STALLED_READER_MS is reset, whatever its response (an export of
 * 300,000 rows, an event stream). Its response ends cut short, as a store failure midway cuts
 * it (docs/operations.md): the client sees an unfinished body, never a complete one. A reader
 * that takes bytes, however slowly, is not cut; a response waiting for the store has no bytes
 * waiting, so it is not cut either (QUERY_TIMEOUT_MS bounds that wait).
 *
 * Node's own idle timeout (CONNECTION_TIMEOUT_MS) is not enough: it is reset by every write
 * the response makes into its buffers, so two stalled readers of an export held their places
 * for over two minutes.
 *
 * Progress is what the kernel takes: the bytes queued in the socket (Node's buffer and libuv's
 * queue) going down, or new bytes written once they drained. One timer for every connection.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface StalledReaderOptions {
  /** How long a connection may keep bytes waiting without the client taking any; 0: never cut. */
  stalledReaderMs: number;
  /** Called once per connection cut (a fault to log, bounded). */
  onCut?: (socket: Socket) => void;
}

interface Watched {
  /** Bytes waiting to be sent at the last look. */
  waiting: number;
  /** Bytes handed to the socket by the last look (growing: new writes were taken). */
  written: number;
  /** When the waiting bytes last went down (or the first were queued). */
  since: number;
}

/** The bytes a socket still holds to send: Node's buffer and libuv's write queue. */
function waitingBytes(socket: Socket): number {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } })._handle;
  return socket.writableLength + (handle?.writeQueueSize ?? 0);
}

export const stalledReadersPlugin = fp<StalledReaderOptions>(
  async (app: FastifyInstance, options) => {
    const limit = options.stalledReaderMs;
    if (limit <= 0) return;
    const sockets = new Map<Socket, Watched>();
    app.server.on('connection', (socket: Socket) => {
      sockets.set(socket, { waiting: 0, written: 0, since: 0 });
      socket.once('close', () => sockets.delete(socket));
    });
    const look = () => {
      const now = Date.now();
      for (const [socket, watched] of sockets) {
        const waiting = waitingBytes(socket);
        const written = socket.bytesWritten;
        if (waiting === 0) {
          watched.waiting = 0;
          watched.written = written;
          continue;
        }
        // Bytes waiting: progress is fewer of them, or more written since (they drained and
        // the response wrote on).
        if (watched.waiting === 0 || waiting < watched.waiting || written > watched.written) {
          watched.since = now;
        } else if (now - watched.since >= limit) {
          sockets.delete(socket);
          options.onCut?.(socket);
          // A reset, not a close: the kernel would otherwise keep the megabytes already queued
          // for a peer that never reads them, and the client sees its answer cut at once.
          socket.resetAndDestroy();
          continue;
        }
        watched.waiting = waiting;
        watched.written = written;
      }
    };
    const timer = setInterval(look, Math.max(50, Math.min(1000, limit / 10)));
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
);
