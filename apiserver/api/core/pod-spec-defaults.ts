/**
 * PodSpec defaulting shared by pods and pod templates, after Kubernetes' SetDefaults_PodSpec,
 * SetDefaults_Container and friends (docs/kubectl-wire.md, "Server-side defaults"). Pod-only
 * defaults (admission plugins, requests from limits, status) live in pod-defaults.ts.
 */
import type { Container, EphemeralContainer } from './container.js';
import type { PodSpec } from './pod-spec.js';
import { defaultProbe } from './probe.js';
import { defaultVolume } from './volume.js';

type AnyContainer = Container | EphemeralContainer;

/** defaultPodSpec fills Kubernetes' PodSpec defaults into `spec` in place and returns it.
 * Only unset fields are written, so applying it again changes nothing. It is safe on pod
 * templates (Deployment, ReplicaSet, Job) as well as on pods. */
export function defaultPodSpec(spec: PodSpec): PodSpec {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ||= 'default-scheduler';
  syncServiceAccountAlias(spec);
  for (const volume of spec.volumes ?? []) defaultVolume(volume);
  for (const container of allContainers(spec)) defaultContainer(container, spec.hostNetwork === true);
  return spec;
}

/** allContainers lists init, app and ephemeral containers, in that order. */
export function allContainers(spec: PodSpec): AnyContainer[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

/** defaultImagePullPolicy is Always for untagged or :latest images, else IfNotPresent
 * (an image pinned by digest never changes, so it is not pulled again). */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'Always';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const lastColon = image.lastIndexOf(':');
  const tag = lastColon > lastSlash ? image.slice(lastColon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(container: AnyContainer, hostNetwork: boolean): void {
  container.imagePullPolicy ??= defaultImagePullPolicy(container.image);
  container.terminationMessagePath ||= '/dev/termination-log';
  container.terminationMessagePolicy ??= 'File';
  // ResourceRequirements is a plain struct in Kubernetes: it always serialises, as `{}` when empty.
  container.resources ??= {};
  for (const port of container.ports ?? []) {
    port.protocol ??= 'TCP';
    // A host-network pod listens on the node itself, so its ports are host ports.
    if (hostNetwork && !port.hostPort) port.hostPort = port.containerPort;
  }
  for (const env of container.env ?? []) {
    if (env.valueFrom?.fieldRef) env.valueFrom.fieldRef.apiVersion ||= 'v1';
  }
  for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
    if (probe) defaultProbe(probe);
  }
}

/** serviceAccount is the deprecated spelling of serviceAccountName; Kubernetes keeps the two
 * equal on output, preferring serviceAccountName when both are given. */
function syncServiceAccountAlias(spec: PodSpec): void {
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
}
