import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { looksLikeToken } from './log-redaction.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's (or proxy's) x-request-id when it is safe to echo, else mints one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  // An id that looks like a token is not echoed (nor logged): a caller may paste one by mistake.
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) && !looksLikeToken(incoming)
    ? incoming
    : randomUUID();
}
