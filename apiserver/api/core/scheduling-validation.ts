/**
 * Validation of a PodSpec's scheduling constraints: tolerations, node and pod affinity,
 * topology spread constraints. Messages follow Kubernetes' core validation.
 */
import type { FieldError } from '../resource-definition.js';
import { invalid, isInRange, isQualifiedName, notSupported, required } from '../validation.js';
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm, Toleration } from './affinity.js';
import type { PodSpec } from './pod-spec.js';

/** validateSchedulingConstraints checks tolerations, affinity and topology spread
 * constraints of `spec` (located at `fieldPath`). Pure. */
export function validateSchedulingConstraints(spec: PodSpec, fieldPath: string): FieldError[] {
  const errors: FieldError[] = [];
  (spec.tolerations ?? []).forEach((t, i) => errors.push(...validateToleration(t, `${fieldPath}.tolerations[${i}]`)));
  if (spec.affinity) errors.push(...validateAffinity(spec.affinity, `${fieldPath}.affinity`));
  (spec.topologySpreadConstraints ?? []).forEach((constraint, i) => {
    const at = `${fieldPath}.topologySpreadConstraints[${i}]`;
    if (constraint.maxSkew <= 0) errors.push(invalid(`${at}.maxSkew`, constraint.maxSkew, 'must be greater than zero'));
    if (!constraint.topologyKey) errors.push({ ...required(`${at}.topologyKey`), detail: 'can not be empty' });
  });
  return errors;
}

function validateToleration(toleration: Toleration, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const operator = toleration.operator ?? 'Equal';
  if (toleration.key) errors.push(...isQualifiedName(toleration.key).map((d) => invalid(`${field}.key`, toleration.key, d)));
  else if (operator !== 'Exists') {
    errors.push(invalid(`${field}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
  }
  if (operator === 'Exists' && toleration.value) {
    errors.push(invalid(`${field}.operator`, toleration.value, "value must be empty when `operator` is 'Exists'"));
  }
  if (toleration.tolerationSeconds !== undefined && toleration.effect !== 'NoExecute') {
    errors.push(invalid(`${field}.effect`, toleration.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }
  return errors;
}

function validateAffinity(affinity: Affinity, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const node = affinity.nodeAffinity;
  const requiredField = `${field}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
  const terms = node?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms?.length === 0) errors.push({ ...required(`${requiredField}.nodeSelectorTerms`), detail: 'must have at least one node selector term' });
  (terms ?? []).forEach((term, i) => errors.push(...validateNodeSelectorTerm(term, `${requiredField}.nodeSelectorTerms[${i}]`)));
  (node?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((preferred, i) => {
    const at = `${field}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errors.push(...isInRange(preferred.weight, 1, 100).map((d) => invalid(`${at}.weight`, preferred.weight, d)));
    errors.push(...validateNodeSelectorTerm(preferred.preference, `${at}.preference`));
  });
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const rules = affinity[kind];
    const at = `${field}.${kind}`;
    (rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      if (!term.topologyKey) errors.push({ ...required(`${at}.requiredDuringSchedulingIgnoredDuringExecution[${i}].topologyKey`), detail: 'can not be empty' });
    });
    (rules?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((weighted, i) => {
      const term = `${at}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errors.push(...isInRange(weighted.weight, 1, 100).map((d) => invalid(`${term}.weight`, weighted.weight, d)));
      if (!weighted.podAffinityTerm.topologyKey) errors.push({ ...required(`${term}.podAffinityTerm.topologyKey`), detail: 'can not be empty' });
    });
  }
  return errors;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, field: string): FieldError[] {
  const errors: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((r, i) => errors.push(...validateRequirement(r, `${field}.matchExpressions[${i}]`)));
  (term.matchFields ?? []).forEach((r, i) => {
    const at = `${field}.matchFields[${i}]`;
    if (r.key !== 'metadata.name') errors.push(notSupported(`${at}.key`, r.key, ['metadata.name']));
    if ((r.operator !== 'In' && r.operator !== 'NotIn') || r.values?.length !== 1) {
      errors.push(invalid(`${at}.values`, r.values ?? [], 'must have one element'));
    }
  });
  return errors;
}

function validateRequirement(requirement: NodeSelectorRequirement, field: string): FieldError[] {
  const values = requirement.values ?? [];
  const errors = isQualifiedName(requirement.key).map((d) => invalid(`${field}.key`, requirement.key, d));
  switch (requirement.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errors.push({ ...required(`${field}.values`), detail: "must be specified when `operator` is 'In' or 'NotIn'" });
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        errors.push({ type: 'FieldValueForbidden', field: `${field}.values`, detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1 || !/^-?\d+$/.test(values[0] ?? '')) {
        errors.push({ ...required(`${field}.values`), detail: "must be specified single value when `operator` is 'Lt' or 'Gt'" });
      }
      break;
    default: {
      const unreachable: never = requirement.operator;
      return unreachable;
    }
  }
  return errors;
}
