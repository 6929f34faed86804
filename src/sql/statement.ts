/** What a statement takes and gives back, in both dialects' pools. */

/** A bound parameter: positional `$1`, `$2`, ... in the SQL text. Dates are bound as strings. */
export type SqlParam = string | number | boolean | null | readonly string[];

/**
 * A result row with exact values: decimals and big integers (including `count(*)`) arrive as
 * strings, dates as `YYYY-MM-DD`, timestamps as ISO text, lists as arrays.
 */
export type Row = Record<string, unknown>;
