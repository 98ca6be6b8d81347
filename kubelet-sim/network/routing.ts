/**
 * Service routing as kube-proxy programs it: traffic to a ClusterIP:port, or to a node's
 * address on a Service's nodePort, goes to one of the Service's ready endpoints (its
 * EndpointSlices' endpoints with ready true, on the slice port named as the Service port).
 * With no ready endpoint kube-proxy falls back to serving-but-terminating ones; with none at
 * all it REJECTs (the client sees "connection refused"). A ClusterIP port the Service does not
 * declare matches no rule: the packet is dropped.
 */
import { type ClusterView, type EndpointView, type ServicePortView, type ServiceView, slicesOf } from './cluster-view.js';
import { isHeadless } from './dns.js';

export interface Backend {
  readonly ip: string;
  readonly port: number;
  /** The pod behind the endpoint, when its targetRef names one. */
  readonly pod?: string;
}

/** What a destination is: a Service (by ClusterIP or node port) with its backends, or not one. */
export type ServiceMatch =
  | { readonly kind: 'service'; readonly service: ServiceView; readonly port: ServicePortView; readonly backends: readonly Backend[] }
  | { readonly kind: 'unmatched-port' }
  | { readonly kind: 'none' };

/** matchService finds the Service a TCP packet to ip:port is for. */
export function matchService(view: ClusterView, ip: string, port: number): ServiceMatch {
  const byClusterIP = view.services.filter((s) => !isHeadless(s) && s.spec?.type !== 'ExternalName' && clusterIPs(s).includes(ip));
  for (const service of byClusterIP) {
    const servicePort = tcpPorts(service).find((p) => p.port === port);
    if (servicePort) return { kind: 'service', service, port: servicePort, backends: backendsOf(view, service, servicePort) };
  }
  if (byClusterIP.length > 0) return { kind: 'unmatched-port' };
  if (nodeAddresses(view).has(ip)) {
    for (const service of view.services) {
      const type = service.spec?.type;
      if (type !== 'NodePort' && type !== 'LoadBalancer') continue;
      const servicePort = tcpPorts(service).find((p) => p.nodePort === port);
      if (servicePort) return { kind: 'service', service, port: servicePort, backends: backendsOf(view, service, servicePort) };
    }
  }
  return { kind: 'none' };
}

const clusterIPs = (service: ServiceView): readonly string[] => service.spec?.clusterIPs ?? (service.spec?.clusterIP ? [service.spec.clusterIP] : []);
const tcpPorts = (service: ServiceView): ServicePortView[] => (service.spec?.ports ?? []).filter((p) => (p.protocol ?? 'TCP') === 'TCP');

function nodeAddresses(view: ClusterView): Set<string> {
  return new Set(
    view.nodes.flatMap((node) => (node.status?.addresses ?? []).filter((a) => a.type === 'InternalIP' || a.type === 'ExternalIP').map((a) => a.address ?? '')),
  );
}

/** backendsOf: the endpoints traffic for a Service port may go to (kube-proxy's
 * CategorizeEndpoints for the cluster traffic policy), each once, in slice order. */
export function backendsOf(view: ClusterView, service: ServiceView, servicePort: ServicePortView): Backend[] {
  const ready: Backend[] = [];
  const servingTerminating: Backend[] = [];
  for (const slice of slicesOf(view, service.metadata.namespace ?? '', service.metadata.name ?? '')) {
    if ((slice.addressType ?? 'IPv4') !== 'IPv4') continue;
    const slicePort = (slice.ports ?? []).find((p) => (p.name ?? '') === (servicePort.name ?? '') && (p.protocol ?? 'TCP') === 'TCP');
    if (slicePort?.port === undefined) continue;
    for (const endpoint of slice.endpoints ?? []) {
      const backend = backendOf(endpoint, slicePort.port);
      if (!backend) continue;
      if (endpoint.conditions?.ready !== false) ready.push(backend);
      else if (endpoint.conditions?.serving && endpoint.conditions.terminating) servingTerminating.push(backend);
    }
  }
  return ready.length > 0 ? ready : servingTerminating;
}

function backendOf(endpoint: EndpointView, port: number): Backend | undefined {
  const ip = endpoint.addresses[0];
  if (!ip) return undefined;
  return endpoint.targetRef?.kind === 'Pod' && endpoint.targetRef.name ? { ip, port, pod: endpoint.targetRef.name } : { ip, port };
}

/** The default ClientIP affinity timeout (3 hours). */
const DEFAULT_AFFINITY_SECONDS = 10_800;

/**
 * Balancer picks a backend per connection. kube-proxy's iptables rules pick at random; this one
 * takes turns per Service port (deterministic, and repeated requests visibly reach several
 * pods). With sessionAffinity ClientIP a client keeps its backend until the affinity times
 * out or the backend leaves.
 */
export class Balancer {
  private readonly turns = new Map<string, number>();
  private readonly affinity = new Map<string, { ip: string; until: number }>();

  pick(service: ServiceView, port: ServicePortView, backends: readonly Backend[], clientIP: string, now: number): Backend | undefined {
    if (backends.length === 0) return undefined;
    const key = `${service.metadata.namespace}/${service.metadata.name}:${port.port}`;
    const sticky = service.spec?.sessionAffinity === 'ClientIP';
    if (sticky) {
      const kept = this.affinity.get(`${key}/${clientIP}`);
      const backend = kept && kept.until > now ? backends.find((b) => b.ip === kept.ip) : undefined;
      if (backend) return this.remember(key, clientIP, backend, service, now);
    }
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, turn + 1);
    const backend = backends[turn % backends.length]!;
    return sticky ? this.remember(key, clientIP, backend, service, now) : backend;
  }

  private remember(key: string, clientIP: string, backend: Backend, service: ServiceView, now: number): Backend {
    for (const [entry, { until }] of this.affinity) if (until <= now) this.affinity.delete(entry);
    const seconds = service.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_SECONDS;
    this.affinity.set(`${key}/${clientIP}`, { ip: backend.ip, until: now + seconds * 1000 });
    return backend;
  }
}
