/**
 * The pod network of one kubelet process: the cluster DNS server, kube-proxy's Service routing
 * and the CNI's NetworkPolicy, in front of the containers' simulated servers. Every lookup and
 * connection reads the objects it needs afresh through the ClusterReader (nothing cached that
 * could go stale) and the pod list the kubelet already holds.
 *
 * Packets from a pod: DNS queries to the cluster DNS address (10.96.0.10:53/UDP, answered by
 * a CoreDNS that, for NetworkPolicy, is a pod labelled k8s-app=kube-dns in kube-system);
 * TCP to a ClusterIP or node port (to a ready endpoint), to a pod IP, or to the pod's own
 * loopback. A pod on a node of another kubelet process cannot be reached from here: its
 * packets are dropped, as on a broken overlay.
 */
import type { Clock } from '../../controllers/runtime/types.js';
import type { ClusterReader, ConnectOutcome, DnsReply, PodNetwork, UserlandConnection } from '../userland/contract.js';
import { CLUSTER_DNS, NODE_NAMESERVER } from '../userland/etc-files.js';
import { type ClusterView, podByIP, type ReadonlyPod } from './cluster-view.js';
import { answerQuery } from './dns.js';
import { allowsTraffic, type Endpoint, peerPod } from './policy.js';
import { Balancer, matchService } from './routing.js';

/** The in-process pods' servers: a connection to the pod's port, nothing listening there
 * (undefined), or 'remote' for a pod this process does not run. */
export type OpenPodPort = (pod: ReadonlyPod, port: number) => Promise<UserlandConnection | undefined | 'remote'>;

export interface PodNetworkDeps {
  readonly cluster: ClusterReader;
  /** Every bound pod of the cluster (the kubelet's pod cache). */
  readonly pods: () => Promise<readonly ReadonlyPod[]> | readonly ReadonlyPod[];
  readonly open: OpenPodPort;
  readonly clock: Clock;
}

/** The cluster DNS server, as NetworkPolicy sees it (kind's and kubeadm's CoreDNS pods). */
export const CLUSTER_DNS_POD: Endpoint = {
  ip: '10.244.0.2',
  pod: {
    namespace: 'kube-system',
    labels: { 'k8s-app': 'kube-dns' },
    namedPorts: [
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
    ],
  },
};

const LOOPBACK = /^127\./;

export function createPodNetwork(deps: PodNetworkDeps): PodNetwork {
  const balancer = new Balancer();
  const read = (what: ReadonlyArray<keyof ClusterView>) => readView(deps, what);
  const source = (pod: ReadonlyPod): Endpoint => ({ ip: pod.status?.podIP ?? '', pod: peerPod(pod) });
  return {
    async query(from, server, name, type): Promise<DnsReply> {
      if (server === NODE_NAMESERVER) return nodeResolver(await read(['policies', 'namespaces']), source(from));
      if (server !== CLUSTER_DNS) return { kind: 'dropped' };
      const view = await read(['policies', 'services', 'slices', 'pods', 'namespaces']);
      if (!allowsTraffic(view, { from: source(from), to: CLUSTER_DNS_POD, port: 53, protocol: 'UDP' })) return { kind: 'dropped' };
      return { kind: 'answer', ...answerQuery(view, name, type) };
    },
    async connect(from, ip, port): Promise<ConnectOutcome> {
      // The pod's own loopback: its containers share the network namespace.
      if (LOOPBACK.test(ip)) return openPod(deps, from, ip, port);
      // Nodes matter only for a node port, namespaces only for policies: read when needed.
      let view = await read(['services', 'slices', 'pods', 'policies']);
      if (!view.services.some((s) => s.spec?.clusterIP === ip) && !podByIP(view, ip)) view = { ...view, nodes: (await read(['nodes'])).nodes };
      if (view.policies.length > 0) view = { ...view, namespaces: (await read(['namespaces'])).namespaces };
      let target = { ip, port };
      const service = matchService(view, ip, port);
      if (service.kind === 'unmatched-port') return { kind: 'dropped' };
      if (service.kind === 'service') {
        const backend = balancer.pick(service.service, service.port, service.backends, from.status?.podIP ?? '', deps.clock.now());
        // kube-proxy's REJECT for a Service without endpoints.
        if (!backend) return { kind: 'refused' };
        target = backend;
      }
      const pod = podByIP(view, target.ip);
      if (!pod) return { kind: 'dropped' };
      const allowed = allowsTraffic(view, { from: source(from), to: { ip: target.ip, pod: peerPod(pod) }, port: target.port, protocol: 'TCP' });
      if (!allowed) return { kind: 'dropped' };
      return openPod(deps, pod, target.ip, target.port);
    },
  };
}

/** nodeResolver: the node's own DNS server (dnsPolicy Default), which knows no cluster names
 * and, with no world outside the simulated cluster, no other names either. */
function nodeResolver(view: ClusterView, from: Endpoint): DnsReply {
  if (!allowsTraffic(view, { from, to: { ip: NODE_NAMESERVER }, port: 53, protocol: 'UDP' })) return { kind: 'dropped' };
  return { kind: 'answer', rcode: 'NXDOMAIN', records: [] };
}

async function openPod(deps: PodNetworkDeps, pod: ReadonlyPod, ip: string, port: number): Promise<ConnectOutcome> {
  const connection = await deps.open(pod, port);
  if (connection === 'remote') return { kind: 'dropped' };
  return connection ? { kind: 'connected', connection, ip, port } : { kind: 'refused' };
}

const RESOURCES: Record<Exclude<keyof ClusterView, 'pods'>, string> = {
  services: 'services',
  slices: 'endpointslices',
  policies: 'networkpolicies',
  namespaces: 'namespaces',
  nodes: 'nodes',
};

/** readView reads the parts of the view a question needs, in parallel; the rest stay empty. */
async function readView(deps: PodNetworkDeps, what: ReadonlyArray<keyof ClusterView>): Promise<ClusterView> {
  const parts = await Promise.all(what.map(async (key) => [key, key === 'pods' ? await deps.pods() : await deps.cluster.list(RESOURCES[key])] as const));
  return { services: [], slices: [], pods: [], policies: [], namespaces: [], nodes: [], ...Object.fromEntries(parts) } as ClusterView;
}
