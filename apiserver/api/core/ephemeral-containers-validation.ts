/**
 * The rules of ephemeral containers (debug containers), after Kubernetes' validation:
 * - they are added only through pods/{name}/ephemeralcontainers, never on create nor through
 *   an update of the pod itself;
 * - through that subresource, existing ones may be neither changed nor removed;
 * - they may not set what would make the pod depend on them (ports, probes, resources,
 *   lifecycle, restart or resize policy) nor subPath mounts, and targetContainerName must
 *   name an app or init container.
 * Pure.
 */
import { deepEqual } from '../deep-equal.js';
import type { FieldError } from '../resource-definition.js';
import { forbidden } from '../validation.js';
import type { EphemeralContainer } from './container.js';
import type { PodSpec } from './pod-spec.js';

const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';

/** DISALLOWED_FIELDS are the container fields an ephemeral container may not set, in the order
 * of Kubernetes' EphemeralContainerCommon struct (its errors come in that order). */
const DISALLOWED_FIELDS = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const;

/** MIRROR_POD_ANNOTATION marks a static pod's mirror, which takes no ephemeral containers. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** validateEphemeralContainers checks what is particular to ephemeral containers; the checks
 * common to every container (name, image, env, mounts, name uniqueness) are validatePodSpec's. */
export function validateEphemeralContainers(spec: PodSpec, fieldPath: string): FieldError[] {
  const errors: FieldError[] = [];
  const others = new Set([...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c) => c.name));
  (spec.ephemeralContainers ?? []).forEach((container, i) => {
    const at = `${fieldPath}.ephemeralContainers[${i}]`;
    if (container.targetContainerName && !others.has(container.targetContainerName)) {
      errors.push({ type: 'FieldValueNotFound', field: `${at}.targetContainerName`, value: container.targetContainerName });
    }
    for (const name of DISALLOWED_FIELDS) {
      if (isSet(container[name as keyof EphemeralContainer])) errors.push(forbidden(`${at}.${name}`, NOT_FOR_EPHEMERAL));
    }
    (container.volumeMounts ?? []).forEach((mount, j) => {
      if (mount.subPath) errors.push(forbidden(`${at}.volumeMounts[${j}].subPath`, NOT_FOR_EPHEMERAL));
      if (mount.subPathExpr) errors.push(forbidden(`${at}.volumeMounts[${j}].subPathExpr`, NOT_FOR_EPHEMERAL));
    });
  });
  return errors;
}

/** isSet: Go's "not the zero value" for the JSON form of a field (`resources: {}` is unset). */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some(isSet);
  return value !== '' && value !== 0 && value !== false;
}

/** validateEphemeralContainersOnCreate: a new pod has none; they are added to running pods. */
export function validateEphemeralContainersOnCreate(spec: PodSpec): FieldError[] {
  return (spec.ephemeralContainers ?? []).length > 0 ? [forbidden('spec.ephemeralContainers', 'cannot be set on create')] : [];
}

interface PodLike {
  metadata: { annotations?: Record<string, string> | undefined };
  spec: PodSpec;
}

/** validateEphemeralContainersUpdate: a write to pods/ephemeralcontainers may only add.
 * Kubernetes appends a Go diff of the change to the "changed" message; kubesim ends the
 * message with a newline and the JSON of the container as it was and as it would become. */
export function validateEphemeralContainersUpdate(pod: PodLike, old: PodLike): FieldError[] {
  if (old.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
  const errors: FieldError[] = [];
  const added = new Map((pod.spec.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const before of old.spec.ephemeralContainers ?? []) {
    const after = added.get(before.name);
    const name = JSON.stringify(before.name);
    if (!after) errors.push(forbidden('spec.ephemeralContainers', `existing ephemeral containers ${name} may not be removed\n`));
    else if (!deepEqual(before, after)) {
      errors.push(forbidden('spec.ephemeralContainers', `existing ephemeral containers ${name} may not be changed\n${changeOf(before, after)}`));
    }
  }
  return errors;
}

/** changeOf shows a change as `- old` / `+ new` lines of JSON, in the spirit of cmp.Diff. */
function changeOf(before: EphemeralContainer, after: EphemeralContainer): string {
  return `- ${JSON.stringify(before)}\n+ ${JSON.stringify(after)}\n`;
}
