/**
 * kube-openapi's string, format and number validators for one value. Numbers follow Go's
 * decoding: integers are int64 (checked and printed as integers), everything else float64
 * (printed as Go's %v does). `int32`/`float` formats add a range check whose failure names no
 * field (`Checked value must be of type integer with format int32 in spec.port`).
 */
import { effectiveFormat, isKnownFormat, validatesFormat } from './formats.js';
import { goFloat, isGoInt } from './go-format.js';
import { composite, failure, openapi, Result } from './openapi-errors.js';
import { compileGoRegexp } from './pattern.js';
import type { JSONSchemaProps } from './types.js';

/** validateString checks maxLength, minLength and pattern; the first failure ends the check. */
export function validateString(schema: JSONSchemaProps, value: string, path: string): Result | undefined {
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) return failure(openapi.tooLong(path, schema.maxLength, value));
  if (schema.minLength !== undefined && length < schema.minLength) return failure(openapi.tooShort(path, schema.minLength, value));
  if (schema.pattern) {
    const regexp = compileGoRegexp(schema.pattern);
    if (typeof regexp === 'string') return failure(openapi.pattern(path, `${schema.pattern}, but pattern is invalid: ${regexp}`, value));
    if (!regexp.test(value)) return failure(openapi.pattern(path, schema.pattern, value));
  }
  return undefined;
}

/** formatApplies: the format validator runs for strings of a known format. */
export const formatApplies = (schema: JSONSchemaProps): boolean => isKnownFormat(effectiveFormat(schema));

/** validateFormat checks a string against the schema's (known) format. */
export function validateFormat(schema: JSONSchemaProps, value: string, path: string): Result | undefined {
  const format = effectiveFormat(schema);
  return validatesFormat(format, value) ? undefined : failure(openapi.invalidType(path, format, value));
}

/** numericType is the type and format the number validator enforces ranges for: only an
 * unambiguous `integer` (int32/int64) or `number` (float/double). */
function numericType(schema: JSONSchemaProps): { type: string; format: string } {
  if (schema['x-kubernetes-int-or-string']) return { type: '', format: '' };
  const format = effectiveFormat(schema);
  if (schema.type === 'integer') return { type: 'integer', format: format === 'int32' || format === 'int64' ? format : '' };
  if (schema.type === 'number') return { type: 'number', format: format === 'float' || format === 'double' ? format : '' };
  return { type: '', format: '' };
}

/** inRange is kube-openapi's IsValueValidAgainstRange for the formats JSON values can break. */
function inRange(value: number, type: string, format: string): boolean {
  if (type === 'integer') {
    if (!isGoInt(value)) return false;
    return format !== 'int32' || (value >= -(2 ** 31) && value <= 2 ** 31 - 1);
  }
  if (format === 'float') return Number.isFinite(Math.fround(value));
  return true;
}

function rangeCheck(result: Result, value: number, numeric: { type: string; format: string }, prefix: string, path: string): boolean {
  if (inRange(value, numeric.type, numeric.format)) return true;
  result.add(composite.range(prefix, numeric.type || 'number', numeric.format, path));
  return false;
}

/** bound renders a limit as kube-openapi does: as an integer when compared with an integer. */
const bound = (limit: number, value: number): string => (isGoInt(value) && Number.isInteger(limit) ? String(limit) : goFloat(limit));

/** validateNumber checks the value's range for its format, multipleOf, minimum and maximum. */
export function validateNumber(schema: JSONSchemaProps, value: number, path: string): Result {
  const result = new Result();
  const numeric = numericType(schema);
  rangeCheck(result, value, numeric, 'Checked', path);
  if (schema.multipleOf !== undefined) {
    rangeCheck(result, schema.multipleOf, numeric, 'MultipleOf', path);
    const error = multipleOfError(schema.multipleOf, value, path);
    if (error) result.add(error);
  }
  if (schema.minimum !== undefined) {
    rangeCheck(result, schema.minimum, numeric, 'Minimum boundary', path);
    const exclusive = schema.exclusiveMinimum === true;
    if (exclusive ? value <= schema.minimum : value < schema.minimum) result.add(openapi.minimum(path, bound(schema.minimum, value), exclusive, value));
  }
  if (schema.maximum !== undefined) {
    rangeCheck(result, schema.maximum, numeric, 'Maximum boundary', path);
    const exclusive = schema.exclusiveMaximum === true;
    if (exclusive ? value >= schema.maximum : value > schema.maximum) result.add(openapi.maximum(path, bound(schema.maximum, value), exclusive, value));
  }
  result.matchCount++;
  return result;
}

function multipleOfError(factor: number, value: number, path: string) {
  const shown = bound(factor, value);
  if (factor <= 0) return openapi.multipleOfMustBePositive(path, shown, factor);
  if (isGoInt(value) && Number.isInteger(factor)) return value % factor === 0 ? undefined : openapi.multipleOf(path, shown, value);
  const quotient = factor < 1 ? (1 / factor) * value : value / factor;
  return isJsonInteger(quotient) ? undefined : openapi.multipleOf(path, shown, value);
}

/** isJsonInteger is go-openapi's IsFloat64AJSONInteger: an integer within 2^53, allowing a
 * relative error of 1e-9 against the value truncated toward zero (multipleOf divides by
 * multiplying with 1/factor for factors below 1, so 0.3 is a multiple of 0.1). */
function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false;
  const g = Math.trunc(f);
  return Math.abs(f - g) / (f + g) < 1e-9;
}
