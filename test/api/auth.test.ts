/**
 * Authentication exactly as docs/api.md ("Authentication and errors") and FastAPI's
 * HTTPBearer (0.122+): every 401 case, with its body and WWW-Authenticate header, against the
 * real app and a real DuckDB store. Expected outcomes of the header parsing were checked
 * against FastAPI 0.142 (`get_authorization_scheme_param`: partition on the first space,
 * credentials `.strip()`ped; scheme compared case-insensitively).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { authorizationSchemeParam } from '../../src/http/fastapi/bearer.ts';
import { tokensPathFor } from '../../src/tokens/path.ts';
import { checksumOf, generateToken, hashToken, isWellFormedToken } from '../../src/tokens/token.ts';
import { revokeToken } from '../../src/tokens/token-file.ts';
import {
  buildStoreFromCsv,
  DelegatingPort,
  makeTempDir,
  mintTestToken,
  openStore,
  writeCsvFixture,
} from '../helpers/store.ts';

const NOT_AUTHENTICATED = { detail: 'Not authenticated' };
const INVALID = { detail: 'Invalid authentication credentials' };

/** `YYYY-MM-DD HH:MM:SS` in UTC, as the store's TIMESTAMP columns hold it. */
const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
const HOUR = 3_600_000;

const tokens = {
  valid: generateToken(),
  validUntil2099: generateToken(),
  expiresInAnHour: generateToken(),
  expiredAMinuteAgo: generateToken(),
  /** Expired by the real clock, but not by the pinned TODAY (2019): still rejected. */
  expired2025: generateToken(),
  revoked: generateToken(),
  other: generateToken(),
  /** Well-formed, never stored. */
  unknown: generateToken(),
};

/** A token with a wrong checksum whose hash IS in the store: only the shape check can stop it. */
const badChecksum = (() => {
  const random = tokens.valid.slice(4, 34);
  const good = checksumOf(random);
  const wrong = (good[0] === '0' ? '1' : '0') + good.slice(1);
  return `pat_${random}${wrong}`;
})();

/** Counts the reads the app sends to the store. */
class CountingStore extends DelegatingPort {
  queries = 0;
  protected override read<T>(_method: string, run: () => Promise<T>): Promise<T> {
    this.queries++;
    return run();
  }
}

let app: FastifyInstance;
let store: CountingStore;
let databasePath: string;
/** The pinned TODAY; tests move it to show expiry ignores it. */
let today = '2019-06-01';
const clock: Clock = { today: () => today };

beforeAll(async () => {
  const now = Date.now();
  const tokenRow = (token: string, user: string, expires: Date | null, revoked: Date | null) => ({
    token_hash: hashToken(token),
    user_id: user,
    name: null,
    created_at: '2019-01-01 00:00:00',
    expires_at: expires === null ? null : stamp(expires),
    revoked_at: revoked === null ? null : stamp(revoked),
  });
  const dir = makeTempDir('auth');
  await writeCsvFixture(dir, {
    users: [
      { id: 'u1', name: 'Ann', email: 'ann@example.com', created_at: '2019-01-01 00:00:00' },
      { id: 'u2', name: 'Bob', email: 'bob@example.com', created_at: '2019-01-01 00:00:00' },
    ],
    links: [
      {
        id: 'l1',
        user_id: 'u1',
        type: 'institution',
        name: 'Bank',
        status: 'active',
        created_at: '2019-01-01 00:00:00',
      },
    ],
    accounts: [{ id: 'a1', user_id: 'u1', link_id: 'l1', name: 'Checking', type: 'depository' }],
    transactions: [
      {
        id: 't1',
        user_id: 'u1',
        account_id: 'a1',
        transacted_at: '2019-05-01',
        amount: '10.00',
        direction: 'DEBIT',
        description: 'COFFEE',
        category: 'Food and Drink',
      },
    ],
    access_tokens: [
      tokenRow(tokens.valid, 'u1', null, null),
      tokenRow(tokens.validUntil2099, 'u1', new Date('2099-01-01T00:00:00Z'), null),
      tokenRow(tokens.expiresInAnHour, 'u1', new Date(now + HOUR), null),
      tokenRow(tokens.expiredAMinuteAgo, 'u1', new Date(now - 60_000), null),
      tokenRow(tokens.expired2025, 'u1', new Date('2025-01-01T00:00:00Z'), null),
      tokenRow(tokens.revoked, 'u1', null, new Date(now - HOUR)),
      tokenRow(tokens.other, 'u2', null, null),
      tokenRow(badChecksum, 'u1', null, null),
    ],
  });
  databasePath = await buildStoreFromCsv(dir);
  store = new CountingStore(await openStore(databasePath));
  app = await buildApp({ store, clock });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

function get(url: string, authorization?: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    headers: authorization === undefined ? {} : { authorization },
  });
}

