/**
 * Validation shared by the workload kinds that stamp out pods from a template under a label
 * selector (ReplicaSet, Deployment), after Kubernetes' ValidateReplicaSetSpec and
 * ValidatePodTemplateSpecForReplicaSet: the selector must be present, valid and non-empty,
 * the template's labels must match it, and the pods must restart forever.
 */
import type { PodTemplateSpec } from '../core/pod-spec.js';
import { validatePodTemplateSpec } from '../core/pod-spec-validation.js';
import { isSelectorParseError, type LabelSelectorQuery, labelSelectorFromStructured } from '../labels.js';
import type { LabelSelector } from '../meta.js';
import type { FieldError } from '../resource-definition.js';
import { forbidden, invalid, notSupported, required, validateLabelSelector } from '../validation.js';

/** validateSelectorAndTemplate checks `spec.selector` and `spec.template` of a workload
 * spec. As in Kubernetes, a selector that cannot be evaluated is reported once and the
 * template is then not checked against it. Expects a defaulted template. Pure. */
export function validateSelectorAndTemplate(spec: { selector?: LabelSelector; template?: PodTemplateSpec }): FieldError[] {
  const errors = validateWorkloadSelector(spec.selector, 'spec.selector');
  let query: LabelSelectorQuery;
  try {
    query = labelSelectorFromStructured(spec.selector);
  } catch (err) {
    if (!isSelectorParseError(err)) throw err;
    return [...errors, invalid('spec.selector', spec.selector, 'invalid label selector')];
  }
  return [...errors, ...validatePodTemplateForReplicaSet(spec.template, query, 'spec.template')];
}

/** validateWorkloadSelector requires a valid, non-empty selector at `field`. */
export function validateWorkloadSelector(selector: LabelSelector | undefined, field: string): FieldError[] {
  if (!selector) return [required(field)];
  const errors = validateLabelSelector(selector, field);
  if (isEmptySelector(selector)) {
    // Kubernetes words this the same for ReplicaSets.
    errors.push(invalid(field, selector, 'empty selector is invalid for deployment'));
  }
  return errors;
}

/** validatePodTemplateForReplicaSet checks a workload's template at `field`
 * (`spec.template`): labels matched by `selector` (unless it selects everything), the pod
 * spec itself, restartPolicy Always and no activeDeadlineSeconds. */
export function validatePodTemplateForReplicaSet(template: PodTemplateSpec | undefined, selector: LabelSelectorQuery, field: string): FieldError[] {
  if (!template) return [required(field)];
  const errors: FieldError[] = [];
  const labels = template.metadata?.labels ?? {};
  if (!selector.isEverything() && !selector.matches(labels)) {
    errors.push(invalid(`${field}.metadata.labels`, labels, '`selector` does not match template `labels`'));
  }
  errors.push(...validatePodTemplateSpec(template, field));
  const restartPolicy = template.spec.restartPolicy;
  if (restartPolicy !== 'Always') errors.push(notSupported(`${field}.spec.restartPolicy`, restartPolicy ?? '', ['Always']));
  if (template.spec.activeDeadlineSeconds !== undefined) {
    errors.push(forbidden(`${field}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errors;
}

/** validateImmutableSelector reports a changed selector on update (apps/v1 selectors are
 * immutable: changing one would orphan the existing pods). */
export function validateImmutableSelector(selector: LabelSelector | undefined, old: LabelSelector | undefined, field: string): FieldError[] {
  return canonicalSelector(selector) === canonicalSelector(old) ? [] : [invalid(field, selector, 'field is immutable')];
}

/** isEmptySelector is true for a selector with neither matchLabels nor matchExpressions. */
export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
}

// Two selectors are equal when their label maps are (in any key order) and their
// expression lists are (in order), as Go's semantic DeepEqual compares them.
function canonicalSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '';
  const labels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const expressions = (selector.matchExpressions ?? []).map(({ key, operator, values }) => [key, operator, values ?? []]);
  return JSON.stringify([labels, expressions]);
}
