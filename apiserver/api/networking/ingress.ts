/**
 * networking.k8s.io/v1 Ingress: HTTP routing rules (hosts, paths) to Services. kubesim runs no
 * ingress controller, so, as on a real cluster without one, nothing routes traffic and
 * `status.loadBalancer` stays empty (the ADDRESS column is blank) unless a client writes it
 * through /status.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { atomicStruct } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isDns1035Label, isDns1123Subdomain, isValidPortName, isValidPortNum, notSupported, required } from '../validation.js';
import { IngressMessage } from './ingress-protobuf.js';
import { hostErrors, isIpAddress, validateTypedReference } from './network-validation.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';

/** PATH_TYPES are the values of an HTTP path's pathType. */
export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'] as const;

export const TypedLocalObjectReferenceSchema = z
  .object({
    apiGroup: z.string().optional().describe('Group of the referenced resource; the core group when unset.'),
    kind: z.string().describe('Kind of the referenced resource.'),
    name: z.string().describe('Name of the referenced resource.'),
  })
  .meta({
    id: 'io.k8s.api.core.v1.TypedLocalObjectReference',
    description: 'TypedLocalObjectReference points at an object in the same namespace.',
    ...atomicStruct,
  });

const ServiceBackendPortSchema = z
  .object({
    name: z.string().optional().describe('Name of the port on the Service. Mutually exclusive with number.'),
    number: z.int32().optional().describe('Number of the port on the Service. Mutually exclusive with name.'),
  })
  .meta({ id: `${NETWORKING_V1}.ServiceBackendPort`, description: 'ServiceBackendPort is the service port being referenced.', ...atomicStruct });

