import { describe, expect, it } from 'vitest';
import { IngressSchema, ingressDefinition } from './ingress.js';
import { IngressClassSchema, ingressClassDefinition } from './ingress-class.js';
import { IPAddressSchema, ipAddressDefinition } from './ip-address.js';
import { NetworkPolicySchema, networkPolicyDefinition } from './network-policy.js';
import { parseCidr, validateDomainPrefixedPath } from './network-validation.js';
import { ServiceCIDRSchema, serviceCIDRDefinition } from './service-cidr.js';

const ingress = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  IngressSchema.parse({ metadata: { name: 'web', namespace: 'default', annotations }, spec });
const rule = (path: Record<string, unknown>) => ({ host: 'shop.example.com', http: { paths: [path] } });
const service = { service: { name: 'web', port: { number: 80 } } };
const validateIngress = (spec: Record<string, unknown>) => ingressDefinition.validate?.(ingress(spec));
const cells = (columns: typeof ingressDefinition.printColumns, object: unknown) => columns.map((c) => c.cell(object, { nowMs: 0 }));

describe('Ingress', () => {
  it('accepts rules with typed paths and a default backend', () => {
    expect(validateIngress({ defaultBackend: service, rules: [rule({ path: '/', pathType: 'Prefix', backend: service })] })).toEqual([]);
    expect(validateIngress({ rules: [rule({ pathType: 'ImplementationSpecific', backend: { resource: { kind: 'Bucket', name: 'b' } } })] })).toEqual([]);
  });

  it('needs rules or a default backend, and a pathType on every path', () => {
    expect(validateIngress({})).toEqual([
      { type: 'FieldValueInvalid', field: 'spec', value: null, detail: 'either `defaultBackend` or `rules` must be specified' },
    ]);
    expect(validateIngress({ rules: [rule({ path: '/', backend: service })] })).toEqual([
      { type: 'FieldValueRequired', field: 'spec.rules[0].http.paths[0].pathType', detail: 'pathType must be specified' },
    ]);
    expect(validateIngress({ rules: [rule({ path: '/', pathType: 'Regex', backend: service })] })).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.rules[0].http.paths[0].pathType',
        value: 'Regex',
        detail: 'supported values: "Exact", "ImplementationSpecific", "Prefix"',
      },
    ]);
  });

  it('rejects relative and unsafe paths for Exact and Prefix', () => {
    const pathErrors = (path: string) => validateIngress({ rules: [rule({ path, pathType: 'Exact', backend: service })] })?.map((e) => e.detail);
    expect(pathErrors('shop')).toEqual(['must be an absolute path']);
    expect(pathErrors('/a//b/..')).toEqual(["must not contain '//'", "cannot end with '/..'"]);
  });

  it('wants exactly one backend kind and one way to name the port', () => {
    const backendErrors = (backend: Record<string, unknown>) => validateIngress({ defaultBackend: backend });
    expect(backendErrors({ ...service, resource: { kind: 'Bucket', name: 'b' } })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.defaultBackend', value: '', detail: 'cannot set both resource and service backends' },
    ]);
    expect(backendErrors({})).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.defaultBackend', value: '', detail: 'resource or service backend is required' },
    ]);
    expect(backendErrors({ service: { name: 'web', port: { name: 'http', number: 80 } } })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.defaultBackend', value: '', detail: 'cannot set both port name & port number' },
    ]);
    expect(backendErrors({ service: { name: 'web' } })).toEqual([
      { type: 'FieldValueRequired', field: 'spec.defaultBackend', detail: 'port name or number is required' },
    ]);
    expect(backendErrors({ service: { name: '1web', port: { number: 70000 } } })?.map((e) => e.field)).toEqual([
      'spec.defaultBackend.service.name',
      'spec.defaultBackend.service.port.number',
    ]);
  });

  it('checks hosts: DNS names, wildcards, never IPs', () => {
    const hostErrors = (host: string) => validateIngress({ rules: [{ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: service }] } }] });
    expect(hostErrors('*.example.com')).toEqual([]);
    expect(hostErrors('10.0.0.1')?.[0]).toEqual({
      type: 'FieldValueInvalid',
      field: 'spec.rules[0].host',
      value: '10.0.0.1',
      detail: 'must be a DNS name, not an IP address',
    });
    expect(hostErrors('a.*.com')?.[0]?.detail).toMatch(/^a wildcard DNS-1123 subdomain must start with/);
  });

  it('wants the class annotation to agree with ingressClassName on create only', () => {
    const annotated = ingress({ ingressClassName: 'nginx', defaultBackend: service }, { 'kubernetes.io/ingress.class': 'traefik' });
    expect(ingressDefinition.validate?.(annotated)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'annotations.kubernetes.io/ingress.class',
        value: 'traefik',
        detail: 'must match `ingressClassName` when both are specified',
      },
    ]);
    expect(ingressDefinition.validate?.(annotated, annotated)).toEqual([]);
  });

  it('checks the load balancer addresses a controller writes', () => {
    const web = ingress({ defaultBackend: service });
    web.status = { loadBalancer: { ingress: [{ ip: '300.1.1.1' }, { hostname: '192.0.2.1' }] } };
    expect(ingressDefinition.validate?.(web)?.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'status.loadBalancer.ingress[0].ip: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.loadBalancer.ingress[1].hostname: must be a DNS name, not an IP address',
    ]);
  });

  it('defaults an empty load balancer status and prints NAME CLASS HOSTS ADDRESS PORTS AGE', () => {
    const web = ingress({ rules: [{ host: 'a.com' }, { host: 'b.com' }, {}, { host: 'd.com' }], tls: [{ hosts: ['a.com'] }] });
    ingressDefinition.defaults?.(web);
    expect(web.status).toEqual({ loadBalancer: {} });
    expect(cells(ingressDefinition.printColumns, web).slice(0, 5)).toEqual(['web', '<none>', 'a.com,b.com + 1 more...', '', '80, 443']);
    const served = {
      ...web,
      spec: { ingressClassName: 'nginx' },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.2' }, { hostname: 'lb.example.com' }, { ip: '192.0.2.1' }] } },
    };
    expect(cells(ingressDefinition.printColumns, served).slice(1, 5)).toEqual(['nginx', '*', '192.0.2.1,192.0.2.2,lb.example.com', '80']);
  });
});

