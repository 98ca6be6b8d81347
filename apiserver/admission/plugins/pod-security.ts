/**
 * PodSecurity, as kube-apiserver's built-in pod-security-admission (k8s.io/pod-security-admission's
 * admission package): a namespace's pod-security.kubernetes.io/{enforce,audit,warn}[-version]
 * labels choose a Pod Security Standards level and version for each mode.
 *
 * - Pods (and pods/ephemeralcontainers, pods/resize): the enforce level refuses
 *   (`pods "x" is forbidden: violates PodSecurity "restricted:latest": ...`); the warn level
 *   answers with `Warning:` headers (`would violate PodSecurity ...`), only when admitted; the
 *   audit level adds the `pod-security.kubernetes.io/audit-violations` audit annotation. An
 *   update is evaluated only when it adds or changes containers' images, as in kube.
 * - Workloads (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs,
 *   ReplicationControllers, PodTemplates): warn and audit on their pod template, never enforce.
 * - Namespaces: bad label values are refused (422); a stricter enforce policy warns about the
 *   pods already there that break it.
 * - Exemptions (pod-security-config.ts): usernames, namespaces, runtime classes.
 *
 * Cost: a pod write reads its namespace through the chain's per-write lookup and walks the
 * ready check arrays of at most three policies (one evaluation per distinct policy).
 */
import { describeFieldError, forbidden, invalid } from '../../api/api-error.js';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import { namespaceOf } from '../chain.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from '../plugin.js';
import type { ContainerLike, PodLike, SpecLike } from './pod-security-check-kit.js';
import { describe, evaluate, type Violation } from './pod-security-checks.js';
import { type PodSecurityConfiguration, type PodSecuritySettings, podSecuritySettings } from './pod-security-config.js';
import { existingPodWarnings } from './pod-security-namespace.js';
import {
  aggregateErrors,
  compareLevels,
  type EvaluatedPolicy,
  equivalent,
  fullyPrivileged,
  LABEL_PREFIX,
  type LevelVersion,
  MODES,
  type Policy,
  policyName,
  policyToEvaluate,
} from './pod-security-policy.js';

/** Where a workload kind (by store resource) keeps its pod template. */
const TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  podtemplates: ['template'],
  replicationcontrollers: ['spec', 'template'],
  'replicasets.apps': ['spec', 'template'],
  'deployments.apps': ['spec', 'template'],
  'statefulsets.apps': ['spec', 'template'],
  'daemonsets.apps': ['spec', 'template'],
  'jobs.batch': ['spec', 'template'],
  'cronjobs.batch': ['spec', 'jobTemplate', 'spec', 'template'],
};

/** Pod subresources whose writes carry a Pod and may change what the checks read. */
const EVALUATED_POD_SUBRESOURCES = new Set(['', 'ephemeralcontainers', 'resize']);

type Labels = Record<string, string> | undefined;

/** createPodSecurity builds the plugin for a PodSecurityConfiguration (kube's defaults when absent). */
export function createPodSecurity(configuration?: PodSecurityConfiguration): AdmissionPlugin {
  const settings = podSecuritySettings(configuration);
  return {
    name: 'PodSecurity',
    handles: (operation, def, subresource) => {
      if (operation !== 'CREATE' && operation !== 'UPDATE') return false;
      const resource = def.storage.resource;
      if (resource === 'pods') return EVALUATED_POD_SUBRESOURCES.has(subresource);
      return subresource === '' && (resource === 'namespaces' || TEMPLATE_PATHS[resource] !== undefined);
    },
    validate(ctx, attributes, result) {
      const resource = attributes.def.storage.resource;
      if (resource === 'namespaces') return validateNamespace(ctx, settings, attributes, result);
      if (resource === 'pods') return validatePod(ctx, settings, attributes, result);
      return validateWorkload(ctx, settings, attributes, result);
    },
  };
}

const audit = (result: AdmissionResult, key: string, value: string) => {
  result.auditAnnotations[LABEL_PREFIX + key] = value;
};

