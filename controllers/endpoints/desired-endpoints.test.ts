import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service } from '../../apiserver/api/core/service.js';
import { desiredEndpointGroups, podEndpoint } from './desired-endpoints.js';
import { resolvePorts, resolveTargetPort, serviceSelects } from './pod-endpoints.js';
import { computeSubsets } from './subsets.js';

/** pod builds a running pod of app=web with an IP, on node-1, Ready unless told otherwise. */
function pod(name: string, ip: string | undefined, options: { ready?: boolean; terminating?: boolean; phase?: string; node?: string } = {}): Pod {
  const { ready = true, terminating = false, phase = 'Running', node = 'node-1' } = options;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' }, ...(terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }] },
    status: { phase: phase as 'Running', ...(ip ? { podIP: ip } : {}), conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as Pod;
}

function service(spec: Partial<Service['spec']> = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', uid: 'svc-uid' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
  };
}

const zoneOf = (node: string) => (node === 'node-1' ? 'zone-a' : undefined);

describe('pod selection and port resolution', () => {
  it('selects by every selector label; no or empty selector and ExternalName select nothing', () => {
    expect(serviceSelects(service(), { app: 'web', x: 'y' })).toBe(true);
    expect(serviceSelects(service(), { app: 'db' })).toBe(false);
    expect(serviceSelects(service({ selector: {} }), { app: 'web' })).toBe(false);
    expect(serviceSelects(service({ selector: undefined }), { app: 'web' })).toBe(false);
    expect(serviceSelects(service({ type: 'ExternalName' }), { app: 'web' })).toBe(false);
  });

  it('resolves targetPort by number, by numeric string, and by container port name and protocol', () => {
    const p = pod('a', '10.244.1.2');
    expect(resolveTargetPort({ port: 80, targetPort: 9000 }, p)).toBe(9000);
    expect(resolveTargetPort({ port: 80 }, p)).toBe(80);
    expect(resolveTargetPort({ port: 80, targetPort: 'http' }, p)).toBe(8080);
    expect(resolveTargetPort({ port: 80, targetPort: 'http', protocol: 'UDP' }, p)).toBeUndefined();
    expect(resolveTargetPort({ port: 80, targetPort: 'metrics' }, p)).toBeUndefined();
  });

  it('skips ports whose name the pod does not expose', () => {
    const svc = service({
      ports: [
        { name: 'web', port: 80, targetPort: 'http' },
        { name: 'metrics', port: 9090, targetPort: 'metrics', appProtocol: 'http' },
      ],
    });
    expect(resolvePorts(svc, pod('a', '10.244.1.2'))).toEqual([{ name: 'web', port: 8080, protocol: 'TCP' }]);
  });
});

describe('podEndpoint', () => {
  it('a ready pod is ready and serving, with node, zone and targetRef', () => {
    expect(podEndpoint(service(), pod('a', '10.244.1.2'), zoneOf)).toEqual({
      addresses: ['10.244.1.2'],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'node-1',
      zone: 'zone-a',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' },
    });
  });

  it('a not ready pod is neither; a terminating ready pod is serving and terminating but not ready', () => {
    expect(podEndpoint(service(), pod('a', '1.1.1.1', { ready: false }), zoneOf).conditions).toEqual({ ready: false, serving: false, terminating: false });
    expect(podEndpoint(service(), pod('a', '1.1.1.1', { terminating: true }), zoneOf).conditions).toEqual({ ready: false, serving: true, terminating: true });
  });

  it('publishNotReadyAddresses makes every endpoint ready', () => {
    const svc = service({ publishNotReadyAddresses: true });
    expect(podEndpoint(svc, pod('a', '1.1.1.1', { ready: false, terminating: true }), zoneOf).conditions).toEqual({
      ready: true,
      serving: true,
      terminating: true,
    });
  });
});

describe('desiredEndpointGroups', () => {
  it('groups pods with an IP by resolved port set, skipping finished pods and those without a named port', () => {
    const svc = service({ ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }] });
    const other = pod('d', '10.244.2.9', { node: 'node-2' });
    other.spec.containers[0]!.ports = [{ name: 'http', containerPort: 9999, protocol: 'TCP' }];
    const noPort = pod('e', '10.244.2.8');
    noPort.spec.containers[0]!.ports = [];
    const pods = [pod('b', '10.244.1.3'), pod('a', '10.244.1.2'), pod('c', undefined), pod('f', '10.244.1.7', { phase: 'Succeeded' }), other, noPort];
    const groups = [...desiredEndpointGroups(svc, pods, zoneOf).values()];
    expect(groups.map((g) => [g.ports, g.endpoints.map((e) => e.addresses[0])])).toEqual([
      [[{ name: '', port: 8080, protocol: 'TCP' }], ['10.244.1.2', '10.244.1.3']],
      [[{ name: '', port: 9999, protocol: 'TCP' }], ['10.244.2.9']],
    ]);
  });

  it('a headless service without ports still gets endpoints, with no ports', () => {
    const groups = [...desiredEndpointGroups(service({ clusterIP: 'None', ports: undefined }), [pod('a', '10.244.1.2')], zoneOf).values()];
    expect(groups).toHaveLength(1);
    expect(groups[0]?.ports).toEqual([]);
    expect(groups[0]?.endpoints).toHaveLength(1);
  });
});

describe('computeSubsets (core/v1 Endpoints)', () => {
  it('puts ready pods under addresses and not ready ones under notReadyAddresses, sorted by IP; drops terminating pods', () => {
    const pods = [pod('b', '10.244.1.9'), pod('a', '10.244.1.10'), pod('c', '10.244.2.1', { ready: false }), pod('t', '10.244.2.2', { terminating: true })];
    expect(computeSubsets(service(), pods)).toEqual([
      {
        addresses: [
          { ip: '10.244.1.10', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } },
          { ip: '10.244.1.9', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' } },
        ],
        notReadyAddresses: [{ ip: '10.244.2.1', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'c', uid: 'uid-c' } }],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ]);
  });

  it('publishNotReadyAddresses lists not ready and terminating pods as ready', () => {
    const subsets = computeSubsets(service({ publishNotReadyAddresses: true }), [
      pod('c', '10.244.2.1', { ready: false }),
      pod('t', '10.244.2.2', { terminating: true }),
    ]);
    expect(subsets[0]?.addresses?.map((a) => a.ip)).toEqual(['10.244.2.1', '10.244.2.2']);
    expect(subsets[0]?.notReadyAddresses).toBeUndefined();
  });

  it('no pods: no subsets', () => {
    expect(computeSubsets(service(), [])).toEqual([]);
  });
});
