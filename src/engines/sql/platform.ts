/**
 * The investment-platform rules (domain/platforms.ts) as DuckDB SQL: the compiled patterns
 * evaluated by RE2 over each transaction's merchant name and description. build-db stores the
 * result per transaction (ingest/derive.ts) and the cluster's loader copies it; a store built
 * with other rules is refused (contract/store-format.ts).
 */
import { createHash } from 'node:crypto';
import { type CompiledPlatformMatcher, compilePlatformMatcher } from '../../domain/platforms.ts';

const literal = (pattern: string) => `'${pattern.replaceAll("'", "''")}'`;

/**
 * A SQL boolean expression: does `textSql` (platformTextSql) name an investment platform? When
 * no platform's name reads as one, false; when one does and no guard is present, true;
 * otherwise the platforms whose guard is present (in either field) are ruled out, and the
 * others' names must still read as a platform ("LES SCHWAB" + "SCHWAB #0123" no, "ROBINHOOD" +
 * "LES SCHWAB REFERRAL" yes). The patterns are this module's constants, never request input.
 * DuckDB compiles each constant pattern on every execution of a statement with parameters, so
 * they are few; the last pattern is built per row, only for the rare rows that reach it.
 */
export function namesInvestmentPlatformSql(
  textSql: string,
  matcher: CompiledPlatformMatcher = compilePlatformMatcher(),
): string {
  const platform = `regexp_matches(${textSql}, ${literal(matcher.platform)})`;
  if (matcher.guarded.length === 0) return platform;
  const names = [
    literal(matcher.unguardedNames),
    ...matcher.guarded.map(
      ({ guard, names }) =>
        `CASE WHEN NOT regexp_matches(${textSql}, ${literal(guard)}) THEN ${literal(names)} END`,
    ),
  ];
  const remaining = `${literal(matcher.before)} || concat_ws('|', ${names.join(', ')}) || ${literal(matcher.after)}`;
  return `CASE WHEN NOT ${platform} THEN false
    WHEN NOT regexp_matches(${textSql}, ${literal(matcher.guard)}) THEN true
    ELSE regexp_matches(${textSql}, ${remaining}) END`;
}

const lowerSql = (sql: string) => `replace(lower(coalesce(${sql}, '')), chr(10), ' ')`;

/**
 * The text matched per transaction: merchant name and description, lower-cased, joined by a
 * line break that neither field keeps (theirs become spaces). Separators never cross it, so no
 * spelling or guard spans the two fields (merchant "Fidelity", description "PAYMENT" is not
 * "fidelity payment"), and it ends the merchant name's field.
 */
export function platformTextSql(merchantNameSql: string, descriptionSql: string): string {
  return `${lowerSql(merchantNameSql)} || chr(10) || ${lowerSql(descriptionSql)}`;
}

/** Whether a row (table alias `alias`) is a DEBIT naming an investment platform. */
export function toPlatformSql(alias: string): string {
  const text = platformTextSql(`${alias}.merchant_name`, `${alias}.description`);
  return `CASE WHEN ${alias}.direction = 'DEBIT' THEN ${namesInvestmentPlatformSql(text)} ELSE false END`;
}

/** Identifies the platform rules a store's `to_platform` was computed with. */
export const PLATFORM_RULES_FINGERPRINT = createHash('sha256')
  .update(toPlatformSql('t'))
  .digest('hex')
  .slice(0, 16);
