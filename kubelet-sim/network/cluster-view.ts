/**
 * The cluster objects the pod network reads for one lookup or one connection: Services,
 * EndpointSlices, pods, NetworkPolicies, Namespaces and Nodes, in the shapes the functions of
 * this folder use. Read fresh for each connection (nothing cached that could go stale).
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { LabelSelector } from '../../apiserver/api/meta.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

export type ReadonlyPod = DeepReadonly<Pod>;
type Labels = Readonly<Record<string, string>>;

export interface Meta {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: Labels;
}

export interface ServicePortView {
  readonly name?: string;
  readonly port: number;
  readonly protocol?: string;
  readonly nodePort?: number;
}

export interface ServiceView {
  readonly metadata: Meta;
  readonly spec?: {
    readonly type?: string;
    readonly clusterIP?: string;
    readonly clusterIPs?: readonly string[];
    readonly externalName?: string;
    readonly ports?: readonly ServicePortView[];
    readonly sessionAffinity?: string;
    readonly sessionAffinityConfig?: { readonly clientIP?: { readonly timeoutSeconds?: number } };
  };
}

export interface EndpointView {
  readonly addresses: readonly string[];
  readonly conditions?: { readonly ready?: boolean; readonly serving?: boolean; readonly terminating?: boolean };
  readonly hostname?: string;
  readonly targetRef?: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
}

export interface EndpointSliceView {
  readonly metadata: Meta;
  readonly addressType?: string;
  readonly endpoints?: readonly EndpointView[];
  readonly ports?: ReadonlyArray<{ readonly name?: string; readonly port?: number; readonly protocol?: string }>;
}

export interface PolicyPort {
  readonly protocol?: string;
  readonly port?: number | string;
  readonly endPort?: number;
}

export interface PolicyPeer {
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
  readonly ipBlock?: { readonly cidr: string; readonly except?: readonly string[] };
}

export interface NetworkPolicyView {
  readonly metadata: Meta;
  readonly spec?: {
    readonly podSelector?: LabelSelector;
    readonly policyTypes?: readonly string[];
    readonly ingress?: ReadonlyArray<{ readonly from?: readonly PolicyPeer[]; readonly ports?: readonly PolicyPort[] }>;
    readonly egress?: ReadonlyArray<{ readonly to?: readonly PolicyPeer[]; readonly ports?: readonly PolicyPort[] }>;
  };
}

export interface NamespaceView {
  readonly metadata: Meta;
}

export interface NodeView {
  readonly metadata: Meta;
  readonly status?: { readonly addresses?: ReadonlyArray<{ readonly type?: string; readonly address?: string }> };
}

export interface ClusterView {
  readonly services: readonly ServiceView[];
  readonly slices: readonly EndpointSliceView[];
  readonly pods: readonly ReadonlyPod[];
  readonly policies: readonly NetworkPolicyView[];
  readonly namespaces: readonly NamespaceView[];
  readonly nodes: readonly NodeView[];
}

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** emptyView: a cluster with nothing in it (tests start from it). */
export const emptyView: ClusterView = { services: [], slices: [], pods: [], policies: [], namespaces: [], nodes: [] };

/** slicesOf: the EndpointSlices of a Service. */
export function slicesOf(view: ClusterView, namespace: string, service: string): EndpointSliceView[] {
  return view.slices.filter((slice) => slice.metadata.namespace === namespace && slice.metadata.labels?.[SERVICE_NAME_LABEL] === service);
}

/** isReady: an endpoint's ready condition (unset means ready, as consumers must read it). */
export const isReady = (endpoint: EndpointView): boolean => endpoint.conditions?.ready !== false;

/** podByIP: the running pod holding `ip`, if any (a finished pod gave its IP back). */
export function podByIP(view: ClusterView, ip: string): ReadonlyPod | undefined {
  return view.pods.find((pod) => {
    const status = pod.status;
    if (status?.phase === 'Succeeded' || status?.phase === 'Failed') return false;
    return status?.podIP === ip || (status?.podIPs ?? []).some((entry) => entry.ip === ip);
  });
}

/** namespaceLabels: a namespace's labels, with the name label every namespace carries. */
export function namespaceLabels(view: ClusterView, namespace: string): Labels {
  const found = view.namespaces.find((ns) => ns.metadata.name === namespace);
  return { ...(found?.metadata.labels ?? {}), 'kubernetes.io/metadata.name': namespace };
}
