/** Services get a cluster IP from the service CIDR (10.96.0.0/12, 10.96.0.1 being the
 * `kubernetes` Service) and node ports from 30000-32767, as kube-apiserver allocates them.
 * Allocated values survive updates that omit them. An IP some IPAddress not made by the
 * allocator names is taken; a requested IP may also come from a ServiceCIDR users added (the
 * API server's loops mirror every cluster IP as an IPAddress: apiserver/controlplane). */
import { invalid as invalidError } from '../api-error.js';
import { deepEqual } from '../deep-equal.js';
import { cidrContains, parseCidr } from '../ip-text.js';
import { IP_ALLOCATOR_MANAGER, IP_MANAGED_BY_LABEL } from '../networking/ip-address.js';
import type { KindStrategy, KubeObject, StrategyContext } from '../resource-definition.js';

interface ServicePort {
  port?: number;
  nodePort?: number;
}
interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: ServicePort[];
}

/** The cluster's own service range (kube-apiserver's --service-cluster-ip-range in kind). */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
/** The `kubernetes` Service's cluster IP: the range's first address. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
const CIDR_BASE = (10 << 24) | (96 << 16); // 10.96.0.0
const CIDR_SIZE = 1 << 20; // a /12
const IP_ADDRESSES = 'ipaddresses.networking.k8s.io';
const SERVICE_CIDRS = 'servicecidrs.networking.k8s.io';
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

function specOf(service: KubeObject): ServiceSpec {
  return ((service['spec'] as ServiceSpec | undefined) ?? (service['spec'] = {})) as ServiceSpec;
}

function ipToString(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** allocatedIps: every Service's cluster IPs, and the IPs reserved by IPAddresses that the
 * allocator did not make (its own mirror the Services, which are the truth). */
function allocatedIps(ctx: StrategyContext): Set<string> {
  const used = new Set<string>();
  for (const service of ctx.listStored('services')) {
    for (const ip of specOf(service).clusterIPs ?? []) used.add(ip);
  }
  for (const address of ctx.listStored(IP_ADDRESSES)) {
    if (address.metadata.labels?.[IP_MANAGED_BY_LABEL] !== IP_ALLOCATOR_MANAGER) used.add(address.metadata.name ?? '');
  }
  return used;
}

/** inAddedServiceCidr: `ip` lies in a ServiceCIDR users added that is not being deleted. */
function inAddedServiceCidr(ip: string, ctx: StrategyContext): boolean {
  return ctx.listStored(SERVICE_CIDRS).some((serviceCidr) => {
    if (serviceCidr.metadata.deletionTimestamp) return false;
    const cidrs = ((serviceCidr['spec'] as { cidrs?: string[] } | undefined)?.cidrs ?? []).map(parseCidr);
    return cidrs.some((cidr) => cidr !== undefined && cidrContains(cidr, ip));
  });
}

/** allocatedNodePorts are the node ports of every stored Service but `self` (the one being updated). */
function allocatedNodePorts(ctx: StrategyContext, self?: KubeObject): Set<number> {
  const used = new Set<number>();
  for (const service of ctx.listStored('services')) {
    if (self !== undefined && service.metadata.uid === self.metadata.uid) continue;
    for (const port of specOf(service).ports ?? []) if (port.nodePort) used.add(port.nodePort);
  }
  return used;
}

function pickFree<T>(candidate: () => T, used: Set<T>, attempts: number): T | undefined {
  for (let i = 0; i < attempts; i++) {
    const value = candidate();
    if (!used.has(value)) return value;
  }
  return undefined;
}