export const IngressBackendSchema = z
  .object({
    service: z
      .object({
        name: z.string().describe('Name of the Service, in the Ingress namespace.'),
        port: ServiceBackendPortSchema.optional().describe('Port of the Service: a name or a number.'),
      })
      .meta({ id: `${NETWORKING_V1}.IngressServiceBackend`, description: 'IngressServiceBackend references a Service as a backend.' })
      .optional()
      .describe('A Service backend. Mutually exclusive with resource.'),
    resource: TypedLocalObjectReferenceSchema.optional().describe('Another resource of the namespace as backend. Mutually exclusive with service.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressBackend`, description: 'IngressBackend describes all endpoints for a given service and port.' });

export type IngressBackend = z.infer<typeof IngressBackendSchema>;

const HTTPIngressPathSchema = z
  .object({
    path: z.string().optional().describe('Path matched against the request path; must start with "/" for Exact and Prefix.'),
    pathType: z.string().optional().describe('How the path matches: Exact, Prefix or ImplementationSpecific. Required.'),
    backend: IngressBackendSchema.default(() => ({})).describe('Where matching requests go.'),
  })
  .meta({ id: `${NETWORKING_V1}.HTTPIngressPath`, description: 'HTTPIngressPath associates a path with a backend.' });

export const IngressRuleSchema = z
  .object({
    host: z.string().optional().describe('Fully qualified domain name of a host ("foo.bar.com" or "*.foo.com"); all hosts when unset.'),
    http: z
      .object({ paths: z.array(HTTPIngressPathSchema).describe('Paths that map requests to backends.').meta({ 'x-kubernetes-list-type': 'atomic' }) })
      .meta({ id: `${NETWORKING_V1}.HTTPIngressRuleValue`, description: 'HTTPIngressRuleValue is a list of http selectors pointing to backends.' })
      .optional()
      .describe('HTTP paths of the host.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressRule`, description: 'IngressRule maps the paths under a host to backends.' });

const IngressTLSSchema = z
  .object({
    hosts: z.array(z.string()).optional().describe('Hosts covered by the certificate.').meta({ 'x-kubernetes-list-type': 'atomic' }),
    secretName: z.string().optional().describe('Secret holding the certificate and key that terminate TLS on port 443.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressTLS`, description: 'IngressTLS describes the transport layer security of an Ingress.' });

export const IngressSpecSchema = z
  .object({
    ingressClassName: z.string().optional().describe('Name of the IngressClass whose controller serves this Ingress.'),
    defaultBackend: IngressBackendSchema.optional().describe('Backend of requests that match no rule.'),
    tls: z.array(IngressTLSSchema).optional().describe('TLS configuration.').meta({ 'x-kubernetes-list-type': 'atomic' }),
    rules: z
      .array(IngressRuleSchema)
      .optional()
      .describe('Host rules. When none matches, traffic goes to the default backend.')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .meta({ id: `${NETWORKING_V1}.IngressSpec`, description: 'IngressSpec describes the Ingress the user wishes to exist.' });

const IngressPortStatusSchema = z
  .object({
    port: z.int32().describe('Port number of the ingress port.'),
    protocol: z.string().describe('Protocol of the ingress port: TCP, UDP or SCTP.'),
    error: z.string().optional().describe('The problem with the port, if any.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressPortStatus`, description: 'IngressPortStatus represents the error condition of a port.' });

const IngressLoadBalancerIngressSchema = z
  .object({
    ip: z.string().optional().describe('IP of an IP-based ingress point.'),
    hostname: z.string().optional().describe('Host name of a DNS-based ingress point.'),
    ports: z.array(IngressPortStatusSchema).optional().describe('Ports exposed by the load balancer.').meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .meta({
    id: `${NETWORKING_V1}.IngressLoadBalancerIngress`,
    description: 'IngressLoadBalancerIngress represents the status of a load-balancer ingress point.',
  });

export const IngressStatusSchema = z
  .object({
    loadBalancer: z
      .object({
        ingress: z
          .array(IngressLoadBalancerIngressSchema)
          .optional()
          .describe('Ingress points of the load balancer.')
          .meta({ 'x-kubernetes-list-type': 'atomic' }),
      })
      .meta({ id: `${NETWORKING_V1}.IngressLoadBalancerStatus`, description: 'IngressLoadBalancerStatus represents the status of a load-balancer.' })
      .optional()
      .describe('Status of the load balancer an ingress controller set up.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressStatus`, description: 'IngressStatus describes the current state of the Ingress.' });

export const IngressSchema = z
  .object({
    ...typeMetaFields('networking.k8s.io/v1', 'Ingress'),
    spec: IngressSpecSchema.default(() => ({})).describe('Desired state of the Ingress.'),
    status: IngressStatusSchema.optional().describe('Current state of the Ingress, written by its ingress controller.'),
  })
  .meta({
    id: `${NETWORKING_V1}.Ingress`,
    description: 'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend.',
  });

export type Ingress = z.infer<typeof IngressSchema>;

const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

type HttpPath = z.infer<typeof HTTPIngressPathSchema>;

/** validateIngress checks an Ingress on create and update (pure). */
export function validateIngress(ingress: Ingress, old?: Ingress): FieldError[] {
  const { spec } = ingress;
  const errors: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && spec.defaultBackend === undefined) {
    errors.push(invalid('spec', null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (spec.defaultBackend) errors.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    if (rule.host) {
      if (isIpAddress(rule.host)) errors.push(invalid(`${at}.host`, rule.host, 'must be a DNS name, not an IP address'));
      errors.push(...hostErrors(rule.host, `${at}.host`));
    }
    if (rule.http) errors.push(...validateHttpPaths(rule.http.paths, `${at}.http`));
  });
  (spec.tls ?? []).forEach((tls, i) => {
    (tls.hosts ?? []).forEach((host, j) => errors.push(...hostErrors(host, `spec.tls[${i}].hosts[${j}]`)));
    if (tls.secretName) errors.push(...isDns1123Subdomain(tls.secretName).map((d) => invalid(`spec.tls[${i}].secretName`, tls.secretName, d)));
  });
  if (spec.ingressClassName !== undefined) {
    errors.push(...isDns1123Subdomain(spec.ingressClassName).map((d) => invalid('spec.ingressClassName', spec.ingressClassName, d)));
  }
  errors.push(...validateLoadBalancerStatus(ingress));
  const annotated = ingress.metadata.annotations?.[CLASS_ANNOTATION];
  if (!old && annotated !== undefined && spec.ingressClassName !== undefined && annotated !== spec.ingressClassName) {
    errors.push(invalid(`annotations.${CLASS_ANNOTATION}`, annotated, 'must match `ingressClassName` when both are specified'));
  }
  return errors;
}

/** validateLoadBalancerStatus checks what an ingress controller wrote (ValidateIngressLoadBalancerStatus). */
function validateLoadBalancerStatus(ingress: Ingress): FieldError[] {
  return (ingress.status?.loadBalancer?.ingress ?? []).flatMap((point, i) => {
    const at = `status.loadBalancer.ingress[${i}]`;
    const errors: FieldError[] = [];
    if (point.ip && !isIpAddress(point.ip)) errors.push(invalid(`${at}.ip`, point.ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    if (point.hostname) {
      errors.push(...isDns1123Subdomain(point.hostname).map((d) => invalid(`${at}.hostname`, point.hostname, d)));
      if (isIpAddress(point.hostname)) errors.push(invalid(`${at}.hostname`, point.hostname, 'must be a DNS name, not an IP address'));
    }
    return errors;
  });
}

function validateHttpPaths(paths: HttpPath[] | undefined, field: string): FieldError[] {
  if (!paths || paths.length === 0) return [required(`${field}.paths`)];
  return paths.flatMap((path, i) => validateHttpPath(path, `${field}.paths[${i}]`));
}

function validateHttpPath(path: HttpPath, field: string): FieldError[] {
  if (path.pathType === undefined) return [{ ...required(`${field}.pathType`), detail: 'pathType must be specified' }];
  const value = path.path ?? '';
  const errors: FieldError[] = [];
  if (path.pathType === 'Exact' || path.pathType === 'Prefix') {
    if (!value.startsWith('/')) errors.push(invalid(`${field}.path`, value, 'must be an absolute path'));
    for (const sequence of INVALID_PATH_SEQUENCES) {
      if (value.includes(sequence)) errors.push(invalid(`${field}.path`, value, `must not contain '${sequence}'`));
    }
    for (const suffix of INVALID_PATH_SUFFIXES) {
      if (value.endsWith(suffix)) errors.push(invalid(`${field}.path`, value, `cannot end with '${suffix}'`));
    }
  } else if (path.pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errors.push(invalid(`${field}.path`, value, 'must be an absolute path'));
  } else {
    errors.push(notSupported(`${field}.pathType`, path.pathType, PATH_TYPES));
  }
  errors.push(...validateBackend(path.backend, `${field}.backend`));
  return errors;
}

/** validateBackend: exactly one of service and resource; a Service backend names a port. */
function validateBackend(backend: IngressBackend, field: string): FieldError[] {
  if (backend.resource && backend.service) return [invalid(field, '', 'cannot set both resource and service backends')];
  if (backend.resource) return validateTypedReference(backend.resource, `${field}.resource`);
  if (!backend.service) return [invalid(field, '', 'resource or service backend is required')];
  const errors: FieldError[] = [];
  const { name, port } = backend.service;
  if (name === '') errors.push(required(`${field}.service.name`));
  else errors.push(...isDns1035Label(name).map((d) => invalid(`${field}.service.name`, name, d)));
  const portName = port?.name ?? '';
  const portNumber = port?.number ?? 0;
  if (portName !== '' && portNumber !== 0) errors.push(invalid(field, '', 'cannot set both port name & port number'));
  else if (portName !== '') errors.push(...isValidPortName(portName).map((d) => invalid(`${field}.service.port.name`, portName, d)));
  else if (portNumber !== 0) errors.push(...isValidPortNum(portNumber).map((d) => invalid(`${field}.service.port.number`, portNumber, d)));
  else errors.push({ ...required(field), detail: 'port name or number is required' });
  return errors;
}

// The default IngressClass of a new Ingress is the DefaultIngressClass admission plugin's
// (apiserver/admission/plugins/default-ingress-class.ts).

/** hostsCell lists at most three rule hosts, `*` when no rule names one (formatHosts). */
export function hostsCell(ingress: Ingress): string {
  const rules = ingress.spec?.rules ?? [];
  const shown = rules.slice(0, 3).flatMap((rule) => (rule.host ? [rule.host] : []));
  if (shown.length === 0) return '*';
  const more = rules.length > 3 ? ` + ${rules.length - 3} more...` : '';
  return `${shown.join(',')}${more}`;
}

/** addressCell lists the load balancer's IPs and host names, sorted and deduplicated. */
export function addressCell(ingress: Ingress): string {
  const points = ingress.status?.loadBalancer?.ingress ?? [];
  const addresses = new Set(points.flatMap((point) => [point.ip, point.hostname].filter((value): value is string => Boolean(value))));
  return [...addresses].sort().join(',');
}

/** ingressDefinition serves networking.k8s.io/v1 ingresses (ing), with /status. */
export const ingressDefinition: ResourceDefinition<Ingress> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  categories: [],
  namespaced: true,
  schema: IngressSchema,
  // Go's non-pointer structs: a stored Ingress always shows `status: {loadBalancer: {}}`.
  defaults: (ingress) => {
    ingress.status ??= {};
    ingress.status.loadBalancer ??= {};
  },
  validate: validateIngress,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Class', (ingress: Ingress) => ingress.spec?.ingressClassName ?? '<none>', { description: 'The IngressClass of the Ingress.' }),
    column('Hosts', hostsCell, { description: 'Hosts of the Ingress rules.' }),
    column('Address', addressCell, { description: 'Addresses of the load balancer serving the Ingress.' }),
    column('Ports', (ingress: Ingress) => ((ingress.spec?.tls ?? []).length > 0 ? '80, 443' : '80'), { description: 'Ports of the Ingress.' }),
    ageColumn,
  ],
  protobuf: IngressMessage,
  storage: { resource: 'ingresses.networking.k8s.io' },
};
