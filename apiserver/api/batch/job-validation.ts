/**
 * Job validation after Kubernetes' ValidateJob / ValidateJobSpec: counts must be
 * non-negative, the selector must match the template, pods must not restart forever,
 * Indexed jobs need completions, podFailurePolicy needs restartPolicy Never, and the
 * selector cannot change.
 */

import { validateImmutableSelector } from '../apps/pod-template-validation.js';
import { validatePodTemplateSpec } from '../core/pod-spec.js';
import { isSelectorParseError, labelSelectorFromStructured } from '../labels.js';
import type { FieldError } from '../resource-definition.js';
import { invalid, notSupported, required, validateLabelSelector, validateNonnegativeField } from '../validation.js';
import type { Job } from './job.js';

type JobSpec = Job['spec'];

/** validateJob checks a defaulted Job (pure); `old` is set on update. */
export function validateJob(job: Job, old?: Job): FieldError[] {
  const errors = validateJobSpec(job.spec, 'spec');
  if (old) errors.push(...validateImmutableSelector(job.spec.selector, old.spec.selector, 'spec.selector'));
  return errors;
}

/** validateJobSpec checks a JobSpec at `field` (a Job's `spec`, a CronJob's jobTemplate spec). */
export function validateJobSpec(spec: JobSpec, field: string, options: { selectorRequired: boolean } = { selectorRequired: true }): FieldError[] {
  const errors = [
    ...validateNonnegativeField(spec.parallelism, `${field}.parallelism`),
    ...validateNonnegativeField(spec.completions, `${field}.completions`),
    ...validateNonnegativeField(spec.backoffLimit, `${field}.backoffLimit`),
    ...validateNonnegativeField(spec.ttlSecondsAfterFinished, `${field}.ttlSecondsAfterFinished`),
    ...validatePositive(spec.activeDeadlineSeconds, `${field}.activeDeadlineSeconds`),
    ...validateTemplate(spec, field),
  ];
  if (options.selectorRequired) errors.push(...validateSelector(spec, field));
  if (spec.completionMode === 'Indexed' && spec.completions === undefined) {
    errors.push(required(`${field}.completions`));
  }
  if (spec.podFailurePolicy && spec.template.spec.restartPolicy !== 'Never') {
    errors.push(invalid(`${field}.podFailurePolicy`, null, 'only allowed when the pod template has restartPolicy Never'));
  }
  return errors;
}

function validatePositive(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value <= 0 ? [invalid(field, value, 'must be greater than 0')] : [];
}

function validateTemplate(spec: JobSpec, field: string): FieldError[] {
  const errors = validatePodTemplateSpec(spec.template, `${field}.template`);
  const restartPolicy = spec.template.spec.restartPolicy;
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errors.push(notSupported(`${field}.template.spec.restartPolicy`, restartPolicy ?? '', ['OnFailure', 'Never']));
  }
  return errors;
}

function validateSelector(spec: JobSpec, field: string): FieldError[] {
  if (!spec.selector) return [required(`${field}.selector`)];
  const errors = validateLabelSelector(spec.selector, `${field}.selector`);
  try {
    const query = labelSelectorFromStructured(spec.selector);
    const labels = spec.template.metadata?.labels ?? {};
    if (!query.matches(labels)) errors.push(invalid(`${field}.template.metadata.labels`, labels, '`selector` does not match template `labels`'));
  } catch (err) {
    if (!isSelectorParseError(err)) throw err;
    errors.push(invalid(`${field}.selector`, spec.selector, 'invalid label selector'));
  }
  return errors;
}
