/**
 * The Website API as the operator sees it, and the pure half of the operator: the Deployment
 * a Website wants, whether a live Deployment has drifted from it, and the status a Website
 * should show. No I/O here, so each rule can be read (and unit-tested) on its own.
 */
import type { KubernetesObject, V1Deployment, V1OwnerReference } from '@kubernetes/client-node';

export const GROUP = 'example.kubesim.io';
export const VERSION = 'v1';
export const PLURAL = 'websites';
export const KIND = 'Website';
/** The field manager (and so the identity in managedFields and fault rules) of every write. */
export const FIELD_MANAGER = 'website-operator';
/** Label on every Deployment the operator owns; its informer watches only those. */
export const MANAGED_BY = `app.kubernetes.io/managed-by=${FIELD_MANAGER}`;

/** WebsiteSpec is what the user asks for; the CRD's schema defaults replicas (1) and port (80). */
export interface WebsiteSpec {
  image: string;
  replicas?: number;
  port?: number;
}

/** Condition is a metav1.Condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

export interface WebsiteStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  conditions?: Condition[];
}

export interface Website extends KubernetesObject {
  spec: WebsiteSpec;
  status?: WebsiteStatus;
}

/** desiredDeployment is the Deployment `website` wants: same name and namespace, controlled
 * by the Website (so the garbage collector deletes it with the Website). */
export function desiredDeployment(website: Website): V1Deployment {
  const name = website.metadata?.name ?? '';
  const selector = { 'app.kubernetes.io/name': 'website', 'app.kubernetes.io/instance': name };
  const owner: V1OwnerReference = {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: KIND,
    name,
    uid: website.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: website.metadata?.namespace,
      labels: { ...selector, 'app.kubernetes.io/managed-by': FIELD_MANAGER },
      ownerReferences: [owner],
    },
    spec: {
      replicas: website.spec.replicas ?? 1,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: selector },
        spec: { containers: [{ name: 'web', image: website.spec.image, ports: [{ name: 'http', containerPort: website.spec.port ?? 80 }] }] },
      },
    },
  };
}

/** hasDrifted says whether `live` differs from `desired` in a field the operator owns. Only
 * those fields are compared: the server adds defaults the desired object does not spell out. */
export function hasDrifted(live: V1Deployment, desired: V1Deployment): boolean {
  const container = (d: V1Deployment) => d.spec?.template.spec?.containers.find((c) => c.name === 'web');
  const [have, want] = [container(live), container(desired)];
  return live.spec?.replicas !== desired.spec?.replicas || have?.image !== want?.image || have?.ports?.[0]?.containerPort !== want?.ports?.[0]?.containerPort;
}

/** withDesiredSpec returns a copy of `live` carrying the desired replicas and pod template;
 * metadata (resourceVersion, annotations others set) stays as read. */
export function withDesiredSpec(live: V1Deployment, desired: V1Deployment): V1Deployment {
  const copy = structuredClone(live);
  copy.spec = { ...copy.spec!, replicas: desired.spec!.replicas, template: desired.spec!.template };
  return copy;
}

/** isControlledBy says whether `website` is the controller owner of `deployment`. */
export function isControlledBy(deployment: V1Deployment, website: Website): boolean {
  return deployment.metadata?.ownerReferences?.some((ref) => ref.controller && ref.uid === website.metadata?.uid) ?? false;
}

/** controllerWebsite names the Website that controls `deployment`, if one does. */
export function controllerWebsite(deployment: KubernetesObject): string | undefined {
  const ref = deployment.metadata?.ownerReferences?.find((r) => r.controller && r.kind === KIND && r.apiVersion === `${GROUP}/${VERSION}`);
  return ref?.name;
}

export interface StatusInput {
  website: Website;
  /** The Deployment the Website controls; undefined when another object holds its name. */
  deployment: V1Deployment | undefined;
  /** Cluster time, ms since the epoch. */
  nowMs: number;
  /** How long Ready may stay False before the reason turns from Progressing to Stalled. */
  progressDeadlineMs: number;
}

export interface StatusDecision {
  status: WebsiteStatus;
  /** When to look again by itself: the moment a Progressing Website would become Stalled. */
  recheckAfterMs?: number;
}

/**
 * websiteStatus is the status `website` should show: Ready when its Deployment has rolled out
 * the current spec and every replica is ready; otherwise Progressing, and Stalled once Ready
 * has been False for longer than the deadline (counted from the condition's
 * lastTransitionTime, so the decision needs no memory outside the object).
 */
export function websiteStatus({ website, deployment, nowMs, progressDeadlineMs }: StatusInput): StatusDecision {
  const generation = website.metadata?.generation;
  const desired = website.spec.replicas ?? 1;
  const ready = deployment?.status?.readyReplicas ?? 0;
  const previous = website.status?.conditions?.find((c) => c.type === 'Ready');
  const condition = (status: Condition['status'], reason: string, message: string): Condition => ({
    type: 'Ready',
    status,
    reason,
    message,
    ...(generation !== undefined && { observedGeneration: generation }),
    // lastTransitionTime moves only when the status does (metav1.Condition's rule).
    lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : rfc3339(nowMs),
  });
  const status = (readyCondition: Condition): WebsiteStatus => ({
    ...(generation !== undefined && { observedGeneration: generation }),
    readyReplicas: ready,
    conditions: [readyCondition],
  });
  if (!deployment)
    return { status: status(condition('False', 'DeploymentNotOwned', 'a Deployment with this name exists and is not controlled by this Website')) };
  if (isRolledOut(deployment, desired)) return { status: status(condition('True', 'Available', `${ready}/${desired} replicas ready`)) };
  const progressing = condition('False', 'Progressing', `${ready}/${desired} replicas ready`);
  const remainingMs = Date.parse(progressing.lastTransitionTime) + progressDeadlineMs - nowMs;
  if (remainingMs > 0) return { status: status(progressing), recheckAfterMs: remainingMs };
  const seconds = Math.round(progressDeadlineMs / 1000);
  return { status: status({ ...progressing, reason: 'Stalled', message: `${ready}/${desired} replicas ready after ${seconds}s` }) };
}

/** isRolledOut: the Deployment controller has seen the current spec and every replica is updated and ready. */
function isRolledOut(deployment: V1Deployment, desired: number): boolean {
  const s = deployment.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0) &&
    (s.replicas ?? 0) === desired &&
    (s.updatedReplicas ?? 0) === desired &&
    (s.readyReplicas ?? 0) === desired
  );
}

/** rfc3339 formats ms as Kubernetes writes times: whole seconds, UTC. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
