import { z } from 'zod';

/** The decimal pattern of docs/api.md (pydantic v2's JSON schema for `Decimal`). */
const DECIMAL_PATTERN = '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$';

/**
 * A decimal string in a response (money, rate, percentage), matching DECIMAL_PATTERN. Without a
 * description it carries no metadata, for a wrapper (`.nullable()`) to describe.
 */
export function decimalString(description?: string, examples?: readonly string[]) {
  const schema = z.string().regex(new RegExp(DECIMAL_PATTERN));
  if (description === undefined) return schema;
  return schema.meta(examples ? { description, examples: [...examples] } : { description });
}

/** A money amount in a response: a decimal string with exactly two decimals. */
export function moneySchema(description: string) {
  return decimalString(`${description} Decimal string, two decimals.`, ['1234.50']);
}
