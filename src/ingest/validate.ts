/**
 * Validation of the staged input, in SQL: every staged table holds the contract's columns
 * as VARCHAR (NULL when absent or empty), in file order, so `rowid` gives the record. One
 * query per table finds the first problem of each bad row; 10M rows take seconds. A CSV
 * record may span lines (a quoted value holding a newline), so the file line of a bad record
 * is found by scanning the file (csv-scan.ts), only when there is something to report
 * (problems.ts).
 */
import {
  type Column,
  ENUM_TYPES,
  MAX_ID_LENGTH,
  TABLES,
  type TableName,
} from '../contract/tables.ts';
import { CATEGORIES } from '../domain/taxonomy.ts';
import { sqlString } from '../sql/literals.ts';
import { stagedTable } from './inputs.ts';

const DECIMAL_DIGITS = '[0-9]{1,16}(\\.[0-9]{1,2})?';

/** A quoted, shortened rendering of a value for messages. */
function shown(expression: string): string {
  return `'''' || left(${expression}, 40) || CASE WHEN length(${expression}) > 40 THEN '...' ELSE '' END || ''''`;
}

interface Check {
  when: string;
  reason: string;
  /** SQL: the 0-based index of another row the reason refers to (the first of duplicates). */
  relatedRow?: string;
}

function columnChecks(column: Column): Check[] {
  const value = `s.${column.name}`;
  const checks: Check[] = [];
  if (column.required) {
    checks.push({
      when: `${value} IS NULL`,
      reason: sqlString(`missing required value for ${column.name}`),
    });
  }
  const present = `${value} IS NOT NULL AND `;
  // PostgreSQL's text cannot hold U+0000: refused here, so both engines take the same rows.
  checks.push({
    when: `${present}contains(${value}, chr(0))`,
    reason: sqlString(
      `${column.name} contains a NUL character (U+0000), which the data contract does not allow`,
    ),
  });
  const type = column.type;
  switch (type.kind) {
    case 'id':
      checks.push({
        when: `${present}length(${value}) > ${MAX_ID_LENGTH}`,
        reason: `${sqlString(`${column.name} `)} || ${shown(value)} || ' is ' || length(${value}) || ${sqlString(` characters long; ids have at most ${MAX_ID_LENGTH} characters`)}`,
      });
      break;
    case 'date':
      checks.push({
        when: `${present}(NOT regexp_full_match(${value}, '[0-9]{4}-[0-9]{2}-[0-9]{2}') OR try_cast(${value} AS DATE) IS NULL)`,
        reason: `${sqlString(`${column.name} is not a date (YYYY-MM-DD): `)} || ${shown(value)}`,
      });
      break;
    case 'timestamp':
      checks.push({
        when: `${present}(NOT regexp_full_match(${value}, '[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)?') OR try_cast(${value} AS TIMESTAMPTZ) IS NULL)`,
        reason: `${sqlString(`${column.name} is not an ISO 8601 timestamp: `)} || ${shown(value)}`,
      });
      break;
    case 'money': {
      const pattern = type.sign === 'any' ? `-?${DECIMAL_DIGITS}` : DECIMAL_DIGITS;
      const zero = type.sign === 'positive' ? ` OR try_cast(${value} AS DECIMAL(18,2)) = 0` : '';
      const what = {
        positive: 'a positive decimal',
        'non-negative': 'a decimal >= 0',
        any: 'a decimal',
      }[type.sign];
      checks.push({
        when: `${present}(NOT regexp_full_match(${value}, '${pattern}')${zero})`,
        reason: `${sqlString(`${column.name} must be ${what} with at most 2 decimal places, got `)} || ${shown(value)}`,
      });
      break;
    }
    case 'percent':
      checks.push({
        when: `${present}NOT regexp_full_match(${value}, '[0-9]{1,5}(\\.[0-9]{1,4})?')`,
        reason: `${sqlString(`${column.name} must be a percentage >= 0 with at most 4 decimal places, got `)} || ${shown(value)}`,
      });
      break;
    case 'bool':
      checks.push({
        when: `${present}lower(${value}) NOT IN ('true', 'false')`,
        reason: `${sqlString(`${column.name} must be true or false, got `)} || ${shown(value)}`,
      });
      break;
    case 'enum': {
      const values = ENUM_TYPES[type.type];
      const message =
        values === CATEGORIES
          ? 'unknown category '
          : `${column.name} must be one of ${values.join(', ')}; got `;
      checks.push({
        when: `${present}${value} NOT IN (${values.map(sqlString).join(', ')})`,
        reason: `${sqlString(message)} || ${shown(value)}`,
      });
      break;
    }
    case 'currency':
      checks.push({
        when: `${present}NOT regexp_full_match(${value}, '[A-Z]{3}')`,
        reason: `${sqlString(`${column.name} must be an ISO 4217 code such as USD, got `)} || ${shown(value)}`,
      });
      break;
    case 'sha256':
      checks.push({
        when: `${present}NOT regexp_full_match(${value}, '[0-9a-f]{64}')`,
        reason: sqlString(
          `${column.name} must be 64 lowercase hex characters (the SHA-256 of the token)`,
        ),
      });
      break;
    case 'text':
      break;
  }
  return checks;
}

