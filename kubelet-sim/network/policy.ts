/**
 * NetworkPolicy as a CNI enforces it (networking.k8s.io/v1 semantics). A pod is isolated for
 * ingress (egress) once any policy in its namespace selects it with that policy type; an
 * isolated pod's traffic in that direction is allowed only when some rule of those policies
 * allows it — a policy with the type and no rules (`{}` ingress or egress lists absent) denies
 * everything. A connection needs both the source's egress and the destination's ingress;
 * replies of an allowed connection always pass.
 */
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { LabelSelector } from '../../apiserver/api/meta.js';
import { type ClusterView, type NetworkPolicyView, namespaceLabels, type PolicyPeer, type PolicyPort, type ReadonlyPod } from './cluster-view.js';

/** One end of a connection: an IP, and the pod holding it when there is one. */
export interface Endpoint {
  readonly ip: string;
  readonly pod?: PeerPod;
}

/** The parts of a pod a policy looks at. */
export interface PeerPod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Its containers' named ports, for policies that name a port. */
  readonly namedPorts: ReadonlyArray<{ readonly name: string; readonly port: number; readonly protocol: string }>;
}

export function peerPod(pod: ReadonlyPod): PeerPod {
  const namedPorts = (pod.spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? []).filter((p) => p.name).map((p) => ({ name: p.name!, port: p.containerPort, protocol: p.protocol ?? 'TCP' })),
  );
  return { namespace: pod.metadata.namespace ?? '', labels: pod.metadata.labels ?? {}, namedPorts };
}

export interface Traffic {
  readonly from: Endpoint;
  readonly to: Endpoint;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP' | 'SCTP';
}

/** allowsTraffic: whether the policies let a new connection through. */
export function allowsTraffic(view: ClusterView, traffic: Traffic): boolean {
  return allowedFor(view, traffic, 'Egress') && allowedFor(view, traffic, 'Ingress');
}

function allowedFor(view: ClusterView, traffic: Traffic, direction: 'Ingress' | 'Egress'): boolean {
  const subject = direction === 'Ingress' ? traffic.to : traffic.from;
  const peer = direction === 'Ingress' ? traffic.from : traffic.to;
  if (!subject.pod) return true;
  const policies = isolating(view, subject.pod, direction);
  if (policies.length === 0) return true;
  // A named port is looked up on the destination pod, whichever side the policy is on.
  return policies.some((policy) => {
    const rules =
      direction === 'Ingress'
        ? (policy.spec?.ingress ?? []).map((r) => ({ peers: r.from, ports: r.ports }))
        : (policy.spec?.egress ?? []).map((r) => ({ peers: r.to, ports: r.ports }));
    return rules.some(
      (rule) => portsMatch(rule.ports, traffic) && (!rule.peers || rule.peers.length === 0 || rule.peers.some((p) => peerMatches(view, p, policy, peer))),
    );
  });
}

/** isolating: the policies selecting `pod` for `direction`. */
export function isolating(view: ClusterView, pod: PeerPod, direction: 'Ingress' | 'Egress'): NetworkPolicyView[] {
  return view.policies.filter(
    (policy) => policy.metadata.namespace === pod.namespace && policyTypes(policy).includes(direction) && selects(policy.spec?.podSelector ?? {}, pod.labels),
  );
}

/** policyTypes: as set, or as the API defaults them (Ingress, plus Egress when egress rules exist). */
function policyTypes(policy: NetworkPolicyView): readonly string[] {
  if (policy.spec?.policyTypes && policy.spec.policyTypes.length > 0) return policy.spec.policyTypes;
  return policy.spec?.egress && policy.spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

function peerMatches(view: ClusterView, peer: PolicyPeer, policy: NetworkPolicyView, other: Endpoint): boolean {
  if (peer.ipBlock) return inCidr(other.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(other.ip, cidr));
  const pod = other.pod;
  if (!pod) return false;
  if (peer.namespaceSelector) {
    if (!selects(peer.namespaceSelector, namespaceLabels(view, pod.namespace))) return false;
  } else if (pod.namespace !== policy.metadata.namespace) return false;
  return !peer.podSelector || selects(peer.podSelector, pod.labels);
}

function portsMatch(ports: readonly PolicyPort[] | undefined, traffic: Traffic): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((rule) => {
    const protocol = rule.protocol ?? 'TCP';
    if (protocol !== traffic.protocol) return false;
    if (rule.port === undefined) return true;
    if (typeof rule.port === 'number') return traffic.port >= rule.port && traffic.port <= (rule.endPort ?? rule.port);
    if (/^\d+$/.test(rule.port)) return traffic.port === Number(rule.port);
    return (traffic.to.pod?.namedPorts ?? []).some((p) => p.name === rule.port && p.protocol === protocol && p.port === traffic.port);
  });
}

const selects = (selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean => {
  try {
    return labelSelectorFromStructured(selector).matches(labels);
  } catch {
    return false;
  }
};

/** inCidr: whether an IPv4 address is inside a CIDR (an IPv6 CIDR never holds one). */
export function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bitsText = '32'] = cidr.split('/');
  const address = ipv4Number(ip);
  const network = ipv4Number(base);
  if (address === undefined || network === undefined) return false;
  const bits = Number(bitsText);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (network & mask) >>> 0;
}

function ipv4Number(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}
