/**
 * PodSecurity, as kube-apiserver's built-in pod-security-admission: a namespace's
 * pod-security.kubernetes.io/{enforce,audit,warn}[-version] labels choose a Pod Security
 * Standards level for each mode. Pods that break the enforce level are refused
 * (`violates PodSecurity "restricted:latest": ...`); the warn level answers with `Warning:`
 * headers (`would violate PodSecurity ...`), for pods and for the pod templates of workload
 * kinds; the audit level adds an audit annotation. Changing a namespace's enforce level warns
 * about the pods already there that break it. The checks: pod-security-checks.ts.
 */
import { forbidden } from '../../api/api-error.js';
import { deepEqual } from '../../api/deep-equal.js';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import { namespaceOf } from '../chain.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from '../plugin.js';
import { describe, type Level, type SpecLike, violations } from './pod-security-checks.js';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

type Mode = 'enforce' | 'audit' | 'warn';

interface Policy {
  level: Level;
  /** `restricted:latest`, as kube names a policy in its messages. */
  name: string;
}

/** Where a workload kind (by store resource) keeps its pod template's spec. */
const TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  podtemplates: ['template', 'spec'],
  replicationcontrollers: ['spec', 'template', 'spec'],
  'replicasets.apps': ['spec', 'template', 'spec'],
  'deployments.apps': ['spec', 'template', 'spec'],
  'statefulsets.apps': ['spec', 'template', 'spec'],
  'daemonsets.apps': ['spec', 'template', 'spec'],
  'jobs.batch': ['spec', 'template', 'spec'],
  'cronjobs.batch': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  handles: (operation, def, subresource) => {
    if (operation !== 'CREATE' && operation !== 'UPDATE') return false;
    const resource = def.storage.resource;
    if (resource === 'pods') return subresource === '' || subresource === 'ephemeralcontainers';
    return subresource === '' && (resource === 'namespaces' || TEMPLATE_PATHS[resource] !== undefined);
  },
  validate(ctx, attributes, result) {
    const resource = attributes.def.storage.resource;
    if (resource === 'namespaces') return warnAboutExistingPods(ctx, attributes, result);
    if (resource === 'pods') return checkPod(ctx, attributes, result);
    return checkTemplate(ctx, attributes, result);
  },
};

/** policyOf reads one mode's policy from namespace labels (undefined: privileged, no check).
 * A value that is not a level is evaluated as restricted, as kube does. */
function policyOf(labels: Record<string, string> | undefined, mode: Mode): Policy | undefined {
  const value = labels?.[`${LABEL_PREFIX}${mode}`];
  if (value === undefined) return undefined;
  const level = LEVELS.includes(value as Level) ? (value as Level) : 'restricted';
  if (level === 'privileged') return undefined;
  return { level, name: `${level}:${labels?.[`${LABEL_PREFIX}${mode}-version`] || 'latest'}` };
}

function namespaceLabels(ctx: RegistryContext, attributes: AdmissionAttributes): Record<string, string> | undefined {
  return namespaceOf(ctx, attributes)?.metadata.labels as Record<string, string> | undefined;
}

function checkPod(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): void {
  const spec = (attributes.object as { spec?: SpecLike } | undefined)?.spec;
  if (!spec) return;
  // An update that leaves the spec alone (labels, annotations) is not re-evaluated.
  if (attributes.operation === 'UPDATE' && deepEqual(spec, (attributes.oldObject as { spec?: unknown } | undefined)?.spec)) return;
  const labels = namespaceLabels(ctx, attributes);
  const enforce = policyOf(labels, 'enforce');
  if (enforce) {
    const found = violations(enforce.level, spec);
    if (found.length > 0) {
      const { name } = attributes;
      throw forbidden(`pods "${name}" is forbidden: violates PodSecurity "${enforce.name}": ${describe(found)}`, { kind: 'pods', name });
    }
  }
  warnAndAudit(labels, spec, result, enforce);
}

function checkTemplate(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): void {
  const spec = templateSpec(attributes.def, attributes.object);
  if (!spec) return;
  if (attributes.operation === 'UPDATE' && deepEqual(spec, templateSpec(attributes.def, attributes.oldObject))) return;
  warnAndAudit(namespaceLabels(ctx, attributes), spec, result, undefined);
}

function templateSpec(def: ResourceDefinition, object: KubeObject | undefined): SpecLike | undefined {
  let value: unknown = object;
  for (const key of TEMPLATE_PATHS[def.storage.resource] ?? []) value = (value as Record<string, unknown> | undefined)?.[key];
  return value as SpecLike | undefined;
}

function warnAndAudit(labels: Record<string, string> | undefined, spec: SpecLike, result: AdmissionResult, enforced: Policy | undefined): void {
  const warn = policyOf(labels, 'warn');
  // The enforce policy already answered for itself; kube does not warn twice for it.
  if (warn && warn.name !== enforced?.name) {
    const found = violations(warn.level, spec);
    if (found.length > 0) result.warnings.push(`would violate PodSecurity "${warn.name}": ${describe(found)}`);
  }
  const audit = policyOf(labels, 'audit');
  if (audit) {
    const found = violations(audit.level, spec);
    if (found.length > 0)
      result.auditAnnotations['pod-security.kubernetes.io/audit-violations'] = `would violate PodSecurity "${audit.name}": ${describe(found)}`;
  }
}

/** warnAboutExistingPods: a namespace whose enforce policy changes gets warnings naming the
 * pods already in it that the new policy would refuse (pods with the same reasons grouped). */
function warnAboutExistingPods(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): void {
  const labels = (attributes.object?.metadata.labels ?? undefined) as Record<string, string> | undefined;
  const enforce = policyOf(labels, 'enforce');
  if (!enforce || attributes.operation !== 'UPDATE') return;
  const before = policyOf(attributes.oldObject?.metadata.labels as Record<string, string> | undefined, 'enforce');
  if (before?.name === enforce.name) return;
  const pods = ctx.store.list({ resource: 'pods', namespace: attributes.name }).items as unknown as Array<{ metadata: { name: string }; spec?: SpecLike }>;
  const groups = new Map<string, string[]>();
  for (const pod of pods) {
    const found = pod.spec ? violations(enforce.level, pod.spec) : [];
    if (found.length === 0) continue;
    const reasons = found.map((v) => v.reason).join(', ');
    groups.set(reasons, [...(groups.get(reasons) ?? []), pod.metadata.name]);
  }
  if (groups.size === 0) return;
  result.warnings.push(`existing pods in namespace "${attributes.name}" violate the new PodSecurity enforce level "${enforce.name}"`);
  for (const [reasons, names] of groups) {
    const who = names.length === 1 ? names[0] : `${names[0]} (and ${names.length - 1} other pod${names.length === 2 ? '' : 's'})`;
    result.warnings.push(`${who}: ${reasons}`);
  }
}
