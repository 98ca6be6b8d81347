import { describe, expect, it } from 'vitest';
import type { PrintContext } from '../resource-definition.js';
import { type Service, ServiceSchema, serviceDefinition } from './service.js';

const context: PrintContext = { nowMs: Date.parse('2026-01-10T12:00:00Z') };

function admit(body: object, old?: Service) {
  const service = ServiceSchema.parse(body);
  serviceDefinition.defaults?.(service);
  return { service, errors: serviceDefinition.validate?.(service, old) ?? [] };
}

const cells = (service: Service) => Object.fromEntries(serviceDefinition.printColumns.map((c) => [c.name, c.cell(service, context)]));

const web = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };

describe('Service', () => {
  it('applies the service defaults but leaves clusterIP to the server', () => {
    const { service, errors } = admit(web);
    expect(errors).toEqual([]);
    expect(service.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(serviceDefinition).toMatchObject({ nameRule: 'dns1035-label', shortNames: ['svc'], categories: ['all'] });
  });

  it('defaults externalTrafficPolicy and node port allocation for LoadBalancers', () => {
    const { service } = admit({ metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 443, targetPort: 'https' }] } });
    expect(service.spec).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
    expect(service.spec?.ports?.[0]?.targetPort).toBe('https');
  });

  it('prints a ClusterIP service', () => {
    const { service } = admit(web);
    service.spec!.clusterIP = '10.96.0.10';
    service.spec!.clusterIPs = ['10.96.0.10'];
    service.metadata.creationTimestamp = '2026-01-10T11:00:00Z';
    expect(cells(service)).toEqual({
      Name: 'web',
      Type: 'ClusterIP',
      'Cluster-IP': '10.96.0.10',
      'External-IP': '<none>',
      'Port(s)': '80/TCP',
      Age: '60m',
      Selector: 'app=web',
    });
  });

  it('prints a pending LoadBalancer, then its ingress', () => {
    const { service } = admit({ metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 31000 }] } });
    expect(cells(service)).toMatchObject({ 'External-IP': '<pending>', 'Port(s)': '80:31000/TCP', 'Cluster-IP': '<none>', Selector: '<none>' });
    service.status = { loadBalancer: { ingress: [{ ip: '203.0.113.5' }, { hostname: 'lb.example.com' }] } };
    service.spec!.externalIPs = ['198.51.100.1'];
    expect(cells(service)['External-IP']).toBe('203.0.113.5,lb.example.com,198.51.100.1');
  });

  it('prints NodePort ports and ExternalName targets', () => {
    const { service } = admit({
      metadata: { name: 'np' },
      spec: {
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80, nodePort: 30080 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    });
    expect(cells(service)['Port(s)']).toBe('80:30080/TCP,53/UDP');
    const external = admit({ metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    expect(external.errors).toEqual([]);
    expect(cells(external.service)).toMatchObject({ 'External-IP': 'db.example.com', 'Port(s)': '<none>' });
  });

  it('validates ports and type-specific fields', () => {
    const { errors } = admit({
      metadata: { name: 'bad' },
      spec: {
        ports: [
          { port: 0, nodePort: 30000 },
          { name: 'b', port: 80, targetPort: 'not--valid' },
        ],
      },
    });
    expect(errors.map((e) => `${e.field}:${e.type}`)).toEqual([
      'spec.ports[0].name:FieldValueRequired',
      'spec.ports[0].port:FieldValueInvalid',
      // targetPort defaulted from the bad port, and reported again, as in Kubernetes
      'spec.ports[0].targetPort:FieldValueInvalid',
      'spec.ports[0].nodePort:FieldValueForbidden',
      'spec.ports[1].targetPort:FieldValueInvalid',
    ]);
    expect(admit({ metadata: { name: 'x' }, spec: { type: 'ExternalName' } }).errors).toEqual([{ type: 'FieldValueRequired', field: 'spec.externalName' }]);
    expect(admit({ metadata: { name: 'x' }, spec: {} }).errors).toEqual([{ type: 'FieldValueRequired', field: 'spec.ports' }]);
  });

  it('keeps allocated cluster IPs: they may not change once set, nor be released', () => {
    const old = admit(web).service;
    Object.assign(old.spec!, { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] });
    const changed = structuredClone(web) as any;
    Object.assign(changed.spec, { clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'] });
    expect(admit(changed, old).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', value: ['10.96.0.11'], detail: 'may not change once set' },
    ]);
    const released = structuredClone(web) as any;
    expect(admit(released, old).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', value: [], detail: 'primary clusterIP can not be unset' },
    ]);
    const toExternalName = { ...structuredClone(web), spec: { type: 'ExternalName', externalName: 'example.com' } };
    expect(admit(toExternalName, old).errors).toEqual([]);
  });
});
