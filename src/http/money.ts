import { Decimal } from 'decimal.js';
import { z } from 'zod';

/** docs/api.md "Figures": exact arithmetic, rounding (half away from zero) only when formatting. */
export function formatMoney(value: Decimal.Value): string {
  const text = new Decimal(value).toFixed(2, Decimal.ROUND_HALF_UP);
  // A value that rounds to zero from below must not read "-0.00".
  return text === '-0.00' ? '0.00' : text;
}

/** Like formatMoney, but null stays null (optional columns). */
export function formatMoneyOrNull(value: Decimal.Value | null | undefined): string | null {
  return value === null || value === undefined ? null : formatMoney(value);
}

/** A stored rate (percent, up to four places): at least two decimals, no trailing zeros beyond. */
export function formatRate(value: Decimal.Value): string {
  const exact = new Decimal(value);
  return exact.decimalPlaces() <= 2 ? formatMoney(exact) : exact.toFixed();
}

/** The decimal pattern of docs/api.md (pydantic v2's JSON schema for `Decimal`). */
export const DECIMAL_PATTERN = '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$';

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
