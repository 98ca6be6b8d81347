/** IntOrString rules shared by the rolling-update validations of Deployments and DaemonSets
 * (maxSurge / maxUnavailable): a non-negative integer or a valid percentage. */
/** IntOrString is the decoded shape of Kubernetes' intstr.IntOrString. */
export type IntOrString = number | string;

import type { FieldError } from '../resource-definition.js';
import { invalid, isValidPercent, validateNonnegativeField } from '../validation.js';

/** validateIntOrPercent accepts a non-negative integer or a percentage like "25%". */
export function validateIntOrPercent(value: IntOrString, field: string): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((detail) => invalid(field, value, detail));
  return validateNonnegativeField(value, field);
}

/** percentValue is the number of a valid percentage ("25%" → 25), else undefined. */
export function percentValue(value: IntOrString): number | undefined {
  return typeof value === 'string' && isValidPercent(value).length === 0 ? Number(value.slice(0, -1)) : undefined;
}

/** intOrPercentValue reads the number in an IntOrString; a string that is neither a percentage
 * nor an integer counts as 0, as intstr's IntValue() does. */
export function intOrPercentValue(value: IntOrString): number {
  if (typeof value === 'number') return value;
  return percentValue(value) ?? (/^[+-]?\d+$/.test(value) ? Number(value) : 0);
}
