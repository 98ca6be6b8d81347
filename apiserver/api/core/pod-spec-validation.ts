/**
 * PodSpec validation after Kubernetes' ValidatePodSpec: containers, volumes, scheduling
 * constraints and pod-level fields. Every problem is reported with its full field path.
 */
import type { FieldError } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isDns1123Label, isDns1123Subdomain, isInRange, isQualifiedName, required, validateLabels } from '../validation.js';
import { validateContainer } from './container-validation.js';
import type { PodSpec, PodTemplateSpec } from './pod-spec.js';
import { validateSchedulingConstraints } from './scheduling-validation.js';
import { VOLUME_SOURCES, type Volume } from './volume.js';

/** validatePodSpec checks a (defaulted) PodSpec located at `fieldPath` (e.g. `spec` or
 * `spec.template.spec`) and returns every problem found; an empty list means valid. Pure. */
export function validatePodSpec(spec: PodSpec, fieldPath: string): FieldError[] {
  const { errors: volumeErrors, names: volumeNames } = validateVolumes(spec.volumes ?? [], `${fieldPath}.volumes`);
  const errors = [...volumeErrors, ...validateContainerLists(spec, fieldPath, volumeNames)];
  errors.push(...validatePodFields(spec, fieldPath));
  errors.push(...validateSchedulingConstraints(spec, fieldPath));
  return errors;
}

/** validatePodTemplateSpec checks a template's labels and its spec at `fieldPath`
 * (e.g. `spec.template`). */
export function validatePodTemplateSpec(template: PodTemplateSpec, fieldPath: string): FieldError[] {
  return [...validateLabels(template.metadata?.labels, `${fieldPath}.metadata.labels`), ...validatePodSpec(template.spec, `${fieldPath}.spec`)];
}

function validateContainerLists(spec: PodSpec, fieldPath: string, volumeNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.containers || spec.containers.length === 0) errors.push(required(`${fieldPath}.containers`));
  const seen = new Set<string>();
  const lists = [
    ['initContainers', spec.initContainers ?? []],
    ['containers', spec.containers ?? []],
    ['ephemeralContainers', spec.ephemeralContainers ?? []],
  ] as const;
  for (const [listName, containers] of lists) {
    containers.forEach((container, i) => {
      const field = `${fieldPath}.${listName}[${i}]`;
      errors.push(...validateContainer(container, field, { volumeNames, isInit: listName === 'initContainers' }));
      // Names must be unique across all three lists: they key container statuses and logs.
      if (container.name && seen.has(container.name)) errors.push(duplicate(`${field}.name`, container.name));
      seen.add(container.name);
    });
  }
  return errors;
}

function validateVolumes(volumes: Volume[], field: string): { errors: FieldError[]; names: Set<string> } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((volume, i) => {
    const at = `${field}[${i}]`;
    if (!volume.name) errors.push(required(`${at}.name`));
    else errors.push(...isDns1123Label(volume.name).map((d) => invalid(`${at}.name`, volume.name, d)));
    if (volume.name && names.has(volume.name)) errors.push(duplicate(`${at}.name`, volume.name));
    names.add(volume.name);
    const sources = VOLUME_SOURCES.filter((source) => volume[source] !== undefined);
    if (sources.length === 0) errors.push({ ...required(at), detail: 'must specify a volume type' });
    if (sources.length > 1) errors.push(forbidden(`${at}.${sources[1]}`, 'may not specify more than 1 volume type'));
    if (volume.persistentVolumeClaim && !volume.persistentVolumeClaim.claimName) errors.push(required(`${at}.persistentVolumeClaim.claimName`));
    if (volume.hostPath && !volume.hostPath.path) errors.push(required(`${at}.hostPath.path`));
  });
  return { errors, names };
}

function validatePodFields(spec: PodSpec, fieldPath: string): FieldError[] {
  const errors: FieldError[] = [];
  const grace = spec.terminationGracePeriodSeconds;
  if (grace !== undefined && grace < 0) errors.push(invalid(`${fieldPath}.terminationGracePeriodSeconds`, grace, 'must be greater than or equal to 0'));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined) {
    errors.push(...isInRange(deadline, 1, 2 ** 31 - 1).map((d) => invalid(`${fieldPath}.activeDeadlineSeconds`, deadline, d)));
  }
  for (const key of ['hostname', 'subdomain'] as const) {
    const value = spec[key];
    if (value) errors.push(...isDns1123Label(value).map((d) => invalid(`${fieldPath}.${key}`, value, d)));
  }
  for (const key of ['serviceAccountName', 'priorityClassName', 'nodeName'] as const) {
    const value = spec[key];
    if (value) errors.push(...isDns1123Subdomain(value).map((d) => invalid(`${fieldPath}.${key}`, value, d)));
  }
  (spec.readinessGates ?? []).forEach((gate, i) => {
    const field = `${fieldPath}.readinessGates[${i}].conditionType`;
    errors.push(...isQualifiedName(gate.conditionType).map((d) => invalid(field, gate.conditionType, d)));
  });
  errors.push(...validateLabels(spec.nodeSelector, `${fieldPath}.nodeSelector`));
  return errors;
}
