/** The `categories` filter shared by the spending and transactions endpoints. */
import type { FastifyRequest } from 'fastify';
import { CATEGORIES, type Category } from '../../domain/taxonomy.ts';
import { qList, type ValidationErrorItem, valueError } from '../../http/fastapi/index.ts';
import { rawParameter } from '../../http/fastapi/raw-query.ts';

const CATEGORY_BY_LOWER_NAME = new Map(CATEGORIES.map((name) => [name.toLowerCase(), name]));
const VALID_CATEGORIES = CATEGORIES.join(', ');

/** The query parameter: comma-separated or repeated names, documented with the valid ones. */
export const categoriesParameter = qList({
  description: `Category names (case-insensitive), comma-separated (\`categories=Travel,Medical\`), repeated (\`categories=Travel&categories=Medical\`) or both; blanks trimmed, empty items ignored; no item at all (\`categories=\`) means no filter; an unknown name answers 422. Valid names (GET /v1/categories): ${VALID_CATEGORIES}`,
});

/**
 * The taxonomy names the parameter's items stand for (matched case-insensitively), or the 422
 * item for the first unknown one: a value error naming it and listing the valid names, whose
 * `input` is the parameter as sent.
 */
export function resolveCategories(
  request: FastifyRequest,
  names: readonly string[],
): { categories: Category[]; problem: ValidationErrorItem | null } {
  const categories: Category[] = [];
  for (const name of names) {
    const category = CATEGORY_BY_LOWER_NAME.get(name.toLowerCase());
    if (!category) {
      return {
        categories,
        problem: valueError(
          'categories',
          `unknown category '${name}'; valid categories: ${VALID_CATEGORIES}`,
          rawParameter(request, 'categories'),
        ),
      };
    }
    categories.push(category);
  }
  return { categories, problem: null };
}
