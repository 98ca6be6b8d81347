/**
 * One term of a label selector (Kubernetes' labels.Requirement): construction with validation,
 * matching and the canonical string form. labels.ts composes these into a LabelSelectorQuery.
 */
import { aggregateMessages, invalidValueMessage, quoteGoString, validateLabelKey, validateLabelValue } from './label-validation.js';
import { SelectorParseError } from './selector-parse-error.js';

/** LabelOperators are the selector operators, spelled as Kubernetes' selection.Operator values. */
export const LabelOperators = {
  In: 'in',
  NotIn: 'notin',
  Equals: '=',
  DoubleEquals: '==',
  NotEquals: '!=',
  Exists: 'exists',
  DoesNotExist: '!',
  GreaterThan: 'gt',
  LessThan: 'lt',
} as const;

/** LabelOperator is one of LabelOperators. */
export type LabelOperator = (typeof LabelOperators)[keyof typeof LabelOperators];

/** LabelRequirement is one ANDed term of a label selector. `values` holds one value for the
 * equality and gt/lt operators, at least one for in/notin, none for exists and '!'. Instances
 * from createLabelRequirement are frozen and valid. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** Binary operators first, then unary ones: the order Kubernetes lists them in errors. */
const SUPPORTED_OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** parseInt64 mirrors strconv.ParseInt(s, 10, 64): undefined when Go would return an error. */
function parseInt64(text: string): bigint | undefined {
  if (!INT64.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

function operatorErrors(operator: LabelOperator, values: readonly string[]): string[] {
  switch (operator) {
    case LabelOperators.In:
    case LabelOperators.NotIn:
      return values.length === 0 ? [invalidValueMessage('values', values, "for 'in', 'notin' operators, values set can't be empty")] : [];
    case LabelOperators.Equals:
    case LabelOperators.DoubleEquals:
    case LabelOperators.NotEquals:
      return values.length !== 1 ? [invalidValueMessage('values', values, 'exact-match compatibility requires one single value')] : [];
    case LabelOperators.Exists:
    case LabelOperators.DoesNotExist:
      return values.length !== 0 ? [invalidValueMessage('values', values, 'values set must be empty for exists and does not exist')] : [];
    case LabelOperators.GreaterThan:
    case LabelOperators.LessThan:
      return integerValueErrors(values);
    default: {
      const unknown: never = operator;
      const supported = SUPPORTED_OPERATORS.map((op) => quoteGoString(op)).join(', ');
      return [`operator: Unsupported value: ${quoteGoString(String(unknown))}: supported values: ${supported}`];
    }
  }
}

function integerValueErrors(values: readonly string[]): string[] {
  const errors: string[] = [];
  if (values.length !== 1) {
    errors.push(invalidValueMessage('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
  }
  values.forEach((value, i) => {
    if (parseInt64(value) === undefined) {
      errors.push(invalidValueMessage(`values[${i}]`, value, "for 'Gt', 'Lt' operators, the value must be an integer"));
    }
  });
  return errors;
}

/** labelRequirementErrors validates a requirement as Kubernetes' NewRequirement does and returns
 * its field errors (`key: ...`, `values[0][key]: ...`) in Kubernetes' wording; empty when valid. */
export function labelRequirementErrors(key: string, operator: LabelOperator, values: readonly string[]): string[] {
  const errors: string[] = [];
  const keyErrors = validateLabelKey(key);
  if (keyErrors.length > 0) errors.push(invalidValueMessage('key', key, keyErrors.join('; ')));
  errors.push(...operatorErrors(operator, values));
  values.forEach((value, i) => {
    const valueErrors = validateLabelValue(value);
    if (valueErrors.length > 0) errors.push(invalidValueMessage(`values[${i}][${key}]`, value, valueErrors.join('; ')));
  });
  return errors;
}

/** createLabelRequirement builds a frozen, validated requirement. `values` is copied, never
 * sorted or deduplicated (the string parser does that itself, as Kubernetes' does). Throws
 * SelectorParseError with the aggregated field errors when the requirement is invalid. */
export function createLabelRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const errors = labelRequirementErrors(key, operator, values);
  if (errors.length > 0) throw new SelectorParseError(aggregateMessages(errors));
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}

/** labelRequirementMatches applies one requirement to a label set. A missing key matches only
 * notin, != and '!'; gt/lt compare as 64-bit integers and never match a non-integer label. */
export function labelRequirementMatches(requirement: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const { key, operator, values } = requirement;
  const present = Object.hasOwn(labels, key);
  const value = present ? labels[key] : undefined;
  switch (operator) {
    case LabelOperators.In:
    case LabelOperators.Equals:
    case LabelOperators.DoubleEquals:
      return value !== undefined && values.includes(value);
    case LabelOperators.NotIn:
    case LabelOperators.NotEquals:
      return value === undefined || !values.includes(value);
    case LabelOperators.Exists:
      return present;
    case LabelOperators.DoesNotExist:
      return !present;
    case LabelOperators.GreaterThan:
    case LabelOperators.LessThan:
      return compareAsIntegers(operator, value, values);
    default: {
      // Only reachable through a hand-built requirement; Kubernetes answers false.
      const unhandled: never = operator;
      void unhandled;
      return false;
    }
  }
}

function compareAsIntegers(operator: 'gt' | 'lt', labelValue: string | undefined, values: readonly string[]): boolean {
  const actual = labelValue === undefined ? undefined : parseInt64(labelValue);
  const bound = values.length === 1 ? parseInt64(values[0] ?? '') : undefined;
  if (actual === undefined || bound === undefined) return false;
  return operator === LabelOperators.GreaterThan ? actual > bound : actual < bound;
}

const OPERATOR_TEXT: Record<LabelOperator, string> = {
  in: ' in ',
  notin: ' notin ',
  '=': '=',
  '==': '==',
  '!=': '!=',
  exists: '',
  '!': '',
  gt: '>',
  lt: '<',
};

/** formatLabelRequirement renders a requirement in Kubernetes' canonical form: `!k`, `k`, `k=v`,
 * `k==v`, `k!=v`, `k>1`, `k<1`, `k in (a,b)`, `k notin (a,b)`; several values are sorted. */
export function formatLabelRequirement(requirement: LabelRequirement): string {
  const { key, operator, values } = requirement;
  if (operator === LabelOperators.DoesNotExist) return `!${key}`;
  if (operator === LabelOperators.Exists) return key;
  const joined = values.length === 1 ? (values[0] ?? '') : [...values].sort(compareStrings).join(',');
  const isSet = operator === LabelOperators.In || operator === LabelOperators.NotIn;
  return `${key}${OPERATOR_TEXT[operator]}${isSet ? `(${joined})` : joined}`;
}

/** compareStrings orders strings by code unit, as Go's sort.Strings does for ASCII. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
