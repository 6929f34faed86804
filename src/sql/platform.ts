/**
 * The investment-platform rules (domain/platforms.ts) as DuckDB SQL: the compiled patterns
 * evaluated by RE2 over each transaction's merchant name and description. build-db stores the
 * result per transaction (ingest/derive.ts) and the cluster's loader copies it; a store built
 * with other rules is refused (contract/store-format.ts).
 */
import { createHash } from 'node:crypto';
import {
  type CompiledPlatformMatcher,
  compilePlatformMatcher,
  KEY_TEXT,
  type PlatformKey,
} from '../domain/platforms.ts';

const literal = (pattern: string) => `'${pattern.replaceAll("'", "''")}'`;

/** Keys as a constant list of structs. */
const keysSql = (keys: readonly PlatformKey[]) =>
  `[${keys.map(({ key, prefix, platform }) => `{'key': ${literal(key)}, 'prefix': ${prefix}, 'platform': ${platform}}`).join(', ')}]`;

/** The key texts of the matches' group 2 (KEY_TEXT removed). */
const keyTextsSql = (textSql: string, pattern: string) =>
  `list_transform(regexp_extract_all(${textSql}, ${literal(pattern)}, 2),
        lambda written: regexp_replace(written, ${literal(KEY_TEXT)}, '', 'g'))`;

/** The platform of a key text by a list of keys (platformOf in JavaScript), or NULL. */
const platformOfSql = (keyText: string, keys: string) =>
  `list_filter(${keys}, lambda k: CASE WHEN k.prefix THEN starts_with(${keyText}, k.key)
        ELSE ${keyText} = k.key END)[1].platform`;

/**
 * A SQL boolean expression: does `textSql` (platformTextSql) name an investment platform? When
 * no platform's name is in it, false; otherwise the platforms of the names it holds, less the
 * platforms of the look-alikes it holds (in either field): true when one is left ("LES SCHWAB"
 * + "SCHWAB #0123" no, "ROBINHOOD" + "LES SCHWAB REFERRAL" yes). Names and look-alikes are
 * extracted once each and told apart by their keys, not by a pattern per platform.
 *
 * The patterns are this module's constants, never request input. DuckDB compiles a constant
 * pattern once per execution of a statement with parameters but again and again inside a
 * lambda, and builds a constant list once per row inside one: the extractions and the key
 * lists are the fields of one struct, outside the lambdas, which only strip and compare keys.
 * Only the rows naming a platform reach them.
 */
export function namesInvestmentPlatformSql(
  textSql: string,
  matcher: CompiledPlatformMatcher = compilePlatformMatcher(),
): string {
  const found = `{'names': ${keyTextsSql(textSql, matcher.names)},
      'lookalikes': ${keyTextsSql(textSql, matcher.lookalikes)},
      'name_keys': ${keysSql(matcher.nameKeys)},
      'lookalike_keys': ${keysSql(matcher.lookalikeKeys)}}`;
  const ruledOut = `list_transform(found.lookalikes,
        lambda lookalike: ${platformOfSql('lookalike', 'found.lookalike_keys')})`;
  return `CASE WHEN NOT regexp_matches(${textSql}, ${literal(matcher.platform)}) THEN false
    ELSE list_transform([${found}], lambda found: len(list_filter(
      list_transform(found.names, lambda name: ${platformOfSql('name', 'found.name_keys')}),
      lambda platform: platform IS NOT NULL AND NOT list_contains(${ruledOut}, platform))) > 0)[1]
    END`;
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
