/** core/v1 Service: a stable virtual IP and DNS name in front of a set of pods. */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { IntOrStringSchema, StringMapSchema, typeMetaFields } from '../meta.js';
import { keyDefault, mergeByKey } from '../patch-meta.js';
import { ageColumn, column, formatLabels, nameColumn } from '../printing.js';
import type { FieldError, PrintColumn, ResourceDefinition } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isDns1123Label, isDns1123Subdomain, isValidPortName, isValidPortNum, required, validateLabels } from '../validation.js';
import { PROTOCOLS } from './container.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';
import { serviceStrategy } from './service-allocation.js';
import { ServiceMessage } from './service-protobuf.js';

export const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const ServicePortSchema = z
  .object({
    name: z.string().optional().describe('Name of the port, a DNS label; required when the service has more than one port.'),
    protocol: enumOf(PROTOCOLS).optional().meta(keyDefault('TCP')).describe('TCP, UDP or SCTP. Defaults to TCP.'),
    appProtocol: z.string().optional().describe('Application protocol, e.g. http or kubernetes.io/h2c.'),
    port: z.int32().describe('Port the service exposes.'),
    targetPort: IntOrStringSchema.optional().describe("Number or name of the pods' port traffic is sent to. Defaults to port."),
    nodePort: z.int32().optional().describe('Port opened on every node for NodePort and LoadBalancer services. Allocated when unset.'),
  })
  .meta({ id: `${K8S_CORE}.ServicePort`, description: 'ServicePort is one port a service exposes.' });

export type ServicePort = z.infer<typeof ServicePortSchema>;

export const ServiceSpecSchema = z
  .object({
    ports: z
      .array(ServicePortSchema)
      .optional()
      .meta({ ...mergeByKey('port'), 'x-kubernetes-list-map-keys': ['port', 'protocol'] })
      .describe('Ports exposed by the service.'),
    selector: StringMapSchema.optional()
      .meta({ 'x-kubernetes-map-type': 'atomic' })
      .describe('Traffic goes to pods whose labels match this selector. Without one, endpoints are managed externally.'),
    clusterIP: z.string().optional().describe('Virtual IP of the service, allocated by the system; "None" makes a headless service.'),
    clusterIPs: z.array(z.string()).optional().meta({ 'x-kubernetes-list-type': 'atomic' }).describe('Virtual IPs of the service; the first equals clusterIP.'),
    type: enumOf(SERVICE_TYPES).optional().describe('ClusterIP, NodePort, LoadBalancer or ExternalName. Defaults to ClusterIP.'),
    externalIPs: z.array(z.string()).optional().describe('Extra IPs on which nodes accept traffic for this service.'),
    sessionAffinity: enumOf(['ClientIP', 'None']).optional().describe('ClientIP keeps a client on one pod. Defaults to None.'),
    sessionAffinityConfig: z
      .object({
        clientIP: z
          .object({ timeoutSeconds: z.int32().optional().describe('Sticky session lifetime. Defaults to 10800.') })
          .meta({ id: `${K8S_CORE}.ClientIPConfig` })
          .optional(),
      })
      .meta({ id: `${K8S_CORE}.SessionAffinityConfig` })
      .optional()
      .describe('Session affinity settings.'),
    loadBalancerIP: z.string().optional().describe('Deprecated: requested load balancer IP.'),
    loadBalancerSourceRanges: z.array(z.string()).optional().describe('Client CIDRs allowed through the load balancer.'),
    loadBalancerClass: z.string().optional().describe('Load balancer implementation to use.'),
    externalName: z.string().optional().describe('DNS name an ExternalName service aliases (a CNAME record).'),
    externalTrafficPolicy: enumOf(['Cluster', 'Local']).optional().describe('Cluster or Local routing of external traffic.'),
    internalTrafficPolicy: enumOf(['Cluster', 'Local']).optional().describe('Cluster or Local routing of in-cluster traffic. Defaults to Cluster.'),
    healthCheckNodePort: z.int32().optional().describe('Health check port for externalTrafficPolicy Local.'),
    publishNotReadyAddresses: z.boolean().optional().describe('Publish endpoints of pods that are not ready.'),
    ipFamilies: z
      .array(enumOf(['IPv4', 'IPv6']))
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('IP families of the service.'),
    ipFamilyPolicy: enumOf(['SingleStack', 'PreferDualStack', 'RequireDualStack']).optional().describe('Dual-stack policy.'),
    allocateLoadBalancerNodePorts: z.boolean().optional().describe('Allocate node ports for LoadBalancer services. Defaults to true.'),
    trafficDistribution: z.string().optional().describe('Preference for routing traffic, e.g. PreferClose.'),
  })
  .meta({ id: `${K8S_CORE}.ServiceSpec`, description: 'ServiceSpec describes the attributes a user creates on a service.' });

