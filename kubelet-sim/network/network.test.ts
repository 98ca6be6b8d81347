import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { objectReader } from '../../test/support/userland.js';
import type { ClusterView, EndpointSliceView, NetworkPolicyView, ReadonlyPod, ServiceView } from './cluster-view.js';
import { emptyView } from './cluster-view.js';
import { answerQuery } from './dns.js';
import { createPodNetwork } from './pod-network.js';
import { allowsTraffic, inCidr, peerPod } from './policy.js';
import { Balancer, matchService } from './routing.js';

const service = (name: string, spec: ServiceView['spec'], namespace = 'default'): ServiceView => ({ metadata: { name, namespace }, spec });

const endpoint = (ip: string, pod: string, conditions = { ready: true, serving: true, terminating: false }) => ({
  addresses: [ip],
  conditions,
  targetRef: { kind: 'Pod', name: pod, namespace: 'default' },
});

const slice = (serviceName: string, endpoints: EndpointSliceView['endpoints'], port = { name: 'http', port: 80 }): EndpointSliceView => ({
  metadata: { name: `${serviceName}-abc`, namespace: 'default', labels: { 'kubernetes.io/service-name': serviceName } },
  addressType: 'IPv4',
  endpoints,
  ports: [{ ...port, protocol: 'TCP' }],
});

const pod = (name: string, ip: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}, namespace = 'default'): ReadonlyPod =>
  ({
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'main', image: 'nginx', ports: [{ name: 'http', containerPort: 80 }] }], ...extra },
    status: { phase: 'Running', podIP: ip },
  }) as unknown as ReadonlyPod;

const web = service('web', { clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80 }] });
const headless = service('db', { clusterIP: 'None', ports: [{ name: 'http', port: 80 }] });
const view: ClusterView = {
  ...emptyView,
  services: [web, headless, service('ext', { type: 'ExternalName', externalName: 'example.com' })],
  slices: [
    slice('web', [
      endpoint('10.244.1.2', 'web-a'),
      endpoint('10.244.2.2', 'web-b'),
      endpoint('10.244.1.3', 'web-c', { ready: false, serving: true, terminating: true }),
    ]),
    slice('db', [endpoint('10.244.1.5', 'db-0'), endpoint('10.244.2.5', 'db-1')]),
  ],
  pods: [pod('db-0', '10.244.1.5', {}, { hostname: 'db-0', subdomain: 'db' }), pod('db-1', '10.244.2.5', {}, { hostname: 'db-1', subdomain: 'db' })],
  namespaces: [{ metadata: { name: 'default' } }],
};

describe('cluster DNS', () => {
  it('answers a Service name with its ClusterIP, and AAAA with no records', () => {
    expect(answerQuery(view, 'web.default.svc.cluster.local', 'A')).toEqual({
      rcode: 'NOERROR',
      records: [{ name: 'web.default.svc.cluster.local', type: 'A', data: '10.96.0.50' }],
    });
    expect(answerQuery(view, 'web.default.svc.cluster.local.', 'AAAA')).toEqual({ rcode: 'NOERROR', records: [] });
  });

  it('answers a headless Service with its ready endpoints and each StatefulSet pod by hostname', () => {
    expect(answerQuery(view, 'db.default.svc.cluster.local', 'A').records.map((r) => r.data)).toEqual(['10.244.1.5', '10.244.2.5']);
    expect(answerQuery(view, 'db-1.db.default.svc.cluster.local', 'A').records).toEqual([
      { name: 'db-1.db.default.svc.cluster.local', type: 'A', data: '10.244.2.5' },
    ]);
    expect(answerQuery(view, 'db-7.db.default.svc.cluster.local', 'A').rcode).toBe('NXDOMAIN');
  });

  it('answers pod A records, ExternalName CNAMEs, PTRs, and NXDOMAIN for the rest', () => {
    expect(answerQuery(view, '10-244-1-9.default.pod.cluster.local', 'A').records[0]?.data).toBe('10.244.1.9');
    expect(answerQuery(view, 'ext.default.svc.cluster.local', 'A').records).toEqual([
      { name: 'ext.default.svc.cluster.local', type: 'CNAME', data: 'example.com' },
    ]);
    expect(answerQuery(view, '50.0.96.10.in-addr.arpa', 'PTR').records[0]?.data).toBe('web.default.svc.cluster.local');
    expect(answerQuery(view, 'web.svc.cluster.local', 'A').rcode).toBe('NXDOMAIN');
    expect(answerQuery(view, 'web.other.svc.cluster.local', 'A').rcode).toBe('NXDOMAIN');
    expect(answerQuery(view, 'example.com', 'A').rcode).toBe('NXDOMAIN');
  });
});