/** exempted: the request's namespace or user is exempt (recorded as the `exempt` audit annotation). */
function exempted(settings: PodSecuritySettings, attributes: AdmissionAttributes, result: AdmissionResult): boolean {
  const reason = settings.exemptNamespaces.has(attributes.namespace)
    ? 'namespace'
    : settings.exemptUsernames.has(attributes.user.username)
      ? 'user'
      : undefined;
  if (reason) audit(result, 'exempt', reason);
  return reason !== undefined;
}

const labelsOf = (object: KubeObject | undefined): Labels => (object?.metadata.labels ?? undefined) as Labels;

function validatePod(ctx: RegistryContext, settings: PodSecuritySettings, attributes: AdmissionAttributes, result: AdmissionResult): void {
  if (exempted(settings, attributes, result)) return;
  const evaluated = policyToEvaluate(labelsOf(namespaceOf(ctx, attributes)), settings.defaults);
  if (evaluated.errors.length === 0 && fullyPrivileged(evaluated.policy)) return audit(result, 'enforce-policy', 'privileged:latest');
  const pod = podOf(attributes.object);
  if (!pod) return;
  if (attributes.operation === 'UPDATE' && !significantUpdate(pod.spec, podOf(attributes.oldObject)?.spec)) return;
  evaluatePod(settings, evaluated, pod, attributes, result, true);
}

function validateWorkload(ctx: RegistryContext, settings: PodSecuritySettings, attributes: AdmissionAttributes, result: AdmissionResult): void {
  if (exempted(settings, attributes, result)) return;
  const namespace = namespaceOf(ctx, attributes);
  if (!namespace) return audit(result, 'error', `failed to lookup namespace "${attributes.namespace}"`);
  const evaluated = policyToEvaluate(labelsOf(namespace), settings.defaults);
  const { policy } = evaluated;
  if (evaluated.errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
  const template = templateOf(attributes.def, attributes.object);
  if (template) evaluatePod(settings, evaluated, template, attributes, result, false);
}

/** evaluatePod runs the enforce (pods only), audit and warn policies, each distinct policy once. */
function evaluatePod(
  settings: PodSecuritySettings,
  { policy, errors }: EvaluatedPolicy,
  pod: PodLike,
  attributes: AdmissionAttributes,
  result: AdmissionResult,
  enforce: boolean,
): void {
  const runtimeClass = pod.spec.runtimeClassName;
  if (runtimeClass && settings.exemptRuntimeClasses.has(runtimeClass)) return audit(result, 'exempt', 'runtimeClass');
  if (errors.length > 0) audit(result, 'error', `Failed to parse policy: ${aggregateErrors(errors, describeFieldError)}`);
  const cache = new Map<string, Violation[]>();
  const violationsOf = (levelVersion: LevelVersion) => {
    const key = policyName(levelVersion);
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = evaluate(levelVersion.level, levelVersion.version, pod)));
    return found;
  };
  let refusal: string | undefined;
  if (enforce) {
    audit(result, 'enforce-policy', policyName(policy.enforce));
    const found = violationsOf(policy.enforce);
    if (found.length > 0) refusal = `violates PodSecurity "${policyName(policy.enforce)}": ${describe(found)}`;
  }
  const audited = violationsOf(policy.audit);
  if (audited.length > 0) audit(result, 'audit-violations', `would violate PodSecurity "${policyName(policy.audit)}": ${describe(audited)}`);
  if (refusal !== undefined) {
    const { name } = attributes;
    throw forbidden(`${name ? `pods "${name}"` : 'pods'} is forbidden: ${refusal}`, { name, kind: 'pods' });
  }
  // No warnings on a request refused anyway.
  const warned = violationsOf(policy.warn);
  if (warned.length > 0) result.warnings.push(`would violate PodSecurity "${policyName(policy.warn)}": ${describe(warned)}`);
}

