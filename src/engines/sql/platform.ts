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
 * no platform's name is in it, false; when one is and no look-alike is (no name followed by a
 * trade word, no guard), true; otherwise a platform counts when its name is in the text and
 * none of its look-alikes is, in either field ("LES SCHWAB" + "SCHWAB #0123" no, "ROBINHOOD" +
 * "LES SCHWAB REFERRAL" yes).
 *
 * The patterns are this module's constants, never request input. DuckDB compiles a constant
 * pattern once per execution of a statement with parameters, but again and again inside a
 * lambda: every constant pattern is outside the lambdas, which only test the candidates' small
 * `traded` patterns (a value, compiled per row) against the traded names. Those steps run only
 * for the rare rows with a look-alike (CASE branches run only for the rows reaching them, where
 * AND and OR evaluate every operand).
 */
export function namesInvestmentPlatformSql(
  textSql: string,
  matcher: CompiledPlatformMatcher = compilePlatformMatcher(),
): string {
  const matches = (text: string, pattern: string) => `regexp_matches(${text}, ${literal(pattern)})`;
  // A candidate: a platform named and not guarded, as its `traded` pattern (else NULL).
  const candidates = matcher.platforms.map(({ named, traded, guard }) => {
    const unguarded =
      guard === null
        ? literal(traded)
        : `CASE WHEN NOT ${matches(textSql, guard)} THEN ${literal(traded)} END`;
    return `CASE WHEN ${matches(textSql, named)} THEN ${unguarded} END`;
  });
  const tradedNames = `chr(10) || array_to_string(regexp_extract_all(${textSql}, ${literal(matcher.traded)}, 2), chr(10)) || chr(10)`;
  return `CASE WHEN NOT ${matches(textSql, matcher.platform)} THEN false
    WHEN NOT ${matches(textSql, matcher.traded)} AND NOT ${matches(textSql, matcher.guard)} THEN true
    ELSE list_transform([{'traded_names': ${tradedNames}, 'candidates': [${candidates.join(',\n        ')}]}],
      lambda row: len(list_filter(row.candidates,
        lambda traded: NOT regexp_matches(row.traded_names, traded))) > 0)[1] END`;
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
