/**
 * Which transactions count (the spending basis), named once. The engines hold a row to these
 * rules with one SQL predicate per dialect (sql/counted.ts) and the builders apply the
 * same predicate when they derive the spending rollups.
 *
 * 1. it belongs to the token's user, on an account of the user's own;
 * 2. `transacted_at` is inside the window;
 * 3. it is not hidden and not an internal transfer;
 * 4. its account's `type` is not `investment`;
 * 5. it is a DEBIT (or a CREDIT too, with `include_income`);
 * 6. it is not a DEBIT transfer to an investment platform (domain/platforms.ts);
 * 7. it matches `link_id`, `account_ids` and `categories` when given.
 *
 * Rules 3 and 4 hold of a row whatever the question: they decide what a rollup may keep.
 * Income reads the same basis for CREDITs (rules 1-4).
 */

/** The row flags rule 3 excludes. */
export const EXCLUDED_FLAGS = ['is_hidden', 'is_internal_transfer'] as const;

/** The account type rule 4 excludes. */
export const EXCLUDED_ACCOUNT_TYPE = 'investment';
