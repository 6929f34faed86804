/**
 * No token reaches a log line, however it is spelled. Applied to every line as written
 * (pino's `streamWrite` hook), so it covers URLs, request ids, error messages and anything
 * else a line may quote:
 *
 * - `pat_` followed by token characters, in any letter case and with any character
 *   percent-encoded (`PAT_...`, `pat%5F...`, `%70at_...`): `pat_[redacted]`;
 * - any other run of 30 or more token characters (letters and digits, also percent-encoded):
 *   `[redacted]`. A token's secret part is 36 such characters, so a mangled prefix (`pat-`,
 *   a full-width `＿`, no prefix at all) does not let it through. Nothing this service logs
 *   on purpose has such a run (ids, generations and token ids are shorter; request ids are
 *   UUIDs, whose runs are at most 12).
 */

/** One character as a URL may spell it: itself, or percent-encoded (also twice: `%2570`). */
const spelled = (literal: string, hexCodes: string) => `(?:${literal}|%(?:25)*(?:${hexCodes}))`;

/** A letter or digit, literal or percent-encoded in either hex case. */
const TOKEN_CHARACTER = spelled('[0-9a-z]', '3[0-9]|[46][1-9a-f]|[57][0-9a]');

export const PAT_IN_TEXT = new RegExp(
  spelled('p', '[57]0') +
    spelled('a', '[46]1') +
    spelled('t', '[57]4') +
    spelled('_', '5f') +
    `${TOKEN_CHARACTER}+`,
  'gi',
);

/** 30 or more token characters in a row. */
const TOKEN_LIKE_RUN = new RegExp(`${TOKEN_CHARACTER}{30,}`, 'gi');

/** The text with every token-like part masked. */
export function redactTokens(text: string): string {
  return text.replace(PAT_IN_TEXT, 'pat_[redacted]').replace(TOKEN_LIKE_RUN, '[redacted]');
}

/** True when the text holds something token-like (then it is never echoed or logged as is). */
export function looksLikeToken(text: string): boolean {
  return /pat_/i.test(text) || redactTokens(text) !== text;
}
