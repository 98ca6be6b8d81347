/**
 * Query-string helpers. Kubernetes clients disagree on spelling (kubectl sends `watch=true`,
 * the Python client `watch=True`), so booleans are parsed as Go's strconv.ParseBool does,
 * and unknown parameters are ignored rather than rejected.
 */
import { badRequest } from '../api/api-error.js';

export type Query = Record<string, string | string[] | undefined>;

const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_VALUES = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** queryString returns the first value of a parameter. */
export function queryString(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** queryBool parses a boolean parameter leniently; absent or empty → undefined. */
export function queryBool(query: Query, name: string): boolean | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  throw badRequest(`invalid boolean value for parameter ${name}: ${JSON.stringify(value)}`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * queryInt parses an integer parameter as kube-apiserver does, a Go int64 (limit,
 * timeoutSeconds, gracePeriodSeconds); absent or empty → undefined. Outside int64 is a 400;
 * inside it, magnitudes past 2^53 come back clamped to ±Number.MAX_SAFE_INTEGER, which every
 * caller treats as "no bound" anyway, so no imprecise number reaches the store or a timer.
 */
export function queryInt(query: Query, name: string): number | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (!/^[-+]?\d+$/.test(value)) throw badRequest(`invalid integer value for parameter ${name}: ${JSON.stringify(value)}`);
  const parsed = BigInt(value);
  if (parsed < INT64_MIN || parsed > INT64_MAX) throw badRequest(`invalid integer value for parameter ${name}: ${JSON.stringify(value)}: value out of range`);
  return clampToSafe(parsed);
}

/** parseUint64 parses a Go uint64 text (a resourceVersion), clamped to Number.MAX_SAFE_INTEGER
 * past 2^53 (a revision no store reaches, so still "too large"), or says why it is not one. */
export function parseUint64(text: string): { value: number } | { error: 'invalid syntax' | 'value out of range' } {
  if (!/^\d+$/.test(text)) return { error: 'invalid syntax' };
  const parsed = BigInt(text);
  if (parsed > UINT64_MAX) return { error: 'value out of range' };
  return { value: clampToSafe(parsed) };
}

function clampToSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (value < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(value);
}

export const FieldValidations = ['Strict', 'Warn', 'Ignore'] as const;
export type FieldValidation = (typeof FieldValidations)[number];

/** fieldValidation reads the fieldValidation parameter (default Warn, as kube-apiserver). */
export function fieldValidation(query: Query): FieldValidation {
  const value = queryString(query, 'fieldValidation');
  if (value === undefined || value === '') return 'Warn';
  const match = FieldValidations.find((v) => v.toLowerCase() === value.toLowerCase());
  if (!match) throw badRequest(`fieldValidation must be one of Strict, Warn or Ignore, got ${JSON.stringify(value)}`);
  return match;
}

/** isDryRun reads dryRun=All; any other non-empty value is rejected as Kubernetes does. */
export function isDryRun(query: Query): boolean {
  const value = query['dryRun'];
  const values = Array.isArray(value) ? value : value ? [value] : [];
  for (const v of values) if (v !== 'All') throw badRequest(`Invalid dry run value: ${JSON.stringify(v)}, supported values: All`);
  return values.length > 0;
}
