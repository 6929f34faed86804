/**
 * Python's `urllib.parse.parse_qsl(qs, keep_blank_values=True)` as Starlette uses it: `&`
 * separates pairs, the first `=` splits name and value, `+` is a space, percent-escapes are
 * UTF-8 bytes with invalid sequences read as U+FFFD, a malformed escape stays as written.
 * Repeated names collect into an array, as Fastify's own parser does.
 */
export function parsePythonQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = unquotePlus(at < 0 ? pair : pair.slice(0, at));
    const value = unquotePlus(at < 0 ? '' : pair.slice(at + 1));
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[name] = [previous, value];
  }
  return out;
}

const decoder = new TextDecoder('utf-8');

/** `unquote_plus`: each run of escapes is decoded as UTF-8, invalid bytes read as U+FFFD. */
function unquotePlus(text: string): string {
  return text
    .replaceAll('+', ' ')
    .replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
      decoder.decode(Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16))),
    );
}