function expectNotAuthenticated(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual(NOT_AUTHENTICATED);
  expect(response.headers['www-authenticate']).toBe('Bearer');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-request-id']).toBeTruthy();
}

function expectInvalid(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual(INVALID);
  expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-request-id']).toBeTruthy();
}

describe('token format (pat_ + 30 base62 + 6-character CRC32 checksum)', () => {
  it('generated tokens are 40 characters, base62 0-9A-Za-z, with their checksum', () => {
    for (const token of Object.values(tokens)) {
      expect(token).toMatch(/^pat_[0-9A-Za-z]{36}$/);
      expect(token).toHaveLength(40);
      expect(isWellFormedToken(token)).toBe(true);
    }
  });

  it('the checksum is zlib crc32 of the random part in base62, most significant first, 0-padded', () => {
    // Expected values from Python: zlib.crc32(...) written in base62 0-9A-Za-z, width 6.
    expect(checksumOf('0'.repeat(30))).toBe('2C8GjS');
    expect(checksumOf('A'.repeat(30))).toBe('0uCPlr'); // left-padded with 0
    expect(checksumOf('abc'.repeat(10))).toBe('1KXPvt');
    expect(checksumOf('0'.repeat(30))).toBe(base62(crc32Reference('0'.repeat(30)), 6));
  });

  it('rejects a wrong checksum, length, prefix or alphabet', () => {
    const random = tokens.valid.slice(4, 34);
    expect(isWellFormedToken(badChecksum)).toBe(false);
    expect(isWellFormedToken(tokens.valid.slice(0, 39))).toBe(false);
    expect(isWellFormedToken(`${tokens.valid}0`)).toBe(false);
    expect(isWellFormedToken(`PAT_${tokens.valid.slice(4)}`)).toBe(false);
    expect(isWellFormedToken(`tok_${tokens.valid.slice(4)}`)).toBe(false);
    const dashed = `${random.slice(0, 29)}-`;
    expect(isWellFormedToken(`pat_${dashed}${checksumOf(dashed)}`)).toBe(false);
  });

  it('the store key is the lowercase hex sha256 of the whole token', () => {
    // hashlib.sha256(b'pat_x').hexdigest()
    expect(hashToken('pat_x')).toBe(
      '18389e03386c51b41385b6c68cc7d7f9c4edf64732efce4bf5d492b61ccf9b01',
    );
  });
});

describe('401 Not authenticated (FastAPI HTTPBearer), WWW-Authenticate: Bearer', () => {
  it('no Authorization header', async () => {
    expectNotAuthenticated(await get('/v1/user'));
  });

  it.each([
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['the scheme and blanks only (credentials strip to nothing)', 'Bearer  \t '],
    ['a bare word', 'pat_x'],
    ['a bare token without scheme', tokens.valid],
    ['a tab instead of the space (no space: no credentials)', `Bearer\t${tokens.valid}`],
    ['a colon instead of the space', `Bearer:${tokens.valid}`],
    ['the Basic scheme', 'Basic xyz'],
    ['the Basic scheme with a valid token', `Basic ${tokens.valid}`],
    ['another scheme', `Token ${tokens.valid}`],
    ['a scheme that only starts with bearer', `Bearerx ${tokens.valid}`],
  ])('%s', async (_name, header) => {
    expectNotAuthenticated(await get('/v1/user', header));
  });

  it('a token in the query string is never read', async () => {
    const t = tokens.valid;
    expectNotAuthenticated(
      await get(`/v1/user?token=${t}&access_token=${t}&api_key=${t}&authorization=Bearer%20${t}`),
    );
  });

  it('never touches the store', async () => {
    const before = store.queries;
    await get('/v1/user');
    await get('/v1/user', 'Basic xyz');
    await get('/v1/user', 'Bearer');
    expect(store.queries).toBe(before);
  });
});

