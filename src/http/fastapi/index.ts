export { validatorCompiler } from './compiler.ts';
export {
  isRequestValidationError,
  RequestValidationError,
  type ValidationErrorItem,
  valueError,
} from './errors.ts';
export type { PydanticError } from './pydantic.ts';
export {
  type PydanticIssueParams,
  qBool,
  qDate,
  qDecimal,
  qEnum,
  qInt,
  qList,
  qStr,
  queryObject,
} from './query.ts';