describe('Service routing', () => {
  it('sends ClusterIP traffic to ready endpoints only, taking turns', () => {
    const match = matchService(view, '10.96.0.50', 80);
    if (match.kind !== 'service') throw new Error(match.kind);
    expect(match.backends.map((b) => b.pod)).toEqual(['web-a', 'web-b']);
    const balancer = new Balancer();
    const picks = [1, 2, 3, 4].map(() => balancer.pick(match.service, match.port, match.backends, '10.244.3.9', 0)?.pod);
    expect(picks).toEqual(['web-a', 'web-b', 'web-a', 'web-b']);
    expect(matchService(view, '10.96.0.50', 81).kind).toBe('unmatched-port');
    expect(matchService(view, '10.244.1.2', 80).kind).toBe('none');
  });

  it('falls back to serving terminating endpoints, and has no backend without any', () => {
    const draining: ClusterView = { ...view, slices: [slice('web', [endpoint('10.244.1.3', 'web-c', { ready: false, serving: true, terminating: true })])] };
    const match = matchService(draining, '10.96.0.50', 80);
    expect(match.kind === 'service' && match.backends.map((b) => b.pod)).toEqual(['web-c']);
    const none = matchService({ ...view, slices: [] }, '10.96.0.50', 80);
    expect(none.kind === 'service' && none.backends).toEqual([]);
  });

  it('reaches a NodePort on a node address and resolves the target port from the slice', () => {
    const nodePort = service('np', { type: 'NodePort', clusterIP: '10.96.0.60', ports: [{ name: 'http', port: 8080, nodePort: 30080 }] });
    const withNode: ClusterView = {
      ...view,
      services: [nodePort],
      slices: [slice('np', [endpoint('10.244.1.2', 'web-a')], { name: 'http', port: 80 })],
      nodes: [{ metadata: { name: 'node-1' }, status: { addresses: [{ type: 'InternalIP', address: '172.18.0.2' }] } }],
    };
    const match = matchService(withNode, '172.18.0.2', 30080);
    expect(match.kind === 'service' && match.backends).toEqual([{ ip: '10.244.1.2', port: 80, pod: 'web-a' }]);
    expect(matchService(withNode, '10.96.0.60', 8080).kind).toBe('service');
  });

  it('keeps a client on one backend with sessionAffinity ClientIP until the affinity times out', () => {
    const sticky = service('web', { ...web.spec, sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } });
    const match = matchService({ ...view, services: [sticky] }, '10.96.0.50', 80);
    if (match.kind !== 'service') throw new Error(match.kind);
    const balancer = new Balancer();
    const pick = (client: string, now: number) => balancer.pick(match.service, match.port, match.backends, client, now)?.pod;
    expect([pick('10.244.3.9', 0), pick('10.244.3.9', 5_000), pick('10.244.3.9', 9_000)]).toEqual(['web-a', 'web-a', 'web-a']);
    expect(pick('10.244.3.10', 9_000)).toBe('web-b');
    expect(pick('10.244.3.9', 30_000)).toBe('web-a');
    expect(pick('10.244.3.9', 30_001)).toBe('web-a');
  });
});