describe('accepted Authorization headers', () => {
  it.each([
    ['Bearer', `Bearer ${tokens.valid}`],
    ['lowercase scheme', `bearer ${tokens.valid}`],
    ['uppercase scheme', `BEARER ${tokens.valid}`],
    ['mixed-case scheme', `bEaReR ${tokens.valid}`],
    ['two spaces (credentials are stripped)', `Bearer  ${tokens.valid}`],
    ['a space then a tab', `Bearer \t${tokens.valid}`],
    ['trailing blanks', `Bearer ${tokens.valid} \t`],
  ])('%s', async (_name, header) => {
    const response = await get('/v1/user', header);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: 'u1' });
  });

  it('the token identifies its own user', async () => {
    const response = await get('/v1/user', `Bearer ${tokens.other}`);
    expect(response.json()).toMatchObject({ id: 'u2', name: 'Bob' });
  });

  it('a valid header wins over junk in the query string', async () => {
    const response = await get('/v1/user?token=pat_junk', `Bearer ${tokens.valid}`);
    expect(response.statusCode).toBe(200);
  });

  it('a token expiring in the future is accepted', async () => {
    expect((await get('/v1/user', `Bearer ${tokens.expiresInAnHour}`)).statusCode).toBe(200);
    expect((await get('/v1/user', `Bearer ${tokens.validUntil2099}`)).statusCode).toBe(200);
  });
});

describe('401 Invalid authentication credentials, WWW-Authenticate: Bearer error="invalid_token"', () => {
  it.each([
    ['a short word', 'Bearer pat_x'],
    ['a token followed by another word', `Bearer ${tokens.valid} x`],
    ['a token with one more character', `Bearer ${tokens.valid}x`],
    ['a truncated token', `Bearer ${tokens.valid.slice(0, 39)}`],
    ['an uppercase prefix', `Bearer PAT_${tokens.valid.slice(4)}`],
    [
      'a token with a character outside base62',
      `Bearer ${tokens.valid.slice(0, 20)}-${tokens.valid.slice(21)}`,
    ],
    ['the Authorization header repeated in the credentials', `Bearer Bearer ${tokens.valid}`],
    ['a wrong checksum (whose hash is stored)', `Bearer ${badChecksum}`],
  ])('malformed: %s, without touching the store', async (_name, header) => {
    const before = store.queries;
    expectInvalid(await get('/v1/user', header));
    expect(store.queries).toBe(before);
  });

  it('unknown: well-formed but not in the store', async () => {
    expectInvalid(await get('/v1/user', `Bearer ${tokens.unknown}`));
  });

  it('revoked', async () => {
    expectInvalid(await get('/v1/user', `Bearer ${tokens.revoked}`));
  });

  it('expired a minute ago (real clock)', async () => {
    expectInvalid(await get('/v1/user', `Bearer ${tokens.expiredAMinuteAgo}`));
  });

  it('expiry is judged against the real clock, never against TODAY', async () => {
    today = '2019-06-01';
    // Before its expiry by TODAY, after it by the real clock: rejected.
    expectInvalid(await get('/v1/user', `Bearer ${tokens.expired2025}`));
    today = '2100-01-01';
    // After its expiry by TODAY, before it by the real clock: accepted.
    expect((await get('/v1/user', `Bearer ${tokens.validUntil2099}`)).statusCode).toBe(200);
    today = '2019-06-01';
  });

  it('the token is case-sensitive', async () => {
    const swapped = tokens.valid.slice(0, 4) + swapCase(tokens.valid.slice(4));
    expectInvalid(await get('/v1/user', `Bearer ${swapped}`));
  });
});

