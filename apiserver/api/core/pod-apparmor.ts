/**
 * AppArmor's two spellings on a pod: the deprecated per-container annotations
 * (`container.apparmor.security.beta.kubernetes.io/<container>: runtime/default | unconfined |
 * localhost/<profile>`) and the `securityContext.appArmorProfile` fields (GA since 1.30).
 * kube-apiserver copies an annotation into the container's field when a pod is created without
 * one (warning that the annotation is deprecated), and refuses a new pod whose annotation and
 * field disagree — so old manifests keep working and every reader can trust the fields.
 */
import type { FieldError, StrategyContext } from '../resource-definition.js';
import { forbidden } from '../validation.js';
import type { PodSpec } from './pod-spec.js';

/** The part of a Pod these rules read (pod.ts imports this file, so not its Pod type). */
interface Pod {
  metadata?: { annotations?: Record<string, string> };
  spec: PodSpec;
}

export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** The longest localhost profile name a node accepts (PATH_MAX - 1). */
const MAX_LOCALHOST_PROFILE_LENGTH = 4095;

interface AppArmorProfile {
  type?: string;
  localhostProfile?: string;
}

interface NamedContainer {
  name: string;
  securityContext?: Record<string, unknown>;
}

/** podContainers visits init, app and ephemeral containers, each with its field path. */
function podContainers(spec: PodSpec): Array<{ container: NamedContainer; path: string }> {
  const lists = [
    ['initContainers', spec.initContainers],
    ['containers', spec.containers],
    ['ephemeralContainers', (spec as { ephemeralContainers?: NamedContainer[] }).ephemeralContainers],
  ] as const;
  return lists.flatMap(([field, containers]) =>
    (containers ?? []).map((container, i) => ({ container: container as NamedContainer, path: `spec.${field}[${i}]` })),
  );
}

const isWindows = (spec: PodSpec) => (spec as { os?: { name?: string } }).os?.name === 'windows';
const profileOf = (holder: { securityContext?: Record<string, unknown> } | undefined) =>
  holder?.securityContext?.['appArmorProfile'] as AppArmorProfile | undefined;

/** profileForAnnotation reads an annotation value as a field; undefined when it names no usable
 * profile (an unknown value, an empty or whitespace-padded or over-long localhost name). */
export function profileForAnnotation(value: string): AppArmorProfile | undefined {
  if (value === 'unconfined') return { type: 'Unconfined' };
  if (value === 'runtime/default') return { type: 'RuntimeDefault' };
  if (!value.startsWith('localhost/')) return undefined;
  const localhostProfile = value.slice('localhost/'.length);
  const usable = localhostProfile !== '' && localhostProfile.trim() === localhostProfile && localhostProfile.length <= MAX_LOCALHOST_PROFILE_LENGTH;
  return usable ? { type: 'Localhost', localhostProfile } : undefined;
}

const sameProfile = (a: AppArmorProfile, b: AppArmorProfile | undefined) => b !== undefined && a.type === b.type && a.localhostProfile === b.localhostProfile;

/** syncAppArmorAnnotations copies each container's annotation into its empty field on create,
 * unless the pod-level profile already says the same, warning as kube-apiserver does. */
export function syncAppArmorAnnotations(pod: Pod, ctx: Pick<StrategyContext, 'warn'>): void {
  const annotations = pod.metadata?.annotations;
  if (!annotations || isWindows(pod.spec)) return;
  const podProfile = profileOf(pod.spec as { securityContext?: Record<string, unknown> });
  for (const { container } of podContainers(pod.spec)) {
    const key = APPARMOR_ANNOTATION_PREFIX + container.name;
    const annotation = annotations[key];
    if (annotation === undefined || profileOf(container) !== undefined) continue;
    const profile = profileForAnnotation(annotation);
    const copied = profile !== undefined && !sameProfile(profile, podProfile);
    if (copied) container.securityContext = { ...container.securityContext, appArmorProfile: profile };
    if (copied || profile === undefined) {
      ctx.warn?.(`metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
  }
}

/** validateAppArmorMatch refuses a new pod whose annotation and effective field disagree. */
export function validateAppArmorMatch(pod: Pod): FieldError[] {
  const annotations = pod.metadata?.annotations;
  if (!annotations || isWindows(pod.spec)) return [];
  const podProfile = profileOf(pod.spec as { securityContext?: Record<string, unknown> });
  const errors: FieldError[] = [];
  for (const { container, path } of podContainers(pod.spec)) {
    const profile = profileOf(container) ?? podProfile;
    const annotation = annotations[APPARMOR_ANNOTATION_PREFIX + container.name];
    if (!profile || annotation === undefined) continue;
    const at = `${path}.securityContext.appArmorProfile`;
    if (profile.type === 'Unconfined' && annotation !== 'unconfined') errors.push(forbidden(`${at}.type`, 'apparmor type in annotation and field must match'));
    if (profile.type === 'RuntimeDefault' && annotation !== 'runtime/default')
      errors.push(forbidden(`${at}.type`, 'apparmor type in annotation and field must match'));
    if (profile.type !== 'Localhost') continue;
    if (!annotation.startsWith('localhost/')) errors.push(forbidden(`${at}.type`, 'apparmor type in annotation and field must match'));
    else if (annotation.slice('localhost/'.length) !== profile.localhostProfile) {
      errors.push(forbidden(`${at}.localhostProfile`, 'apparmor profile in annotation and field must match'));
    }
  }
  return errors;
}
