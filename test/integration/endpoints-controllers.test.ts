/**
 * The endpointslice and endpoints controllers against a real cluster: API server, scheduler,
 * kubelet-sim (3 nodes in zones a/b/c) and the ReplicaSet/Deployment controllers in process,
 * at a fast clock. A Service in front of a Deployment gets an EndpointSlice and an Endpoints
 * object with the pods' IPs, nodes and zones; readiness changes show at once; 120 pods make
 * two slices; deleting the Service removes both. The real kubectl exposes, lists and describes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type Endpoints, endpointsDefinition } from '../../apiserver/api/core/endpoints.js';
import { namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { type Service, serviceDefinition } from '../../apiserver/api/core/service.js';
import { type EndpointSlice, endpointSliceDefinition } from '../../apiserver/api/discovery/endpoint-slice.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const SPEED = 10;
const GATE = 'kubesim.io/gate';

function webDeployment(name: string, namespace: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }], resources: { requests: { cpu: '10m', memory: '8Mi' } } },
          ],
        },
      },
    },
  };
}

describe('endpointslice and endpoints controllers', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    userAgent: 'endpoints-test/0.1',
    nodes: 3,
    kubelet: { logLevel: 'warn' },
    controllers: ['replicaset', 'deployment', 'endpointslice', 'endpoints'],
    scheduler: true,
  });
  const slicesOf = async (service: string, namespace = NS) =>
    (await cluster.client.resource(endpointSliceDefinition).list({ namespace, labelSelector: `kubernetes.io/service-name=${service}` }))
      .items as EndpointSlice[];
  const endpointsOf = (service: string, namespace = NS) => cluster.client.resource(endpointsDefinition).get(namespace, service) as Promise<Endpoints>;
  const podsOf = async (app: string, namespace = NS) =>
    (await cluster.client.resource(podDefinition).list({ namespace, labelSelector: `app=${app}` })).items as Pod[];

  it('publishes a Deployment’s 3 ready pods in one EndpointSlice and in Endpoints', async () => {
    await cluster.client.resource(deploymentDefinition).create(webDeployment('web', NS, 3));
    const service: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: NS },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] },
    };
    const created = await cluster.client.resource(serviceDefinition).create(service);
    const slice = await eventually(
      async () => {
        const slices = await slicesOf('web');
        expect(slices).toHaveLength(1);
        expect(slices[0]?.endpoints.filter((e) => e.conditions?.ready)).toHaveLength(3);
        return slices[0] as EndpointSlice;
      },
      { timeoutMs: 15_000 },
    );
    const pods = await podsOf('web');
    const zones = new Map(
      (await cluster.client.resource(nodeDefinition).list()).items.map((n) => [n.metadata.name, n.metadata.labels?.['topology.kubernetes.io/zone']]),
    );
    expect(slice.metadata.generateName).toBe('web-');
    expect(slice.metadata.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    const expected = pods.map((p) => ({
      addresses: [p.status?.podIP],
      nodeName: p.spec.nodeName,
      zone: zones.get(p.spec.nodeName ?? ''),
      targetRef: { kind: 'Pod', name: p.metadata.name },
    }));
    for (const endpoint of expected)
      expect(slice.endpoints).toContainEqual(expect.objectContaining({ ...endpoint, targetRef: expect.objectContaining(endpoint.targetRef) }));
    const endpoints = await eventually(async () => {
      const found = await endpointsOf('web');
      expect(found.subsets?.[0]?.addresses).toHaveLength(3);
      return found;
    });
    expect(endpoints.subsets?.[0]?.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    expect(endpoints.subsets?.[0]?.addresses?.map((a) => a.ip).sort()).toEqual(pods.map((p) => p.status?.podIP).sort());
  });

  it('moves a pod in and out of the ready endpoints as its readiness changes', async () => {
    const gated: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'gated', namespace: NS, labels: { app: 'web' } },
      spec: { readinessGates: [{ conditionType: GATE }], containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }] }] },
    };
    await cluster.client.resource(podDefinition).create(gated);
    const gatedEndpoint = async () => (await slicesOf('web')).flatMap((s) => s.endpoints).find((e) => e.targetRef?.name === 'gated');
    const ip = await eventually(
      async () => {
        const endpoint = await gatedEndpoint();
        expect(endpoint?.conditions).toEqual({ ready: false, serving: false, terminating: false });
        return endpoint?.addresses[0];
      },
      { timeoutMs: 15_000 },
    );
    await eventually(async () => expect((await endpointsOf('web')).subsets?.[0]?.notReadyAddresses?.map((a) => a.ip)).toEqual([ip]));
    const setGate = (status: string) =>
      cluster.client
        .resource(podDefinition)
        .patch(NS, 'gated', { status: { conditions: [{ type: GATE, status }] } }, { type: 'strategic', subresource: 'status' });
    await setGate('True');
    await eventually(async () => expect((await gatedEndpoint())?.conditions?.ready).toBe(true));
    await eventually(async () => expect((await endpointsOf('web')).subsets?.[0]?.addresses?.map((a) => a.ip)).toContain(ip));
    await setGate('False');
    await eventually(async () => expect((await gatedEndpoint())?.conditions?.ready).toBe(false), { timeoutMs: 2_000 });
    await eventually(async () => expect((await endpointsOf('web')).subsets?.[0]?.addresses?.map((a) => a.ip)).not.toContain(ip), { timeoutMs: 2_000 });
    await cluster.client.resource(podDefinition).delete(NS, 'gated', { gracePeriodSeconds: 0 });
  });

  describe.each(findKubectlBinaries().map((binary, i) => [binary.label, binary, i] as const))('%s', (_label, binary, index) => {
    const ns = `expose-${index}`;
    const kubectl = (args: string[]) =>
      runKubectl(binary, [...args, '-n', ns], { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, `cache-${index}`) });

    it('kubectl expose, get endpointslices / endpoints and describe svc show the pod IPs', async () => {
      await cluster.client.resource(namespaceDefinition).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await cluster.client.resource(deploymentDefinition).create(webDeployment('web', ns, 2));
      const exposed = await kubectl(['expose', 'deployment', 'web', '--port=80', '--target-port=8080']);
      expect(exposed.stderr).toBe('');
      expect(exposed.stdout.trim()).toBe('service/web exposed');
      const ips = await eventually(
        async () => {
          const slices = await slicesOf('web', ns);
          const ready = slices.flatMap((s) => s.endpoints).filter((e) => e.conditions?.ready);
          expect(ready).toHaveLength(2);
          return ready.map((e) => e.addresses[0] ?? '');
        },
        { timeoutMs: 15_000 },
      );
      const pairs = new RegExp(`^${ips.map(() => '10\\.[\\d.]+:8080').join(',')}$`);
      const slices = await kubectl(['get', 'endpointslices']);
      expect(slices.stdout).toMatch(/^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\n/);
      for (const ipAddress of ips) expect(slices.stdout).toContain(ipAddress);
      expect(slices.stdout).toMatch(/\nweb-\w+\s+IPv4\s+8080\s+\S+\s+\d+s\n/);
      const endpoints = await eventually(async () => {
        const out = (await kubectl(['get', 'endpoints', 'web'])).stdout;
        expect(out.split('\n')[1]?.split(/\s+/)[1]).toMatch(pairs);
        return out;
      });
      expect(endpoints).toMatch(/^NAME\s+ENDPOINTS\s+AGE\n/);
      const described = (await kubectl(['describe', 'svc', 'web'])).stdout;
      const line = described.split('\n').find((l) => l.startsWith('Endpoints:'));
      expect(line?.split(/\s+/)[1]).toMatch(pairs);
      for (const ipAddress of ips) expect(line).toContain(`${ipAddress}:8080`);
    });
  });

  it('cuts 120 endpoints into two slices', async () => {
    await cluster.client.resource(deploymentDefinition).patch(NS, 'web', { spec: { replicas: 120 } }, { type: 'merge' });
    await eventually(
      async () => {
        const slices = await slicesOf('web');
        const sizes = slices.map((s) => s.endpoints.filter((e) => e.conditions?.ready).length).sort((a, b) => b - a);
        expect(sizes).toEqual([100, 20]);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    await eventually(async () => expect((await endpointsOf('web')).subsets?.[0]?.addresses).toHaveLength(120));
  }, 70_000);

  it('removes the slices and the Endpoints when the Service is deleted', async () => {
    await cluster.client.resource(serviceDefinition).delete(NS, 'web');
    await eventually(async () => {
      expect(await slicesOf('web')).toEqual([]);
      await expect(endpointsOf('web')).rejects.toMatchObject({ reason: 'NotFound' });
    });
  });
});
