/**
 * A token in the URL is masked in the logs however it is spelled: any
 * letter case, any character percent-encoded (either hex case), next to `+`.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createClock } from '../../src/clock.ts';
import { loggerOptions } from '../../src/http/log-redaction.ts';
import type { ReadPort } from '../../src/port/read-port.ts';
import { generateToken } from '../../src/tokens/token.ts';
import { configOf, DEMO_TODAY, demoStoreCopy } from '../helpers/server.ts';
import { openStore } from '../helpers/store.ts';

let store: ReadPort;
beforeAll(async () => {
  const demo = await demoStoreCopy([]);
  store = await openStore(demo.path);
});
afterAll(() => store.close());

const hex = (char: string, upper: boolean) => {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? code.toUpperCase() : code}`;
};
/** Every character percent-encoded, in lower- or upper-case hex. */
const encodeAll = (text: string, upper: boolean) =>
  [...text].map((char) => hex(char, upper)).join('');
/** Every other character percent-encoded, hex case alternating. */
const encodeSome = (text: string) =>
  [...text].map((char, i) => (i % 2 === 0 ? char : hex(char, i % 4 === 1))).join('');
/** Letter case flipped on every other character. */
const flipCase = (text: string) =>
  [...text].map((char, i) => (i % 2 === 0 ? char.toUpperCase() : char.toLowerCase())).join('');

/** What a URL decoder (or a person reading the log) makes of a text, decoded to a fixed point. */
function decodeFully(text: string): string {
  let current = text.replaceAll('+', ' ');
  for (;;) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_, code: string) =>
      String.fromCharCode(Number.parseInt(code, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

describe('tokens in URLs never reach the logs, whatever their spelling', () => {
  it('masks percent-encoded, upper-case and mixed spellings in the path and the query', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp({
      store,
      clock: createClock(DEMO_TODAY),
      logger: { ...loggerOptions('info'), stream },
      config: configOf({
        RATE_LIMIT_MAX: '0',
        SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
        SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
      }),
    });
    const tokens = Array.from({ length: 14 }, () => generateToken());
    const spell = (i: number, f: (token: string) => string) => f(tokens[i] as string);
    const body = (token: string) => token.slice(4);
    const spellings = [
      spell(0, (t) => `pat%5F${body(t)}`),
      spell(1, (t) => `pat%5f${body(t)}`),
      spell(2, (t) => `%70at_${body(t)}`),
      spell(3, (t) => `PAT_${body(t)}`),
      spell(4, (t) => flipCase(t)),
      spell(5, (t) => encodeAll(t, false)),
      spell(6, (t) => encodeAll(t, true)),
      spell(7, (t) => encodeSome(t)),
      spell(8, (t) => `${encodeAll('PAT_', true)}${encodeSome(body(t))}`),
      spell(9, (t) => `%50a%54%5f${body(t)}`),
      // Encoded twice: a log reader decoding once more must not find it either.
      spell(10, (t) => `%2570at_${body(t)}`),
    ];
    const urls = [
      ...spellings.map((spelling) => `/v1/user?token=${spelling}`),
      ...spellings.map((spelling) => `/${spelling}`),
      `/v1/user?q=a+${tokens[11]}+b&r=+${encodeAll(tokens[12] as string, false)}+`,
      `/v1/users/spending?group_by=${flipCase(tokens[13] as string)}&x=1`,
    ];
    for (const url of urls) await app.inject({ url });
    await app.close();

    const text = lines.join('');
    const logged = lines
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url): url is string => url !== undefined);
    expect(logged.length).toBeGreaterThanOrEqual(urls.length);
    for (const url of logged) {
      const decoded = decodeFully(url).toLowerCase().replaceAll('pat_[redacted]', '');
      expect(decoded, url).not.toMatch(/pat_[0-9a-z]/);
    }
    const decodedText = decodeFully(text).toLowerCase();
    for (const token of tokens) {
      const secret = body(token).toLowerCase();
      expect(decodedText).not.toContain(secret.slice(0, 10));
      expect(decodedText).not.toContain(secret.slice(-10));
    }
    expect(text).toContain('pat_[redacted]');
  });
});
