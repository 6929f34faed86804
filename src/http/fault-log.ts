/**
 * Expected faults (the store unavailable, a list cut short, not ready) are logged as one line
 * without a stack, and each kind once per interval: a fault that fails every request (a
 * coordinator down, a damaged store file) writes a line, then one a interval with how many
 * occurrences it left out, not a line per request. Kinds are told apart by their message
 * with its numbers blanked (sizes and times vary between occurrences of one fault).
 */
import type { FastifyBaseLogger } from 'fastify';

/** Kinds remembered at most; past it the memory starts over (a few extra lines, no growth). */
const KINDS_LIMIT = 200;

interface Seen {
  /** When it was last written (ms, monotonic). */
  at: number;
  /** Occurrences since, not written. */
  suppressed: number;
}

export class FaultLog {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly intervalMs = 30_000) {}

  /** Logs `message` with the error's message (and its cause's) unless this kind was just logged. */
  warn(log: FastifyBaseLogger, message: string, error: unknown): void {
    const reason = describe(error);
    const kind = `${message}\0${reason.replace(/\d+(\.\d+)?/g, '#')}`;
    const now = performance.now();
    const seen = this.seen.get(kind);
    if (seen && now - seen.at < this.intervalMs) {
      seen.suppressed++;
      return;
    }
    if (!seen && this.seen.size >= KINDS_LIMIT) this.seen.clear();
    const suppressed = seen?.suppressed ?? 0;
    this.seen.set(kind, { at: now, suppressed: 0 });
    log.warn(suppressed > 0 ? { reason, suppressed } : { reason }, message);
  }
}

/** The error's first line, and its cause's when it adds something: never a stack. */
export function describe(error: unknown): string {
  const line = (value: unknown) =>
    (value instanceof Error ? value.message : String(value)).split('\n', 1)[0] ?? '';
  const own = line(error);
  const cause = error instanceof Error && error.cause !== undefined ? line(error.cause) : '';
  const text = cause && !own.includes(cause) ? `${own} (${cause})` : own;
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
