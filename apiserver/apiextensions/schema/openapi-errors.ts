/**
 * The errors of kube-openapi's schema validator (k8s.io/kube-openapi/pkg/validation), worded
 * as it words them (`spec.count in body should be less than or equal to 10`), and their
 * translation into field errors exactly as kube-apiserver's kubeOpenAPIResultToFieldErrors
 * does: Required, NotSupported, TooLong and TooMany get their own types, type mismatches are
 * TypeInvalid, everything else is Invalid with the message as detail. Errors that are not
 * about one field (anyOf, range checks) land on the base path — `<nil>` for a whole object.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { notSupported } from '../../api/validation.js';
import { tooLong, tooMany, typeInvalid } from './field-errors.js';
import { goQuote } from './go-format.js';

export type ErrorCode =
  | 'invalidType'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'maximum'
  | 'minimum'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive';

/** ValidationError is kube-openapi's errors.Validation: about the value at `name`. */
export interface ValidationError {
  code: ErrorCode;
  name: string;
  message: string;
  value?: unknown;
  /** The limit for tooLong / maxItems / tooManyProperties. */
  valid?: number;
  values?: unknown[];
}

/** PlainError is a composite or range-check error that names no field. */
export interface PlainError {
  code: 'plain';
  message: string;
}

export type OpenApiError = ValidationError | PlainError;

/** Result accumulates errors (deduplicated by message, as kube-openapi does) and counts the
 * checks that ran, which picks the closest alternative when anyOf/oneOf fail. */
export class Result {
  readonly errors: OpenApiError[] = [];
  matchCount = 0;

  add(error: OpenApiError): this {
    if (!this.errors.some((e) => e.message === error.message)) this.errors.push(error);
    return this;
  }

  merge(...others: Array<Result | undefined>): this {
    for (const other of others) {
      if (!other) continue;
      for (const error of other.errors) this.add(error);
      this.matchCount += other.matchCount;
    }
    return this;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

/** failure is a Result holding one error (kube-openapi's errorHelp.sErr). */
export const failure = (error: OpenApiError): Result => new Result().add(error);

const v = (code: ErrorCode, name: string, message: string, extra: Partial<ValidationError> = {}): ValidationError => ({ code, name, message, ...extra });

/** The kube-openapi messages; `in` is always "body" for a custom resource. */
export const openapi = {
  invalidType: (name: string, typeName: string, value: unknown) =>
    v('invalidType', name, `${name} in body must be of type ${typeName}${typeof value === 'string' ? `: ${goQuote(value)}` : ''}`, { value }),
  required: (name: string) => v('required', name, `${name} in body is required`),
  tooLong: (name: string, max: number, value: string) => v('tooLong', name, `${name} in body should be at most ${max} chars long`, { value, valid: max }),
  tooShort: (name: string, min: number, value: string) => v('tooShort', name, `${name} in body should be at least ${min} chars long`, { value, valid: min }),
  pattern: (name: string, pattern: string, value: string) => v('pattern', name, `${name} in body should match '${pattern}'`, { value }),
  enum: (name: string, value: unknown, values: unknown[]) => v('enum', name, `${name} in body should be one of ${JSON.stringify(values)}`, { value, values }),
  multipleOf: (name: string, factor: string, value: unknown) => v('multipleOf', name, `${name} in body should be a multiple of ${factor}`, { value }),
  maximum: (name: string, max: string, exclusive: boolean, value: unknown) =>
    v('maximum', name, `${name} in body should be less than ${exclusive ? '' : 'or equal to '}${max}`, { value }),
  minimum: (name: string, min: string, exclusive: boolean, value: unknown) =>
    v('minimum', name, `${name} in body should be greater than ${exclusive ? '' : 'or equal to '}${min}`, { value }),
  unique: (name: string) => v('unique', name, `${name} in body shouldn't contain duplicates`),
  maxItems: (name: string, max: number, size: number) => v('maxItems', name, `${name} in body should have at most ${max} items`, { value: size, valid: max }),
  minItems: (name: string, min: number, size: number) => v('minItems', name, `${name} in body should have at least ${min} items`, { value: size, valid: min }),
  tooFewProperties: (name: string, min: number, size: number) =>
    v('tooFewProperties', name, `${name} in body should have at least ${min} properties`, { value: size, valid: min }),
  tooManyProperties: (name: string, max: number, size: number) =>
    v('tooManyProperties', name, `${name} in body should have at most ${max} properties`, { value: size, valid: max }),
  unallowedProperty: (name: string, key: string) => v('unallowedProperty', name, `${name}.${key} in body is a forbidden property`, { value: key }),
  multipleOfMustBePositive: (name: string, factor: string, value: number) =>
    v('multipleOfMustBePositive', name, `factor MultipleOf declared for ${name} must be positive: ${factor}`, { value }),
};

const plain = (message: string): PlainError => ({ code: 'plain', message });

/** The composite messages (anyOf/oneOf/allOf/not) and range-check messages. */
export const composite = {
  anyOf: (path: string) => plain(`${goQuote(path)} must validate at least one schema (anyOf)`),
  oneOf: (path: string, detail: string) => plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${detail}`),
  allOf: (path: string, detail: string) => plain(`${goQuote(path)} must validate all the schemas (allOf)${detail}`),
  not: (path: string) => plain(`${goQuote(path)} must not validate the schema (not)`),
  range: (prefix: string, typeName: string, format: string, path: string) =>
    plain(`${prefix} value must be of type ${typeName} ${format ? `with format ${format}` : '(default format)'} in ${path}`),
};

/** toFieldErrors converts kube-openapi errors to field errors under `base` (undefined: the
 * nil path, printed `<nil>`; e.g. `status` for the status schema, `...default` for defaults). */
export function toFieldErrors(errors: readonly OpenApiError[], base: string | undefined): FieldError[] {
  return errors.map((error) => toFieldError(error, base));
}

function toFieldError(error: OpenApiError, base: string | undefined): FieldError {
  const baseField = base ?? '<nil>';
  if (error.code === 'plain') return { type: 'FieldValueInvalid', field: baseField, value: '', detail: error.message };
  const name = error.name.replace(/^\./, '');
  const field = name && error.name !== '.' ? (base ? `${base}.${name}` : name) : baseField;
  const value = error.value ?? '';
  switch (error.code) {
    case 'required':
      return { type: 'FieldValueRequired', field };
    case 'enum':
      return notSupported(
        field,
        error.value ?? null,
        (error.values ?? []).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))),
      );
    case 'tooLong':
      return tooLong(field, error.valid ?? -1);
    case 'maxItems':
    case 'tooManyProperties':
      return tooMany(field, typeof error.value === 'number' ? error.value : -1, error.valid ?? -1);
    case 'invalidType':
      return typeInvalid(field, value, error.message);
    default:
      return { type: 'FieldValueInvalid', field, value, detail: error.message };
  }
}