function assignClusterIp(service: KubeObject, ctx: StrategyContext): void {
  const spec = specOf(service);
  if (spec.type === 'ExternalName') return;
  if (spec.clusterIP === 'None') {
    spec.clusterIPs = ['None'];
    return;
  }
  const used = allocatedIps(ctx);
  if (spec.clusterIP) {
    const requested = spec.clusterIP;
    if (!inServiceCidr(requested) && !inAddedServiceCidr(requested, ctx)) {
      throw allocationError(
        service,
        'spec.clusterIPs',
        [requested],
        `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${DEFAULT_SERVICE_CIDR}`,
      );
    }
    if (used.has(requested))
      throw allocationError(service, 'spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is already allocated`);
  } else {
    // Offsets 0 and 1 are the network address and the `kubernetes` Service.
    const ip = pickFree(() => ipToString(CIDR_BASE + 2 + ctx.randomInt('clusterIp', CIDR_SIZE - 3)), used, 100);
    if (!ip) throw allocationError(service, 'spec.clusterIPs', [], 'failed to allocate a serviceIP: range is full');
    spec.clusterIP = ip;
  }
  spec.clusterIPs = [spec.clusterIP];
}

/** assignNodePorts checks requested node ports (free, in range) and allocates the missing
 * ones; `old` is the stored Service on update, whose own ports do not conflict. */
function assignNodePorts(service: KubeObject, ctx: StrategyContext, old?: KubeObject): void {
  const spec = specOf(service);
  if (spec.type !== 'NodePort' && spec.type !== 'LoadBalancer') return;
  const used = allocatedNodePorts(ctx, old);
  (spec.ports ?? []).forEach((port, i) => {
    if (port.nodePort) checkRequestedNodePort(service, port.nodePort, i, used);
  });
  for (const port of spec.ports ?? []) {
    if (port.nodePort) continue;
    const nodePort = pickFree(() => NODE_PORT_MIN + ctx.randomInt('nodePort', NODE_PORT_MAX - NODE_PORT_MIN + 1), used, 200);
    if (!nodePort) throw allocationError(service, 'spec.ports', [], 'failed to allocate a nodePort: range is full');
    port.nodePort = nodePort;
    used.add(nodePort);
  }
}

/** checkRequestedNodePort rejects a node port outside the range or already taken (also by an
 * earlier port of the same Service), as kube-apiserver's allocator does; marks it used. */
function checkRequestedNodePort(service: KubeObject, nodePort: number, index: number, used: Set<number>): void {
  const field = `spec.ports[${index}].nodePort`;
  if (nodePort < NODE_PORT_MIN || nodePort > NODE_PORT_MAX) {
    throw allocationError(service, field, nodePort, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`);
  }
  if (used.has(nodePort)) throw allocationError(service, field, nodePort, 'provided port is already allocated');
  used.add(nodePort);
}

/** inServiceCidr is true for a dotted IPv4 address inside 10.96.0.0/12. */
function inServiceCidr(ip: string): boolean {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const n = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  return n >= CIDR_BASE && n < CIDR_BASE + CIDR_SIZE;
}

function allocationError(service: KubeObject, field: string, value: unknown, detail: string) {
  return invalidError({ group: '', resource: 'services', kind: 'Service', name: service.metadata.name ?? '' }, [
    { type: 'FieldValueInvalid', field, value, detail },
  ]);
}

/** keepAllocations copies the cluster IPs and node ports of `old` into an update that omits them. */
function keepAllocations(service: KubeObject, old: KubeObject): void {
  const spec = specOf(service);
  const oldSpec = specOf(old);
  if (spec.type !== 'ExternalName' && oldSpec.type !== 'ExternalName') keepClusterIps(spec, oldSpec);
  for (const port of spec.ports ?? []) {
    const previous = oldSpec.ports?.find((p) => p.port === port.port);
    if (!port.nodePort && previous?.nodePort) port.nodePort = previous.nodePort;
  }
}

/** keepClusterIps fills in omitted cluster IPs from `oldSpec`, then takes a change to one of
 * clusterIP and clusterIPs as a change to both, as kube-apiserver's service REST does before
 * validation — which then refuses it (an allocated cluster IP may not change once set). */
function keepClusterIps(spec: ServiceSpec, oldSpec: ServiceSpec): void {
  if (!spec.clusterIP && oldSpec.clusterIP) spec.clusterIP = oldSpec.clusterIP;
  if (!spec.clusterIPs?.length && oldSpec.clusterIPs && spec.clusterIP === oldSpec.clusterIP) spec.clusterIPs = oldSpec.clusterIPs;
  const sameIps = deepEqual(spec.clusterIPs ?? [], oldSpec.clusterIPs ?? []);
  if (spec.clusterIP !== oldSpec.clusterIP && sameIps) {
    if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
    else delete spec.clusterIPs;
  } else if (spec.clusterIP === oldSpec.clusterIP && !sameIps) {
    if (spec.clusterIPs?.[0]) spec.clusterIP = spec.clusterIPs[0];
    else delete spec.clusterIP;
  }
}

/** serviceStrategy is the Service kind's strategy (see serviceDefinition). */
export const serviceStrategy: KindStrategy = {
  beforeCreate(service, ctx) {
    assignClusterIp(service, ctx);
    assignNodePorts(service, ctx);
  },
  beforeUpdate(service, old, ctx) {
    keepAllocations(service, old);
    assignNodePorts(service, ctx, old);
  },
};
