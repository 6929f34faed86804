/**
 * What makes transactions one stream (docs/api.md, "Streams"): a direction and a merchant key,
 * and the stream's id, stable while the user, the direction and the key stay.
 */
import { createHash } from 'node:crypto';
import { foldCase } from '../case-fold.ts';
import type { Direction } from '../taxonomy.ts';

/**
 * Runs of ASCII digits, `#`, `*` and whitespace (JavaScript's `\s`: Unicode White_Space and
 * U+FEFF): the store numbers, card suffixes and references a statement line adds.
 */
const NOISE = /[0-9#*\s]+/gu;

/**
 * The merchant key: the merchant name, or the description when the name is null or empty,
 * folded as `q` folds (foldCase), each run of noise made one space, trimmed. Empty when the text
 * held nothing but noise: such rows form no stream.
 */
export function merchantKey(merchantName: string | null, description: string): string {
  return foldCase(merchantName ? merchantName : description)
    .replace(NOISE, ' ')
    .trim();
}

/** `str_` and the first 24 hex digits of SHA-256 over `user NUL direction NUL key` (UTF-8). */
export function streamId(userId: string, direction: Direction, key: string): string {
  const digest = createHash('sha256').update(`${userId}\0${direction}\0${key}`, 'utf8');
  return `str_${digest.digest('hex').slice(0, 24)}`;
}