export type ServiceSpec = z.infer<typeof ServiceSpecSchema>;

export const LoadBalancerIngressSchema = z
  .object({
    ip: z.string().optional().describe('IP of the load balancer ingress point.'),
    hostname: z.string().optional().describe('Hostname of the load balancer ingress point.'),
    ipMode: z.string().optional().describe('VIP or Proxy.'),
    ports: z.array(z.looseObject({}).meta({ id: `${K8S_CORE}.PortStatus` })).optional(),
  })
  .meta({ id: `${K8S_CORE}.LoadBalancerIngress`, description: 'An ingress point of a load balancer.' });

export const ServiceStatusSchema = z
  .object({
    loadBalancer: z
      .object({ ingress: z.array(LoadBalancerIngressSchema).optional().describe('Ingress points of the load balancer.') })
      .meta({ id: `${K8S_CORE}.LoadBalancerStatus` })
      .optional()
      .describe('Status of the load balancer, if any.'),
    conditions: z
      .array(z.looseObject({ type: z.string() }))
      .optional()
      .meta(mergeByKey('type'))
      .describe('Current service state.'),
  })
  .meta({ id: `${K8S_CORE}.ServiceStatus`, description: 'ServiceStatus is the observed state of a service.' });

export const ServiceSchema = z
  .object({
    ...typeMetaFields('v1', 'Service'),
    spec: ServiceSpecSchema.optional().describe('Behaviour of the service.'),
    status: ServiceStatusSchema.optional().describe('Most recently observed status of the service.'),
  })
  .meta({ id: `${K8S_CORE}.Service`, description: 'Service exposes a set of pods behind one virtual IP, DNS name and port set.' });

export type Service = z.infer<typeof ServiceSchema>;

/** defaultService fills Kubernetes' Service defaults in place (idempotent). Cluster IP and
 * node port allocation is the API server's job, not defaulting's. */
export function defaultService(service: Service): void {
  const spec = (service.spec ??= {});
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = ((spec.sessionAffinityConfig ??= {}).clientIP ??= {});
    clientIP.timeoutSeconds ??= 10800;
  }
  for (const port of spec.ports ?? []) {
    port.protocol ??= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (spec.type === 'ExternalName') return;
  spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
}

/* Service validation after Kubernetes' ValidateService, for the fields kubesim serves. */

/** validateService checks a (defaulted) Service; `old` is set on update. Pure. */
export function validateService(service: Service, old?: Service): FieldError[] {
  const spec = service.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const errors: FieldError[] = [];
  const isHeadless = spec.clusterIP === 'None';
  if (type === 'ExternalName') {
    if (!spec.externalName) errors.push(required('spec.externalName'));
    else errors.push(...isDns1123Subdomain(spec.externalName).map((d) => invalid('spec.externalName', spec.externalName, d)));
  } else if ((spec.ports ?? []).length === 0 && !isHeadless) {
    errors.push(required('spec.ports'));
  }
  errors.push(...validatePorts(spec.ports ?? [], type));
  errors.push(...validateLabels(spec.selector, 'spec.selector'));
  if (old) errors.unshift(...validateClusterIpsUpdate(spec, old.spec ?? {}));
  return errors;
}

/** validateClusterIpsUpdate keeps allocated cluster IPs (Kubernetes'
 * validateUpgradeDowngradeClusterIPs): the primary cannot be released or changed, nor can any
 * IP of an unchanged list; ExternalName services and headless ones have none to keep. */