interface CrossChecks {
  joins: string[];
  checks: Check[];
}

/** The first occurrence of a key wins; later ones are reported as duplicates. */
function duplicateCheck(table: string, keys: string[], what: string): CrossChecks {
  const on = keys.map((key) => `d.${key} = s.${key}`).join(' AND ');
  const keyList = keys.join(', ');
  return {
    joins: [
      `LEFT JOIN (SELECT ${keyList}, min(rowid) AS first_row FROM ${table} GROUP BY ${keyList} HAVING count(*) > 1) d ON ${on}`,
    ],
    checks: [
      {
        when: 'd.first_row IS NOT NULL AND s.rowid > d.first_row',
        reason: `${sqlString(`duplicate ${what} `)} || ${keys.map((key) => shown(`s.${key}`)).join(` || ' ' || `)}`,
        relatedRow: 'd.first_row',
      },
    ],
  };
}

/**
 * Where the rows a check looks up live: the staged input for a build; for a change set, the
 * store's rows as the change set would leave them (ingest/changes.ts).
 */
export type Lookup = (table: TableName) => string;

function userMustExist(alias: string, lookup: Lookup): CrossChecks {
  return {
    joins: [
      `LEFT JOIN (SELECT DISTINCT id FROM ${lookup('users')}) ${alias} ON ${alias}.id = s.user_id`,
    ],
    checks: [
      {
        when: `${alias}.id IS NULL`,
        reason: `'user ' || ${shown('s.user_id')} || ' does not exist in users'`,
      },
    ],
  };
}

/** One row per id (the first), so a duplicate elsewhere cannot multiply rows here. */
function firstById(table: string, columns: string[]): string {
  const picked = columns.map((column) => `arg_min(${column}, rowid) AS ${column}`).join(', ');
  return `(SELECT id, ${picked} FROM ${table} GROUP BY id)`;
}

function accountMustExist(lookup: Lookup): CrossChecks {
  return {
    joins: [
      `LEFT JOIN ${firstById(lookup('accounts'), ['user_id', 'type'])} a ON a.id = s.account_id`,
    ],
    checks: [
      {
        when: 'a.id IS NULL',
        reason: `'account ' || ${shown('s.account_id')} || ' does not exist in accounts'`,
      },
    ],
  };
}

