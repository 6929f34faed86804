/**
 * No token reaches a log line, however it is spelled. Applied to every line as written
 * (pino's `streamWrite` hook), so it covers URLs, request ids, error messages and anything
 * else a line may quote. Letters and digits count in any spelling a URL decoder reads
 * (literal, or percent-encoded in either hex case, also twice: `%2541`). Masked:
 *
 * - `pat_` followed by token characters, in any letter case: `pat_[redacted]`;
 * - `pat` behind any other separator (`pat-`, `PAT.`, a full-width `＿` raw or encoded)
 *   followed by 20 or more token characters: `pat[redacted]`;
 * - any run of token characters holding a token's secret part, with no prefix at all: 36
 *   characters whose last 6 are the checksum of the first 30 (tokens/token.ts): `[redacted]`;
 *   a run longer than 256 characters is masked whole.
 *
 * Other long runs (a 32-character trace id used as a request id, a hash) are kept.
 */
import { checksumOf } from '../tokens/token.ts';

/** One character as a URL may spell it: itself, or percent-encoded (also twice: `%2570`). */
const spelled = (literal: string, hexCodes: string) => `(?:${literal}|%(?:25)*(?:${hexCodes}))`;

/** A letter or digit, literal or percent-encoded in either hex case. */
const TOKEN_CHARACTER = spelled('[0-9a-z]', '3[0-9]|[46][1-9a-f]|[57][0-9a]');

const PAT = spelled('p', '[57]0') + spelled('a', '[46]1') + spelled('t', '[57]4');

export const PAT_IN_TEXT = new RegExp(`${PAT}${spelled('_', '5f')}${TOKEN_CHARACTER}+`, 'gi');

/** `pat`, a separator that is neither a token character nor a quote or blank, 20+ characters. */
const PAT_MANGLED = new RegExp(
  `${PAT}(?:%(?:25)*[0-9a-f]{2}|[^0-9a-z%\\s"'\\\\]){1,12}${TOKEN_CHARACTER}{20,}`,
  'gi',
);

const LONG_RUN = new RegExp(`${TOKEN_CHARACTER}{36,}`, 'gi');

const SECRET_LENGTH = 36;
const MAX_CHECKED = 256;
const RANDOM_LENGTH = 30;

function decode(run: string): string {
  let current = run;
  for (;;) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, code: string) =>
      String.fromCharCode(Number.parseInt(code, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

/** True when some 36 characters of the run are a token's secret part (checksum and all). */
function holdsSecret(run: string): boolean {
  const text = run.includes('%') ? decode(run) : run;
  for (let at = 0; at + SECRET_LENGTH <= text.length; at++) {
    const random = text.slice(at, at + RANDOM_LENGTH);
    if (text.slice(at + RANDOM_LENGTH, at + SECRET_LENGTH) === checksumOf(random)) return true;
  }
  return false;
}

/** The text with every token-like part masked. */
export function redactTokens(text: string): string {
  return (
    text
      .replace(PAT_IN_TEXT, 'pat_[redacted]')
      .replace(PAT_MANGLED, 'pat[redacted]')
      // A run past MAX_CHECKED characters is masked whole: nothing worth keeping is that long,
      // and checking every window of it would let a long URL buy CPU time.
      .replace(LONG_RUN, (run) =>
        run.length > MAX_CHECKED || holdsSecret(run) ? '[redacted]' : run,
      )
  );
}

/** True when the text holds something token-like (then it is never echoed or logged as is). */
export function looksLikeToken(text: string): boolean {
  return /pat_/i.test(text) || redactTokens(text) !== text;
}

/**
 * Pino options that never let a token reach the logs: the credential headers are redacted,
 * and every line is masked of token-like text as it is written.
 */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    hooks: { streamWrite: redactTokens },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(PAT_IN_TEXT, 'pat_[redacted]'),
        remoteAddress: req.ip,
      }),
    },
  };
}
