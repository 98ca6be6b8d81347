/**
 * DaemonSet validation after Kubernetes' ValidateDaemonSetSpec: the selector and template a
 * ReplicaSet's must satisfy, the update strategy (RollingUpdate's maxUnavailable/maxSurge or
 * OnDelete), minReadySeconds and revisionHistoryLimit. Messages and paths are Kubernetes'.
 */
import type { FieldError } from '../resource-definition.js';
import { forbidden, invalid, notSupported, validateNonnegativeField } from '../validation.js';
import type { DaemonSet } from './daemon-set.js';
import type { IntOrString } from './int-or-percent.js';
import { intOrPercentValue, percentValue, validateIntOrPercent } from './int-or-percent.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';

type UpdateStrategy = NonNullable<DaemonSet['spec']['updateStrategy']>;

/** validateDaemonSet checks a defaulted DaemonSet (pure); `old` is set on update, where the
 * selector must not change. */
export function validateDaemonSet(ds: DaemonSet, old?: DaemonSet): FieldError[] {
  const { spec } = ds;
  return [
    ...validateSelectorAndTemplate(spec),
    ...validateUpdateStrategy(spec.updateStrategy ?? {}, 'spec.updateStrategy'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
    ...(old ? validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector') : []),
  ];
}

function validateUpdateStrategy(strategy: UpdateStrategy, field: string): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return strategy.rollingUpdate ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'OnDelete'")] : [];
    case 'RollingUpdate':
      if (!strategy.rollingUpdate)
        return [{ type: 'FieldValueRequired', field: `${field}.rollingUpdate`, detail: 'this should be defaulted and never be nil' }];
      return validateRollingUpdate(strategy.rollingUpdate, `${field}.rollingUpdate`);
    case undefined:
      return [notSupported(`${field}.type`, '', ['OnDelete', 'RollingUpdate'])];
    default: {
      const unreachable: never = strategy.type;
      return [notSupported(`${field}.type`, unreachable, ['OnDelete', 'RollingUpdate'])];
    }
  }
}

function validateRollingUpdate(rollingUpdate: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, field: string): FieldError[] {
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const errors = [...validateIntOrPercent(maxUnavailable, `${field}.maxUnavailable`), ...validateIntOrPercent(maxSurge, `${field}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  for (const [name, value] of [
    ['maxUnavailable', maxUnavailable],
    ['maxSurge', maxSurge],
  ] as const) {
    const percent = percentValue(value);
    if (percent !== undefined && percent > 100) errors.push(invalid(`${field}.${name}`, value, 'must not be greater than 100%'));
  }
  return errors;
}