describe('IngressClass', () => {
  const ingressClass = (spec: Record<string, unknown>) => IngressClassSchema.parse({ metadata: { name: 'nginx' }, spec });

  it('defaults parameters to the Cluster scope and keeps the controller immutable', () => {
    const nginx = ingressClass({ controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Config', name: 'c' } });
    ingressClassDefinition.defaults?.(nginx);
    expect(nginx.spec.parameters?.scope).toBe('Cluster');
    expect(ingressClassDefinition.validate?.(nginx)).toEqual([]);
    const moved = ingressClass({ controller: 'example.com/other' });
    expect(ingressClassDefinition.validate?.(moved, nginx)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.controller', value: 'example.com/other', detail: 'field is immutable' },
    ]);
  });

  it('wants a domain-prefixed controller and a namespace exactly for Namespace-scoped parameters', () => {
    expect(validateDomainPrefixedPath('nginx', 'spec.controller')).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.controller', value: 'nginx', detail: 'must be a domain-prefixed path (such as "acme.io/foo")' },
    ]);
    const scoped = (parameters: Record<string, unknown>) => ingressClassDefinition.validate?.(ingressClass({ controller: 'a.io/b', parameters }));
    expect(scoped({ kind: 'C', name: 'c', scope: 'Namespace' })).toEqual([
      { type: 'FieldValueRequired', field: 'spec.parameters.namespace', detail: "`parameters.scope` is set to 'Namespace'" },
    ]);
    expect(scoped({ kind: 'C', name: 'c', scope: 'Cluster', namespace: 'x' })).toEqual([
      { type: 'FieldValueForbidden', field: 'spec.parameters.namespace', detail: "`parameters.scope` is set to 'Cluster'" },
    ]);
  });
});

describe('NetworkPolicy', () => {
  const policy = (spec: Record<string, unknown>) => NetworkPolicySchema.parse({ metadata: { name: 'p', namespace: 'default' }, spec });

  it('defaults policy types from the rules and ports to TCP', () => {
    const ingressOnly = policy({ ingress: [{ ports: [{ port: 80 }] }] });
    networkPolicyDefinition.defaults?.(ingressOnly);
    expect(ingressOnly.spec).toEqual({ podSelector: {}, ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }], policyTypes: ['Ingress'] });
    const both = policy({ egress: [{}] });
    networkPolicyDefinition.defaults?.(both);
    expect(both.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('validates ports, peers and ipBlocks in kube-apiserver words', () => {
    const errors = networkPolicyDefinition.validate?.(
      policy({
        ingress: [
          {
            ports: [
              { port: 'http', endPort: 90 },
              { port: 100, endPort: 90 },
            ],
            from: [{}, { ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] }, podSelector: {} }],
          },
        ],
        egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }],
        policyTypes: ['Sideways'],
      }),
    );
    expect(errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.ingress[0].ports[0].endPort', value: 90, detail: 'may not be specified when `port` is non-numeric' },
      { type: 'FieldValueInvalid', field: 'spec.ingress[0].ports[1].endPort', value: 90, detail: 'must be greater than or equal to `port`' },
      { type: 'FieldValueRequired', field: 'spec.ingress[0].from[0]', detail: 'must specify a peer' },
      { type: 'FieldValueInvalid', field: 'spec.ingress[0].from[1].ipBlock.except[0]', value: '10.1.0.0/24', detail: 'must be a strict subset of `cidr`' },
      { type: 'FieldValueForbidden', field: 'spec.ingress[0].from[1]', detail: 'may not specify both ipBlock and another peer' },
      {
        type: 'FieldValueInvalid',
        field: 'spec.egress[0].to[0].ipBlock.cidr',
        value: '10.0.0.0/33',
        detail: 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      },
      { type: 'FieldValueNotSupported', field: 'spec.policyTypes[0]', value: 'Sideways', detail: 'supported values: "Ingress", "Egress"' },
    ]);
  });

  it('parses IPv4 and IPv6 CIDRs', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ family: 4, prefix: 8 });
    expect(parseCidr('2001:db8::/64')).toMatchObject({ family: 6, prefix: 64 });
    expect(parseCidr('2001:db8::1')).toBeUndefined();
    expect(parseCidr('10.0.0.0/8/8')).toBeUndefined();
  });

  it('prints the pod selector', () => {
    expect(networkPolicyDefinition.printColumns[1]?.cell(policy({ podSelector: { matchLabels: { app: 'shop' } } }), { nowMs: 0 })).toBe('app=shop');
    expect(networkPolicyDefinition.printColumns[1]?.cell(policy({}), { nowMs: 0 })).toBe('<none>');
  });
});

