/** The merchant key and the stream id of recurring streams (docs/api.md, "Streams"). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { merchantKey, streamId } from '../../src/domain/recurring/key.ts';

describe('merchantKey', () => {
  it.each([
    // Case-folded as q folds; a run of digits, #, * and whitespace is one space; trimmed.
    ['Netflix', 'x', 'netflix'],
    ['NETFLIX', 'x', 'netflix'],
    ['SPOTIFY USA #123*AB', 'x', 'spotify usa ab'],
    ['  Blue  Bottle\t# 42  ', 'x', 'blue bottle'],
    // Other punctuation stays, each run of noise around it a space.
    ['NETFLIX.COM 866-579-7172', 'x', 'netflix.com - -'],
    ["Lowe's #0042", 'x', "lowe's"],
    // Unicode whitespace (no-break space, ideographic space) is noise too.
    ['CAFÉ\u00a0NOIR\u3000 12', 'x', 'café noir'],
    // Folded as DuckDB's lower(): a capital dotted I is a plain i, Greek capitals fold.
    ['İSTANBUL KEBAP', 'x', 'istanbul kebap'],
    ['ΤΑΒΕΡΝΑ', 'x', 'ταβερνα'],
    // No merchant name, null or empty: the description.
    [null, 'CITY PARKING 4412', 'city parking'],
    ['', 'City Parking #9931', 'city parking'],
    // Nothing but noise: an empty key (no stream).
    ['#0042 *', 'x', ''],
    [null, '12345', ''],
  ])('%j, %j -> %j', (merchantName, description, key) => {
    expect(merchantKey(merchantName, description)).toBe(key);
  });
});

describe('streamId', () => {
  it('is str_ and the first 24 hex digits of SHA-256 over user, NUL, direction, NUL, key', () => {
    const expected = createHash('sha256')
      .update(Buffer.from('usr_jqhzo7mn41\u0000DEBIT\u0000netflix', 'utf8'))
      .digest('hex')
      .slice(0, 24);
    expect(streamId('usr_jqhzo7mn41', 'DEBIT', 'netflix')).toBe(`str_${expected}`);
    // docs/api.md's worked example.
    expect(streamId('usr_jqhzo7mn41', 'DEBIT', 'netflix')).toBe('str_46ccb9ef48e33875cccc077f');
  });

  it('differs with the user, the direction and the key, and only with them', () => {
    const ids = [
      streamId('u1', 'DEBIT', 'netflix'),
      streamId('u2', 'DEBIT', 'netflix'),
      streamId('u1', 'CREDIT', 'netflix'),
      streamId('u1', 'DEBIT', 'netflix.com'),
      // The separator keeps the parts apart.
      streamId('u1\u0000DEBIT', 'DEBIT', 'netflix'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(streamId('u1', 'DEBIT', 'netflix')).toBe(streamId('u1', 'DEBIT', 'netflix'));
    for (const id of ids) expect(id).toMatch(/^str_[0-9a-f]{24}$/);
  });

  it('hashes the key as UTF-8', () => {
    const expected = createHash('sha256').update('u1\0DEBIT\0café noir').digest('hex');
    expect(streamId('u1', 'DEBIT', 'café noir')).toBe(`str_${expected.slice(0, 24)}`);
  });
});
