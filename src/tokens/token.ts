import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Personal access tokens: `pat_` + 30 random base62 characters + a 6-character checksum. */
export const TOKEN_PREFIX = 'pat_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const TOKEN_SHAPE = /^pat_[0-9A-Za-z]{36}$/;

function toBase62(value: number, width: number): string {
  let digits = '';
  let rest = value;
  do {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return digits.padStart(width, '0');
}

export function checksumOf(randomPart: string): string {
  return toBase62(crc32(Buffer.from(randomPart, 'ascii')), CHECKSUM_LENGTH);
}

export function generateToken(): string {
  let randomPart = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) randomPart += BASE62[randomInt(62)];
  return TOKEN_PREFIX + randomPart + checksumOf(randomPart);
}

/** Shape and checksum only: a token that fails here is rejected without touching the store. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_SHAPE.test(token)) return false;
  const randomPart = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH);
  return token.slice(TOKEN_PREFIX.length + RANDOM_LENGTH) === checksumOf(randomPart);
}

/** The store keeps only this: lowercase hex SHA-256 of the whole token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
