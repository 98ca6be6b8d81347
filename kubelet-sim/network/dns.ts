/**
 * The cluster DNS as CoreDNS's kubernetes plugin answers it (kubeadm's and kind's Corefile:
 * `kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure }`), from the objects of a
 * ClusterView:
 *
 *   <svc>.<ns>.svc.cluster.local            A: the ClusterIP; headless: each ready endpoint;
 *                                           ExternalName: a CNAME to spec.externalName
 *   <host>.<svc>.<ns>.svc.cluster.local     A: the endpoint whose pod has that hostname (a
 *                                           StatefulSet pod under its headless Service), or
 *                                           whose IP is <host> written with dashes
 *   <a-b-c-d>.<ns>.pod.cluster.local        A: a.b.c.d (pods insecure: not checked)
 *   <d>.<c>.<b>.<a>.in-addr.arpa            PTR: the Service or endpoint holding that IP
 *
 * Anything else is NXDOMAIN: the simulated cluster has no upstream resolver. The cluster is
 * IPv4 only, so AAAA questions about existing names are answered with no records (NODATA).
 */
import type { DnsRecord } from '../userland/contract.js';
import { CLUSTER_DOMAIN } from '../userland/etc-files.js';
import { type ClusterView, type EndpointView, isReady, type ServiceView, slicesOf } from './cluster-view.js';

export interface DnsAnswer {
  readonly rcode: 'NOERROR' | 'NXDOMAIN';
  readonly records: readonly DnsRecord[];
}

const NXDOMAIN: DnsAnswer = { rcode: 'NXDOMAIN', records: [] };
const NODATA: DnsAnswer = { rcode: 'NOERROR', records: [] };

/** answerQuery answers one question as the cluster DNS would. */
export function answerQuery(view: ClusterView, question: string, type: 'A' | 'AAAA' | 'PTR'): DnsAnswer {
  const name = question.toLowerCase().replace(/\.$/, '');
  if (name.endsWith('.in-addr.arpa')) return type === 'PTR' ? reverse(view, name) : NXDOMAIN;
  if (name === CLUSTER_DOMAIN) return NODATA;
  if (!name.endsWith(`.${CLUSTER_DOMAIN}`)) return NXDOMAIN;
  const labels = name.slice(0, -CLUSTER_DOMAIN.length - 1).split('.');
  const found = labels.at(-1) === 'svc' ? serviceRecords(view, labels.slice(0, -1), name) : labels.at(-1) === 'pod' ? podRecords(labels, name) : undefined;
  if (!found) return NXDOMAIN;
  if (found.length === 0) return NODATA;
  // A CNAME answers every type; addresses only their own.
  const records = found.filter((record) => record.type === 'CNAME' || (record.type === type && type === 'A'));
  return { rcode: 'NOERROR', records };
}

/** The records of a name under svc.cluster.local (labels without `svc`); undefined: NXDOMAIN. */
function serviceRecords(view: ClusterView, labels: readonly string[], name: string): DnsRecord[] | undefined {
  if (labels.length === 0) return [];
  if (labels.length === 1) return view.namespaces.some((ns) => ns.metadata.name === labels[0]) ? [] : undefined;
  if (labels.length > 3) return undefined;
  const [serviceName, namespace] = labels.length === 2 ? [labels[0]!, labels[1]!] : [labels[1]!, labels[2]!];
  const service = view.services.find((s) => s.metadata.name === serviceName && s.metadata.namespace === namespace);
  if (!service) return undefined;
  if (labels.length === 3) {
    const endpoint = readyEndpoints(view, service).find((e) => endpointHostname(view, service, e) === labels[0]);
    return endpoint ? [{ name, type: 'A', data: endpoint.addresses[0]! }] : undefined;
  }
  if (service.spec?.type === 'ExternalName') return [{ name, type: 'CNAME', data: service.spec.externalName ?? '' }];
  if (!isHeadless(service)) return service.spec?.clusterIP ? [{ name, type: 'A', data: service.spec.clusterIP }] : [];
  const addresses = [...new Set(readyEndpoints(view, service).map((e) => e.addresses[0]!))];
  // CoreDNS answers NXDOMAIN for a headless Service with no ready endpoint.
  return addresses.length === 0 ? undefined : addresses.map((data) => ({ name, type: 'A', data }));
}

function podRecords(labels: readonly string[], name: string): DnsRecord[] | undefined {
  if (labels.length !== 3) return undefined;
  const ip = labels[0]!.replaceAll('-', '.');
  return isIPv4(ip) ? [{ name, type: 'A', data: ip }] : undefined;
}

function reverse(view: ClusterView, name: string): DnsAnswer {
  const ip = name.slice(0, -'.in-addr.arpa'.length).split('.').reverse().join('.');
  const service = view.services.find((s) => s.spec?.clusterIP === ip && !isHeadless(s));
  if (service) return ptr(name, `${service.metadata.name}.${service.metadata.namespace}.svc.${CLUSTER_DOMAIN}`);
  for (const candidate of view.services.filter(isHeadless)) {
    const endpoint = readyEndpoints(view, candidate).find((e) => e.addresses.includes(ip));
    if (endpoint) {
      const host = endpointHostname(view, candidate, endpoint);
      return ptr(name, `${host}.${candidate.metadata.name}.${candidate.metadata.namespace}.svc.${CLUSTER_DOMAIN}`);
    }
  }
  return NXDOMAIN;
}

const ptr = (name: string, target: string): DnsAnswer => ({ rcode: 'NOERROR', records: [{ name, type: 'PTR', data: target }] });

export const isHeadless = (service: ServiceView): boolean => service.spec?.clusterIP === 'None';

/** readyEndpoints: the IPv4 endpoints of a Service's slices that are ready, in slice order. */
export function readyEndpoints(view: ClusterView, service: ServiceView): EndpointView[] {
  return slicesOf(view, service.metadata.namespace ?? '', service.metadata.name ?? '')
    .filter((slice) => (slice.addressType ?? 'IPv4') === 'IPv4')
    .flatMap((slice) => (slice.endpoints ?? []).filter((endpoint) => isReady(endpoint) && endpoint.addresses.length > 0));
}

/** endpointHostname: the endpoint's hostname (its own, or its pod's when the pod's subdomain is
 * this Service, as for a StatefulSet's pods), else its IP with dashes. */
function endpointHostname(view: ClusterView, service: ServiceView, endpoint: EndpointView): string {
  if (endpoint.hostname) return endpoint.hostname;
  const ref = endpoint.targetRef;
  const pod = ref?.kind === 'Pod' ? view.pods.find((p) => p.metadata.name === ref.name && p.metadata.namespace === service.metadata.namespace) : undefined;
  if (pod?.spec?.hostname && pod.spec.subdomain === service.metadata.name) return pod.spec.hostname;
  return endpoint.addresses[0]!.replaceAll('.', '-');
}

export const isIPv4 = (text: string): boolean =>
  /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(text) && text.split('.').every((part) => Number(part) <= 255);