describe('ServiceCIDR', () => {
  const cidr = (cidrs: string[]) => ServiceCIDRSchema.parse({ metadata: { name: 'extra' }, spec: { cidrs } });
  const validate = (cidrs: string[], old?: string[]) => serviceCIDRDefinition.validate?.(cidr(cidrs), old ? cidr(old) : undefined);

  it('takes one CIDR per IP family, in kube-apiserver words', () => {
    expect(validate(['10.0.0.0/24', '2001:db8::/64'])).toEqual([]);
    expect(validate([])).toEqual([{ type: 'FieldValueRequired', field: 'spec.cidrs', detail: 'at least one CIDR required' }]);
    expect(validate(['10.0.0.0/24', '10.1.0.0/24'])).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.cidrs',
        value: ['10.0.0.0/24', '10.1.0.0/24'],
        detail: 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      },
    ]);
    expect(validate(['10.0.0.1/24'])).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.cidrs[0]', value: '10.0.0.1/24', detail: 'must not have bits set beyond the prefix length' },
    ]);
  });

  it('keeps its CIDRs, except that one family may gain the other', () => {
    expect(validate(['10.0.0.0/24', '2001:db8::/64'], ['10.0.0.0/24'])).toEqual([]);
    expect(validate(['10.1.0.0/24'], ['10.0.0.0/24'])).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.cidrs[0]', value: '10.1.0.0/24', detail: 'field is immutable' },
    ]);
    expect(validate(['10.0.0.0/24'], ['10.0.0.0/24', '2001:db8::/64'])).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.cidrs', value: ['10.0.0.0/24'], detail: 'field is immutable' },
    ]);
  });

  it('prints its CIDRs joined by commas', () => {
    expect(cells(serviceCIDRDefinition.printColumns, cidr(['10.0.0.0/24', '2001:db8::/64'])).slice(0, 2)).toEqual(['extra', '10.0.0.0/24,2001:db8::/64']);
  });
});

describe('IPAddress', () => {
  const address = (parentRef?: Record<string, string>) => IPAddressSchema.parse({ metadata: { name: '10.96.0.10' }, spec: { parentRef } });
  const service = { resource: 'services', namespace: 'default', name: 'web' };

  it('needs a parent reference with a resource and a name, which may not change', () => {
    expect(ipAddressDefinition.validate?.(address(service))).toEqual([]);
    expect(ipAddressDefinition.validate?.(address())).toEqual([{ type: 'FieldValueRequired', field: 'spec.parentRef' }]);
    expect(ipAddressDefinition.validate?.(address({ namespace: 'default' }))).toEqual([
      { type: 'FieldValueRequired', field: 'spec.parentRef.resource' },
      { type: 'FieldValueRequired', field: 'spec.parentRef.name' },
    ]);
    expect(ipAddressDefinition.validate?.(address({ ...service, name: 'other' }), address(service))).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.parentRef', value: { ...service, name: 'other' }, detail: 'field is immutable' },
    ]);
  });

  it('prints its parent as resource[.group]/[namespace/]name', () => {
    expect(cells(ipAddressDefinition.printColumns, address(service))).toEqual(['10.96.0.10', 'services/default/web']);
    expect(cells(ipAddressDefinition.printColumns, address({ group: 'Example.com', resource: 'Gateways', name: 'gw' }))).toEqual([
      '10.96.0.10',
      'gateways.example.com/gw',
    ]);
    expect(cells(ipAddressDefinition.printColumns, address())).toEqual(['10.96.0.10', '<none>']);
  });
});