function validateClusterIpsUpdate(spec: ServiceSpec, oldSpec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const ips = spec.clusterIPs ?? [];
  const oldIps = oldSpec.clusterIPs ?? [];
  const headless = (list: string[]) => list.length === 1 && list[0] === 'None';
  if (headless(ips) && headless(oldIps)) return [];
  const changed = (i: number) => invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set');
  if (ips.length === oldIps.length) return oldIps.flatMap((ip, i) => (ip === ips[i] ? [] : [changed(i)]));
  if (ips.length === 0) return [invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset')];
  return oldIps.length > 0 && ips[0] !== oldIps[0] ? [changed(0)] : [];
}

function validatePorts(ports: ServicePort[], type: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    if (!port.name && ports.length > 1) errors.push(required(`${at}.name`));
    if (port.name) {
      errors.push(...isDns1123Label(port.name).map((d) => invalid(`${at}.name`, port.name, d)));
      if (names.has(port.name)) errors.push(duplicate(`${at}.name`, port.name));
      names.add(port.name);
    }
    errors.push(...isValidPortNum(port.port).map((d) => invalid(`${at}.port`, port.port, d)));
    errors.push(...validateTargetPort(port.targetPort, `${at}.targetPort`));
    if (port.nodePort) {
      if (type !== 'NodePort' && type !== 'LoadBalancer') errors.push(forbidden(`${at}.nodePort`, `may not be used when \`type\` is '${type}'`));
      errors.push(...isValidPortNum(port.nodePort).map((d) => invalid(`${at}.nodePort`, port.nodePort, d)));
    }
    const key = `${port.port}/${port.protocol ?? 'TCP'}`;
    if (keys.has(key)) errors.push(duplicate(at, { port: port.port, protocol: port.protocol ?? 'TCP' }));
    keys.add(key);
  });
  return errors;
}

function validateTargetPort(target: number | string | undefined, field: string): FieldError[] {
  if (target === undefined) return [];
  const problems = typeof target === 'number' ? isValidPortNum(target) : isValidPortName(target);
  return problems.map((d) => invalid(field, target, d));
}

/* The service Table row, after kube's printService (rendered wide, as the server does). */

/** serviceExternalIPCell is the EXTERNAL-IP cell: external IPs for ClusterIP/NodePort
 * (`<none>` without), load balancer ingress points then external IPs for LoadBalancer
 * (`<pending>` while there are none), the external name for ExternalName. */
export function serviceExternalIPCell(service: Service): string {
  const externalIPs = service.spec?.externalIPs ?? [];
  switch (service.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = (service.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter(Boolean);
      const all = [...ingress, ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return service.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** servicePortsCell renders ports as `port/PROTO` or `port:nodePort/PROTO`, comma-joined,
 * `<none>` without ports. */
export function servicePortsCell(service: Service): string {
  const ports = service.spec?.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
}

/** serviceColumns are the service Table columns (docs/kubectl-wire.md, "Tables"). */
export const serviceColumns: PrintColumn[] = [
  nameColumn,
  column('Type', (s: Service) => s.spec?.type ?? '', { description: 'How the service is exposed.' }),
  column('Cluster-IP', (s: Service) => s.spec?.clusterIPs?.[0] || s.spec?.clusterIP || '<none>', {
    description: 'Virtual IP of the service.',
  }),
  column('External-IP', serviceExternalIPCell, { description: 'Addresses on which the service is reachable from outside.' }),
  column('Port(s)', servicePortsCell, { description: 'Ports exposed by the service.' }),
  ageColumn,
  column('Selector', (s: Service) => formatLabels(s.spec?.selector), { wide: true, description: 'Pods the service routes to.' }),
];

export const serviceDefinition: ResourceDefinition<Service> = {
  ...KIND_IDS.service,
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  nameRule: 'dns1035-label',
  schema: ServiceSchema,
  defaults: defaultService,
  validate: validateService,
  strategy: serviceStrategy,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: serviceColumns,
  fieldSelectors: {
    'spec.clusterIP': (service) => service.spec?.clusterIP ?? '',
    'spec.type': (service) => service.spec?.type ?? '',
  },
  protobuf: ServiceMessage,
  liveView: 'services',
  storage: { resource: 'services' },
};