describe('tokens are read from the token store as it changes', () => {
  /** Polls until the request answers `status`, for at most a second; returns the time taken. */
  async function within1s(authorization: string, status: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const response = await get('/v1/user', authorization);
      if (response.statusCode === status) return Date.now() - started;
      if (Date.now() - started > 1000) {
        throw new Error(`still ${response.statusCode} after a second: ${response.body}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a token minted while the app runs works within a second, a revoked one stops within a second', async () => {
    const token = await mintTestToken(databasePath, 'u2');
    expect(await within1s(`Bearer ${token}`, 200)).toBeLessThanOrEqual(1000);
    await revokeToken({ tokensPath: tokensPathFor(databasePath), idOrToken: token });
    expect(await within1s(`Bearer ${token}`, 401)).toBeLessThanOrEqual(1000);
  });

  it('a token seen before still expires on the real clock', async () => {
    expect((await get('/v1/user', `Bearer ${tokens.expiresInAnHour}`)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2 * HOUR);
      expectInvalid(await get('/v1/user', `Bearer ${tokens.expiresInAnHour}`));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('authentication runs before validation and on every protected endpoint', () => {
  const PROTECTED = [
    '/v1/user',
    '/v2/users/transactions',
    '/v1/links',
    '/v1/users/balances',
    '/v1/users/balance-history',
    '/v1/users/income',
    '/v1/users/liabilities',
    '/v1/accounts',
    '/v1/categories',
    '/v2/users/spending?group_by=category&time_period=month',
    '/v1/users/spending?group_by=category&time_period=month',
  ];

  it.each(PROTECTED)('%s without a token -> 401 Not authenticated', async (url) => {
    expectNotAuthenticated(await get(url));
  });

  it.each(PROTECTED)('%s with an unknown token -> 401 invalid_token', async (url) => {
    expectInvalid(await get(url, `Bearer ${tokens.unknown}`));
  });

  it.each([
    '/v2/users/transactions?page=0&page_size=9&transacted_at_from=x',
    '/v1/links?page=abc',
    '/v1/users/balance-history?time_period=x&start_date=2020-13-01',
    '/v1/users/income?start_date=2030-01-01&end_date=2020-01-01',
    '/v2/users/spending',
    '/v2/users/spending?group_by=x&time_period=y&min_total_amount=abc',
  ])('invalid parameters and no token -> 401, not 422: %s', async (url) => {
    expectNotAuthenticated(await get(url));
    expectInvalid(await get(url, `Bearer ${tokens.revoked}`));
    expect((await get(url, `Bearer ${tokens.valid}`)).statusCode).toBe(422);
  });

  it('public probes need no token', async () => {
    expect((await get('/healthz')).statusCode).toBe(200);
  });
});

describe('authorizationSchemeParam (FastAPI get_authorization_scheme_param)', () => {
  it.each([
    [undefined, '', ''],
    ['', '', ''],
    ['Bearer', 'Bearer', ''],
    ['Bearer ', 'Bearer', ''],
    ['Bearer abc', 'Bearer', 'abc'],
    ['Bearer   abc  ', 'Bearer', 'abc'],
    ['Bearer \t\u00a0abc\u0085', 'Bearer', 'abc'],
    ['Bearer a b', 'Bearer', 'a b'],
    ['Bearer\tabc', 'Bearer\tabc', ''],
    [' Bearer abc', '', 'Bearer abc'],
  ])('%j -> [%j, %j]', (value, scheme, credentials) => {
    expect(authorizationSchemeParam(value)).toEqual([scheme, credentials]);
  });
});

function swapCase(text: string): string {
  return [...text]
    .map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()))
    .join('');
}

function base62(value: number, width: number): string {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  let rest = value;
  do {
    out = digits[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** Bitwise CRC32 (IEEE 802.3, zlib's), independent of node:zlib. */
function crc32Reference(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'ascii')) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