describe('NetworkPolicy', () => {
  const client = pod('client', '10.244.3.9', { role: 'client' });
  const server = pod('web-a', '10.244.1.2', { app: 'web' });
  const other = pod('intruder', '10.244.4.4', { role: 'client' }, {}, 'other');
  const policy = (name: string, spec: NetworkPolicyView['spec'], namespace = 'default'): NetworkPolicyView => ({ metadata: { name, namespace }, spec });
  const withPolicies = (...policies: NetworkPolicyView[]): ClusterView => ({
    ...emptyView,
    policies,
    namespaces: [{ metadata: { name: 'default' } }, { metadata: { name: 'other', labels: { team: 'blue' } } }],
  });
  const traffic = (from: ReadonlyPod, port = 80, protocol: 'TCP' | 'UDP' = 'TCP') => ({
    from: { ip: from.status?.podIP ?? '', pod: peerPod(from) },
    to: { ip: '10.244.1.2', pod: peerPod(server) },
    port,
    protocol,
  });
  const denyIngress = policy('deny', { podSelector: {}, policyTypes: ['Ingress'] });

  it('allows everything until a policy selects the pod; a policy without rules denies', () => {
    expect(allowsTraffic(withPolicies(), traffic(client))).toBe(true);
    expect(allowsTraffic(withPolicies(denyIngress), traffic(client))).toBe(false);
    // A policy selecting other pods leaves this one open.
    expect(allowsTraffic(withPolicies(policy('db-only', { podSelector: { matchLabels: { app: 'db' } } })), traffic(client))).toBe(true);
  });

  it('allows by podSelector, namespaceSelector, both together, and ports by number, name and range', () => {
    const allow = (from: object[], ports?: object[]) =>
      policy('allow', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from, ports }] } as NetworkPolicyView['spec']);
    const fromClients = allow([{ podSelector: { matchLabels: { role: 'client' } } }]);
    expect(allowsTraffic(withPolicies(denyIngress, fromClients), traffic(client))).toBe(true);
    // A bare podSelector means the policy's own namespace.
    expect(allowsTraffic(withPolicies(denyIngress, fromClients), traffic(other))).toBe(false);
    const blueNamespace = allow([{ namespaceSelector: { matchLabels: { team: 'blue' } } }]);
    expect(allowsTraffic(withPolicies(blueNamespace), traffic(other))).toBe(true);
    expect(allowsTraffic(withPolicies(blueNamespace), traffic(client))).toBe(false);
    const both = allow([{ namespaceSelector: { matchLabels: { team: 'blue' } }, podSelector: { matchLabels: { role: 'admin' } } }]);
    expect(allowsTraffic(withPolicies(both), traffic(other))).toBe(false);
    const byName = allow([], [{ port: 'http' }]);
    expect([allowsTraffic(withPolicies(byName), traffic(client, 80)), allowsTraffic(withPolicies(byName), traffic(client, 81))]).toEqual([true, false]);
    const range = allow([], [{ port: 8000, endPort: 9000 }]);
    expect([allowsTraffic(withPolicies(range), traffic(client, 80)), allowsTraffic(withPolicies(range), traffic(client, 8080))]).toEqual([false, true]);
    expect(allowsTraffic(withPolicies(allow([], [{ port: 80, protocol: 'UDP' }])), traffic(client, 80))).toBe(false);
  });

  it('checks the source pod egress too, and ipBlock with except', () => {
    const denyEgress = policy('deny-egress', { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'] });
    expect(allowsTraffic(withPolicies(denyEgress), traffic(client))).toBe(false);
    const toBlock = policy('to-block', {
      podSelector: { matchLabels: { role: 'client' } },
      egress: [{ to: [{ ipBlock: { cidr: '10.244.0.0/16', except: ['10.244.1.0/24'] } }] }],
    });
    expect(allowsTraffic(withPolicies(toBlock), traffic(client))).toBe(false);
    expect(allowsTraffic(withPolicies(toBlock), { ...traffic(client), to: { ip: '10.244.2.2' } })).toBe(true);
    expect([inCidr('10.244.1.2', '10.244.1.0/24'), inCidr('10.244.2.2', '10.244.1.0/24'), inCidr('1.2.3.4', '0.0.0.0/0')]).toEqual([true, false, true]);
  });
});

describe('the pod network', () => {
  const opened: string[] = [];
  const connection = { write() {}, onData() {}, onEnd() {}, end() {} };
  const network = createPodNetwork({
    cluster: objectReader([
      { kind: 'Service', ...web },
      { kind: 'EndpointSlice', ...slice('web', [endpoint('10.244.1.2', 'web-a')]) },
    ]),
    clock: new FakeClock(0),
    pods: () => [pod('web-a', '10.244.1.2'), pod('far', '10.244.9.2'), pod('idle', '10.244.1.8')],
    open: async (target, port) => {
      opened.push(`${target.metadata.name}:${port}`);
      if (target.metadata.name === 'far') return 'remote';
      return target.metadata.name === 'idle' ? undefined : connection;
    },
  });
  const client = pod('client', '10.244.3.9');

  it('connects through a Service and to pod IPs; refuses where nothing listens; drops what it cannot reach', async () => {
    expect(await network.connect(client, '10.96.0.50', 80)).toMatchObject({ kind: 'connected', ip: '10.244.1.2', port: 80 });
    expect(await network.connect(client, '10.244.1.8', 80)).toEqual({ kind: 'refused' });
    // A pod of another kubelet process, and an address nobody holds.
    expect(await network.connect(client, '10.244.9.2', 80)).toEqual({ kind: 'dropped' });
    expect(await network.connect(client, '10.244.7.7', 80)).toEqual({ kind: 'dropped' });
    // Loopback is the client pod itself.
    expect(await network.connect(client, '127.0.0.1', 8080)).toMatchObject({ kind: 'connected', ip: '127.0.0.1' });
    expect(opened).toEqual(['web-a:80', 'idle:80', 'far:80', 'client:8080']);
  });

  it('answers DNS only at the cluster DNS address', async () => {
    expect(await network.query(client, '10.96.0.10', 'web.default.svc.cluster.local', 'A')).toMatchObject({ kind: 'answer', rcode: 'NOERROR' });
    expect(await network.query(client, '8.8.8.8', 'web.default.svc.cluster.local', 'A')).toEqual({ kind: 'dropped' });
    // The node's resolver (dnsPolicy Default) knows no names: there is no world outside.
    expect(await network.query(client, '10.0.0.2', 'web.default.svc.cluster.local', 'A')).toEqual({ kind: 'answer', rcode: 'NXDOMAIN', records: [] });
  });
});
