/**
 * Deployment validation after Kubernetes' ValidateDeploymentSpec: everything a ReplicaSet
 * checks (selector, template, replicas), plus the rollout strategy, history limit and
 * progress deadline. Messages and field paths are Kubernetes' own.
 */
import type { FieldError } from '../resource-definition.js';
import { forbidden, invalid, validateNonnegativeField } from '../validation.js';
import type { Deployment } from './deployment.js';
import type { IntOrString } from './int-or-percent.js';
import { intOrPercentValue, percentValue, validateIntOrPercent } from './int-or-percent.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';

type DeploymentStrategy = NonNullable<Deployment['spec']['strategy']>;

/** validateDeployment checks a defaulted Deployment (pure); `old` is set on update, where
 * the selector must not change. */
export function validateDeployment(deployment: Deployment, old?: Deployment): FieldError[] {
  const { spec } = deployment;
  const errors = [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateSelectorAndTemplate(spec),
    ...validateStrategy(spec.strategy ?? {}, 'spec.strategy'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errors.push(...validateNonnegativeField(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= (spec.minReadySeconds ?? 0)) {
      errors.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
    }
  }
  if (old) errors.push(...validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector'));
  return errors;
}

function validateStrategy(strategy: DeploymentStrategy, field: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
    case undefined:
      // Defaulting always fills rollingUpdate for RollingUpdate; absent means defaults were skipped.
      if (!strategy.rollingUpdate)
        return [{ type: 'FieldValueRequired', field: `${field}.rollingUpdate`, detail: 'this should be defaulted and never be nil' }];
      return validateRollingUpdate(strategy.rollingUpdate, `${field}.rollingUpdate`);
    default:
      return assertNever(strategy.type);
  }
}

function validateRollingUpdate(rollingUpdate: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, field: string): FieldError[] {
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const errors = [...validateIntOrPercent(maxUnavailable, `${field}.maxUnavailable`), ...validateIntOrPercent(maxSurge, `${field}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  // Only maxUnavailable is capped: surging by more than 100% is allowed.
  const percent = percentValue(maxUnavailable);
  if (percent !== undefined && percent > 100) errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'must not be greater than 100%'));
  return errors;
}

function assertNever(value: never): never {
  throw new Error(`unexpected deployment strategy ${String(value)}`);
}
