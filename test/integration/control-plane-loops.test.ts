/**
 * The API server's own loops (apiserver/controlplane): the `kubernetes` Service's Endpoints and
 * EndpointSlice point at the server's address and port, and are put back when changed or
 * deleted and moved when the server restarts on another port; the `kubernetes` ServiceCIDR is
 * Ready; every Service cluster IP has an IPAddress, released with the Service; IPAddresses made
 * by users reserve their IP; a ServiceCIDR users add widens the IPs a Service may request, and
 * a ServiceCIDR being deleted stays Terminating while IPAddresses use it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const ENDPOINTS = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';
const SERVICES = '/api/v1/namespaces/default/services';
const IP_ADDRESSES = '/apis/networking.k8s.io/v1/ipaddresses';
const SERVICE_CIDRS = '/apis/networking.k8s.io/v1/servicecidrs';
const MERGE = 'application/merge-patch+json';

const endpointsFor = (port: number) => [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port, protocol: 'TCP' }] }];
const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

describe('the kubernetes Service endpoints', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const port = () => Number(new URL(cluster.url).port);

  it('point at the API server from the start, as kube-apiserver writes them', async () => {
    const endpoints = (await request(`${cluster.url}${ENDPOINTS}`)).body;
    expect(endpoints.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(endpoints.subsets).toEqual(endpointsFor(port()));
    const slice = (await request(`${cluster.url}${SLICE}`)).body;
    expect(slice).toMatchObject({
      metadata: { labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: port(), protocol: 'TCP' }],
    });
    expect(slice.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBeUndefined();
    const svc = (await request(`${cluster.url}${SERVICES}/kubernetes`)).body;
    expect(svc.spec).toMatchObject({ clusterIP: '10.96.0.1', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: port() }] });
  });

  it('are put back when a user changes or deletes them', async () => {
    const changed = await request(`${cluster.url}${ENDPOINTS}`, {
      method: 'PATCH',
      body: { subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ port: 1 }] }] },
      contentType: MERGE,
    });
    expect(changed.status).toBe(200);
    await eventually(async () => expect((await request(`${cluster.url}${ENDPOINTS}`)).body.subsets).toEqual(endpointsFor(port())));
    expect((await request(`${cluster.url}${SLICE}`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await request(`${cluster.url}${SLICE}`)).body.ports).toEqual([{ name: 'https', port: port(), protocol: 'TCP' }]));
    const ports = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 1234 }];
    expect((await request(`${cluster.url}${SERVICES}/kubernetes`, { method: 'PATCH', body: { spec: { ports } }, contentType: MERGE })).status).toBe(200);
    await eventually(async () => expect((await request(`${cluster.url}${SERVICES}/kubernetes`)).body.spec.ports[0].targetPort).toBe(port()));
  });

  it('are left alone by the endpoints controllers: the Service has no selector', async () => {
    const svc = (await request(`${cluster.url}${SERVICES}/kubernetes`)).body;
    expect(svc.spec.selector).toBeUndefined();
  });
});

describe('the kubernetes Service endpoints across a restart', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('follow the API server to its new port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-controlplane-'));
    stop = async () => rmSync(dir, { recursive: true, force: true });
    const first = await startApiServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data') });
    const firstPort = first.port;
    await first.close();
    const second = await startApiServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data') });
    stop = async () => {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    };
    expect(second.port).not.toBe(firstPort);
    expect((await request(`${second.url}${ENDPOINTS}`)).body.subsets).toEqual(endpointsFor(second.port));
    expect((await request(`${second.url}${SLICE}`)).body.ports[0].port).toBe(second.port);
    expect((await request(`${second.url}${SERVICES}/kubernetes`)).body.spec.ports[0].targetPort).toBe(second.port);
  });
});

describe('ServiceCIDRs and IPAddresses', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const get = (path: string) => request(`${cluster.url}${path}`);
  const createService = (body: Record<string, unknown>) => request(`${cluster.url}${SERVICES}`, { method: 'POST', body });

  it('starts with the kubernetes ServiceCIDR, Ready, and the kubernetes Service IP', async () => {
    const cidr = (await get(`${SERVICE_CIDRS}/kubernetes`)).body;
    expect(cidr.spec).toEqual({ cidrs: ['10.96.0.0/12'] });
    expect(cidr.status.conditions).toEqual([
      { type: 'Ready', status: 'True', reason: '', message: 'Kubernetes default Service CIDR is ready', lastTransitionTime: expect.any(String) },
    ]);
    const ip = (await get(`${IP_ADDRESSES}/10.96.0.1`)).body;
    expect(ip.metadata.labels).toEqual({ 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' });
    expect(ip.spec).toEqual({ parentRef: { resource: 'services', namespace: 'default', name: 'kubernetes' } });
  });

  it('gives every cluster IP an IPAddress and releases it with the Service', async () => {
    const created = await createService(service('web'));
    expect(created.status).toBe(201);
    const ip = created.body.spec.clusterIP;
    await eventually(async () =>
      expect((await get(`${IP_ADDRESSES}/${ip}`)).body.spec?.parentRef).toEqual({ resource: 'services', namespace: 'default', name: 'web' }),
    );
    expect((await createService(service('headless', { clusterIP: 'None' }))).status).toBe(201);
    expect((await request(`${cluster.url}${SERVICES}/web`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/${ip}`)).status).toBe(404));
    const names = (await get(IP_ADDRESSES)).body.items.map((item: any) => item.metadata.name);
    expect(names).not.toContain('None');
  });

  it('names the IPAddress of a legacy cluster IP spelling by its canonical form', async () => {
    expect((await createService(service('legacy', { clusterIP: '10.096.0.5' }))).status).toBe(201);
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/10.96.0.5`)).body.spec?.parentRef?.name).toBe('legacy'));
  });

  it('puts back an IPAddress a user deleted, and removes one of its own left without a Service', async () => {
    const ip = (await createService(service('kept'))).body.spec.clusterIP;
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/${ip}`)).status).toBe(200));
    expect((await request(`${cluster.url}${IP_ADDRESSES}/${ip}`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/${ip}`)).status).toBe(200));
    const orphan = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: '10.96.200.200', labels: { 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
      spec: { parentRef: { resource: 'services', namespace: 'default', name: 'gone' } },
    };
    expect((await request(`${cluster.url}${IP_ADDRESSES}`, { method: 'POST', body: orphan })).status).toBe(201);
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/10.96.200.200`)).status).toBe(404));
  });

  it('does not hand out an IP a user reserved with an IPAddress', async () => {
    const reservation = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: '10.96.50.50' },
      spec: { parentRef: { group: 'example.com', resource: 'gateways', namespace: 'default', name: 'gw' } },
    };
    expect((await request(`${cluster.url}${IP_ADDRESSES}`, { method: 'POST', body: reservation })).status).toBe(201);
    const taken = await createService(service('wants-reserved', { clusterIP: '10.96.50.50' }));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toContain('failed to allocate IP 10.96.50.50: provided IP is already allocated');
    expect((await get(`${IP_ADDRESSES}/10.96.50.50`)).body.spec.parentRef.name).toBe('gw');
  });

  it('lets a Service request an IP from a ServiceCIDR a user added, which turns Ready', async () => {
    const outside = await createService(service('extra', { clusterIP: '172.30.0.10' }));
    expect(outside.status).toBe(422);
    const added = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'extra' }, spec: { cidrs: ['172.30.0.0/24'] } };
    expect((await request(`${cluster.url}${SERVICE_CIDRS}`, { method: 'POST', body: added })).status).toBe(201);
    await eventually(async () =>
      expect((await get(`${SERVICE_CIDRS}/extra`)).body.status?.conditions).toEqual([
        { type: 'Ready', status: 'True', reason: '', message: 'Kubernetes Service CIDR is ready', lastTransitionTime: expect.any(String) },
      ]),
    );
    expect((await createService(service('extra', { clusterIP: '172.30.0.10' }))).status).toBe(201);
    await eventually(async () => expect((await get(`${IP_ADDRESSES}/172.30.0.10`)).body.spec?.parentRef?.name).toBe('extra'));
  });

  it('holds a deleted ServiceCIDR in Terminating while IPAddresses use it, then lets it go', async () => {
    const cidr = (await get(`${SERVICE_CIDRS}/extra`)).body;
    expect(cidr.metadata.finalizers).toEqual(['networking.k8s.io/service-cidr-finalizer']);
    expect((await request(`${cluster.url}${SERVICE_CIDRS}/extra`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () =>
      expect((await get(`${SERVICE_CIDRS}/extra`)).body.status.conditions).toEqual([
        {
          type: 'Ready',
          status: 'False',
          reason: 'Terminating',
          message: 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR',
          lastTransitionTime: expect.any(String),
        },
      ]),
    );
    const refused = await createService(service('late', { clusterIP: '172.30.0.11' }));
    expect(refused.status).toBe(422);
    expect((await request(`${cluster.url}${SERVICES}/extra`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await get(`${SERVICE_CIDRS}/extra`)).status).toBe(404));
  });

  it('keeps the kubernetes ServiceCIDR while its IPs are in use, and recreates it once gone', async () => {
    expect((await request(`${cluster.url}${SERVICE_CIDRS}/kubernetes`, { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await get(`${SERVICE_CIDRS}/kubernetes`)).body.status.conditions[0].reason).toBe('Terminating'));
    const cidr = (await get(`${SERVICE_CIDRS}/kubernetes`)).body;
    const withoutFinalizer = { metadata: { finalizers: null } };
    const patched = await request(`${cluster.url}${SERVICE_CIDRS}/kubernetes`, { method: 'PATCH', body: withoutFinalizer, contentType: MERGE });
    expect(patched.status).toBe(200);
    await eventually(async () => {
      const recreated = (await get(`${SERVICE_CIDRS}/kubernetes`)).body;
      expect(recreated.metadata.uid).not.toBe(cidr.metadata.uid);
      expect(recreated.metadata.deletionTimestamp).toBeUndefined();
      expect(recreated.spec.cidrs).toEqual(['10.96.0.0/12']);
    });
  });
});
