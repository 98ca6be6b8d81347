/**
 * Int-or-percent values (intstr.IntOrString): a count such as 2, or a share such as "25%" that
 * is scaled against a total (a Deployment's maxSurge, a PodDisruptionBudget's minAvailable,
 * a StatefulSet's maxUnavailable). One parser so every caller reads "25%" the same way.
 */

/** IntOrString is an intstr.IntOrString: a count, or a percentage such as "25%". */
export type IntOrString = number | string;

/**
 * scaledValue resolves an int-or-percent against `total`: a number is taken as is; "N%" is N%
 * of total, rounded up when `roundUp` and down otherwise (Kubernetes'
 * GetScaledValueFromIntOrPercent). Throws RangeError for a string that is not a whole-number
 * percentage; the caller decides what that means (validation normally rejects such values).
 */
export function scaledValue(value: IntOrString, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const match = /^([+-]?\d+)%$/.exec(value);
  if (!match) throw new RangeError(`invalid value for IntOrString: invalid value "${value}": must be an integer or percentage (e.g. '5%')`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