function podOf(object: KubeObject | undefined): PodLike | undefined {
  const spec = (object as { spec?: SpecLike } | undefined)?.spec;
  if (!object || !spec) return undefined;
  return { annotations: (object.metadata.annotations ?? {}) as Record<string, string>, spec };
}

function templateOf(def: ResourceDefinition, object: KubeObject | undefined): PodLike | undefined {
  let template: unknown = object;
  for (const key of TEMPLATE_PATHS[def.storage.resource] ?? []) template = (template as Record<string, unknown> | undefined)?.[key];
  const { metadata, spec } = (template ?? {}) as { metadata?: { annotations?: Record<string, string> }; spec?: SpecLike };
  return spec ? { annotations: metadata?.annotations ?? {}, spec } : undefined;
}

/** significantUpdate: kube re-evaluates a pod update only when containers are added or
 * removed or an image changes (images are all a running pod's containers may change), or an
 * ephemeral container is added or changed. */
function significantUpdate(spec: SpecLike, old: SpecLike | undefined): boolean {
  if (!old) return true;
  const imagesDiffer = (now: ContainerLike[] = [], before: ContainerLike[] = []) =>
    now.length !== before.length || now.some((c, i) => (c as { image?: string }).image !== (before[i] as { image?: string }).image);
  if (imagesDiffer(spec.containers, old.containers) || imagesDiffer(spec.initContainers, old.initContainers)) return true;
  return (spec.ephemeralContainers ?? []).some((c) => {
    const before = old.ephemeralContainers?.find((o) => o.name === c.name);
    return before === undefined || (before as { image?: string }).image !== (c as { image?: string }).image;
  });
}

function validateNamespace(ctx: RegistryContext, settings: PodSecuritySettings, attributes: AdmissionAttributes, result: AdmissionResult): void {
  const name = attributes.name;
  const labels = labelsOf(attributes.object);
  const evaluated = policyToEvaluate(labels, settings.defaults);
  const refuse = () => invalid({ group: '', resource: 'namespaces', kind: 'Namespace', name }, evaluated.errors);
  if (attributes.operation === 'CREATE') {
    if (evaluated.errors.length > 0) throw refuse();
    return warnIfExempt(settings, name, evaluated.policy, labels, result);
  }
  const before = policyToEvaluate(labelsOf(attributes.oldObject), settings.defaults);
  // Labels already bad before may stay as they are; newly bad ones are refused.
  if (evaluated.errors.length > 0 && (before.errors.length === 0 || JSON.stringify(before.errors) !== JSON.stringify(evaluated.errors))) throw refuse();
  const next = evaluated.policy.enforce;
  const previous = before.policy.enforce;
  // Nothing to check: the same enforce policy, a privileged one, or a looser level at the same version.
  if (next.level === previous.level && next.version === previous.version) return;
  if (next.level === 'privileged') return;
  if (next.version === previous.version && compareLevels(next.level, previous.level) <= 0) return;
  if (settings.exemptNamespaces.has(name)) return warnIfExempt(settings, name, evaluated.policy, labels, result);
  result.warnings.push(...existingPodWarnings(ctx, settings, name, next));
}

/** warnIfExempt: labelling an exempt namespace with a policy that will never apply says so. */
function warnIfExempt(settings: PodSecuritySettings, name: string, policy: Policy, labels: Labels, result: AdmissionResult): void {
  if (!settings.exemptNamespaces.has(name)) return;
  if (fullyPrivileged(policy) || MODES.every((mode) => equivalent(policy[mode], settings.defaults[mode]))) return;
  const stated = MODES.filter(
    (mode) => policy[mode].level !== 'privileged' && (labels?.[LABEL_PREFIX + mode] !== undefined || labels?.[`${LABEL_PREFIX}${mode}-version`] !== undefined),
  ).map((mode) => `${mode}=${policyName(policy[mode])}`);
  result.warnings.push(`namespace "${name}" is exempt from Pod Security, and the policy (${stated.join(', ')}) will be ignored`);
}
