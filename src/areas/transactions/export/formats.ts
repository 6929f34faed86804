/**
 * The formats a list is answered in, and which one a request gets (docs/api.md, "Formats"):
 * the `format` query parameter when sent, else the `Accept` header negotiated by `negotiator`
 * (q-values, wildcards, media type parameters), JSON when the client states no preference.
 */
import Negotiator from 'negotiator';

/** The `format` parameter's values, which are also the files' extensions. */
export const LIST_FORMATS = ['json', 'csv', 'ndjson', 'parquet'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/**
 * Each format's `Content-Type`, in the server's order of preference: JSON first, so `*\/*`
 * and `application/*` get JSON. The parameters take part in negotiation: `text/csv;
 * charset=utf-8` is served, `text/csv; charset=latin1` or `header=absent` is not.
 */
export const CONTENT_TYPES: Readonly<Record<ListFormat, string>> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

/** The media type alone (`text/csv`), as documents and `Accept` name it. */
export const mediaTypeOf = (format: ListFormat): string =>
  CONTENT_TYPES[format].split(';', 1)[0] as string;

const OFFERED = LIST_FORMATS.map((format) => CONTENT_TYPES[format]);

/**
 * The format `Accept` asks for; undefined when it accepts none of them (406). No header, or an
 * empty one, states no preference: JSON.
 */
export function negotiatedFormat(accept: string | undefined): ListFormat | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
  return LIST_FORMATS.find((format) => CONTENT_TYPES[format] === chosen);
}

/** The 406's detail: what can be asked for. */
export const NOT_ACCEPTABLE = `Not Acceptable: this list is served as ${LIST_FORMATS.map(mediaTypeOf).join(', ')} (Accept), or with format=${LIST_FORMATS.join('|')}`;
