/**
 * StatefulSet validation (Kubernetes' ValidateStatefulSet / ValidateStatefulSetUpdate, the
 * parts kubesim models): the workload selector and template rules, non-negative counts,
 * partition and maxUnavailable, and which spec fields may change after creation.
 */
import { deepEqual } from '../deep-equal.js';
import type { FieldError } from '../resource-definition.js';
import { forbidden, invalid, validateNonnegativeField } from '../validation.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';
import type { StatefulSet } from './stateful-set.js';

/** validateStatefulSet checks a defaulted StatefulSet; on update also the fields that are
 * immutable (everything but replicas, ordinals, template, updateStrategy, minReadySeconds,
 * revisionHistoryLimit and the claim retention policy). Pure. */
export function validateStatefulSet(set: StatefulSet, old?: StatefulSet): FieldError[] {
  const { spec } = set;
  return [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.ordinals?.start, 'spec.ordinals.start'),
    ...validateNonnegativeField(spec.updateStrategy?.rollingUpdate?.partition, 'spec.updateStrategy.rollingUpdate.partition'),
    ...validateStrategy(set),
    ...validateSelectorAndTemplate(spec),
    ...(old ? validateUpdate(set, old) : []),
  ];
}

function validateStrategy({ spec }: StatefulSet): FieldError[] {
  const strategy = spec.updateStrategy;
  const field = 'spec.updateStrategy.rollingUpdate';
  if (strategy?.type === 'OnDelete' && strategy.rollingUpdate) return [forbidden(field, "only allowed for updateStrategy 'RollingUpdate'")];
  const maxUnavailable = strategy?.rollingUpdate?.maxUnavailable;
  if (maxUnavailable === undefined) return [];
  if (typeof maxUnavailable === 'number') return maxUnavailable < 1 ? [invalid(`${field}.maxUnavailable`, maxUnavailable, 'must be greater than 0')] : [];
  return /^[1-9]\d*%$/.test(maxUnavailable) ? [] : [invalid(`${field}.maxUnavailable`, maxUnavailable, 'must be a positive integer or percentage')];
}

function validateUpdate(set: StatefulSet, old: StatefulSet): FieldError[] {
  const changed = (['serviceName', 'podManagementPolicy', 'volumeClaimTemplates'] as const).filter((field) => !deepEqual(set.spec[field], old.spec[field]));
  const errors = validateImmutableSelector(set.spec.selector, old.spec.selector, 'spec.selector');
  if (changed.length > 0) {
    errors.push(
      forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errors;
}
