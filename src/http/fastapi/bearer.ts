import { pyStrip } from './pydantic.ts';

/**
 * FastAPI's `get_authorization_scheme_param`: `value.partition(" ")`, then the credentials
 * `.strip()`ped (Python's whitespace set). So `Bearer  <token>` and `Bearer \t<token>` carry the
 * token, `Bearer\t<token>` has no space and so no credentials, and `Bearer <token> x` keeps
 * the inner space (a malformed token).
 */
export function authorizationSchemeParam(value: string | undefined): [string, string] {
  if (!value) return ['', ''];
  const at = value.indexOf(' ');
  return at < 0 ? [value, ''] : [value.slice(0, at), pyStrip(value.slice(at + 1))];
}