function crossChecks(table: TableName, source: string, lookup: Lookup): CrossChecks[] {
  const duplicateId = () => duplicateCheck(source, ['id'], 'id');
  switch (table) {
    case 'users':
      return [duplicateId()];
    case 'access_tokens':
      return [userMustExist('u', lookup), duplicateCheck(source, ['token_hash'], 'token_hash')];
    case 'links':
      return [userMustExist('u', lookup), duplicateId()];
    case 'accounts':
      return [
        {
          joins: [`LEFT JOIN ${firstById(lookup('links'), ['user_id'])} l ON l.id = s.link_id`],
          checks: [
            {
              when: 'l.id IS NULL',
              reason: `'link ' || ${shown('s.link_id')} || ' does not exist in links'`,
            },
            {
              when: 'l.user_id <> s.user_id',
              reason: `'link ' || ${shown('s.link_id')} || ' belongs to another user (' || ${shown('l.user_id')} || ')'`,
            },
          ],
        },
        {
          joins: [
            `LEFT JOIN (SELECT user_id, arg_min(coalesce(currency, 'USD'), rowid) AS currency FROM ${lookup('accounts')} GROUP BY user_id) c ON c.user_id = s.user_id`,
          ],
          checks: [
            {
              when: `coalesce(s.currency, 'USD') <> c.currency`,
              reason: `'currency ' || coalesce(s.currency, 'USD') || ' differs from the currency of the user''s other accounts (' || c.currency || '); one user''s amounts are in one currency'`,
            },
          ],
        },
        duplicateId(),
      ];
    case 'transactions':
      return [
        // A missing user first: the account check below would name it "another user".
        userMustExist('u', lookup),
        accountMustExist(lookup),
        {
          joins: [],
          checks: [
            {
              when: 'a.user_id <> s.user_id',
              reason: `'account ' || ${shown('s.account_id')} || ' belongs to another user (' || ${shown('a.user_id')} || '), not to ' || ${shown('s.user_id')}`,
            },
          ],
        },
        duplicateId(),
      ];
    case 'balances':
      return [
        accountMustExist(lookup),
        duplicateCheck(source, ['account_id', 'as_of'], 'balance for account and date'),
      ];
    case 'pay_statements':
      return [
        userMustExist('u', lookup),
        {
          joins: [
            `LEFT JOIN ${firstById(lookup('links'), ['user_id', 'type'])} l ON l.id = s.link_id`,
          ],
          checks: [
            {
              when: 'l.id IS NULL',
              reason: `'link ' || ${shown('s.link_id')} || ' does not exist in links'`,
            },
            {
              when: 'l.user_id <> s.user_id',
              reason: `'link ' || ${shown('s.link_id')} || ' belongs to another user (' || ${shown('l.user_id')} || ')'`,
            },
            {
              when: `l.type <> 'payroll'`,
              reason: `'link ' || ${shown('s.link_id')} || ' is a ' || l.type || ' link; pay statements need a payroll link'`,
            },
            {
              when: 'try_cast(s.period_start AS DATE) > try_cast(s.period_end AS DATE)',
              reason: `'period_start is after period_end'`,
            },
          ],
        },
        duplicateId(),
      ];
    case 'liabilities':
      return [
        accountMustExist(lookup),
        {
          joins: [],
          checks: [
            {
              when: `a.type NOT IN ('credit', 'loan')`,
              reason: `'account ' || ${shown('s.account_id')} || ' is of type ' || a.type || '; liabilities belong to credit or loan accounts'`,
            },
          ],
        },
        duplicateCheck(source, ['account_id'], 'liability for account'),
      ];
  }
}

export interface ValidationOptions {
  /** The rows checked (default: the table's staged input). */
  source?: string;
  /** Where referenced rows are looked up (default: the staged input). */
  lookup?: Lookup;
  /** The columns whose values are checked (default: every column of the table). */
  columns?: readonly Column[];
  /** Check references and duplicates too (default true). */
  crossChecks?: boolean;
}

/**
 * The query listing the first `limit` bad rows of a staged table: (row_index, reason,
 * related_row), related_row being the row the reason refers to (or NULL).
 */
export function validationSql(
  table: TableName,
  limit: number,
  options: ValidationOptions = {},
): string {
  const source = options.source ?? stagedTable(table);
  const cross =
    options.crossChecks === false ? [] : crossChecks(table, source, options.lookup ?? stagedTable);
  const checks = [
    ...(options.columns ?? TABLES[table].columns).flatMap(columnChecks),
    ...cross.flatMap((part) => part.checks),
  ];
  const cases = checks.map((check) => `    WHEN ${check.when} THEN ${check.reason}`).join('\n');
  const related = checks
    .map((check) => `    WHEN ${check.when} THEN ${check.relatedRow ?? 'NULL'}`)
    .join('\n');
  return `SELECT row_index, reason, related_row FROM (
  SELECT s.rowid AS row_index, CASE
${cases}
  END AS reason, CASE
${related}
  END AS related_row
  FROM ${source} s
  ${cross.flatMap((part) => part.joins).join('\n  ')}
) WHERE reason IS NOT NULL ORDER BY row_index LIMIT ${limit}`;
}
