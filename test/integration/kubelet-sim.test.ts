/**
 * kubelet-sim against a real API server: an in-process kubelet (real HTTP, real watches, a
 * real clock running SPEED times faster, shared with the server) registering two nodes.
 * Tests bind pods themselves (POST pods/{name}/binding), as the scheduler would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { type Node, nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import type { WatchEvent } from '../../controllers/runtime/types.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { type KubectlResult, requireKubectl, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
/** Cluster time runs this much faster than wall time: a 10 s lease period takes 0.5 s. */
const SPEED = 20;

describe('kubelet-sim', () => {
  const cluster = useTestCluster({ lifetime: 'file', speed: SPEED, userAgent: 'kubelet-sim-test/0.1', nodes: 2, kubelet: { logLevel: 'warn' } });
  const pods = () => cluster.client.resource(podDefinition);

  function pod(name: string, annotations: Record<string, string> = {}, spec: Partial<Pod['spec']> = {}): Pod {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS, annotations },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }], ...spec },
    };
  }

  async function bind(name: string, node = 'node-1'): Promise<void> {
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
    const response = await request(`${cluster.url}/api/v1/namespaces/${NS}/pods/${name}/binding`, { method: 'POST', body: binding });
    expect(response.status).toBe(201);
  }

  async function createBound(object: Pod, node = 'node-1'): Promise<Pod> {
    const created = await pods().create(object);
    await bind(object.metadata.name ?? '', node);
    return created;
  }

  const containerStatus = async (name: string) => (await pods().get(NS, name)).status?.containerStatuses?.[0];

  it('registers its nodes with labels, capacity, addresses, nodeInfo and conditions', async () => {
    const node1 = await eventually(() => cluster.client.resource(nodeDefinition).get('', 'node-1'));
    const node2 = await eventually(() => cluster.client.resource(nodeDefinition).get('', 'node-2'));
    expect(node1.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'zone-a',
    });
    expect(node1.metadata.labels?.['node.kubernetes.io/instance-type']).toBeTruthy();
    expect(node2.metadata.labels?.['topology.kubernetes.io/zone']).toBe('zone-b');
    expect(node1.status?.capacity).toEqual({ cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    expect(node1.status?.allocatable).toEqual(node1.status?.capacity);
    expect(node1.status?.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
    expect(node1.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(cluster.kubelet.port);
    expect(node1.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.33.0', operatingSystem: 'linux', architecture: 'amd64' });
    expect(node1.status?.nodeInfo?.containerRuntimeVersion).toMatch(/^containerd:\/\//);
    const conditions = Object.fromEntries((node1.status?.conditions ?? []).map((c) => [c.type, [c.status, c.reason]]));
    expect(conditions).toEqual({
      MemoryPressure: ['False', 'KubeletHasSufficientMemory'],
      DiskPressure: ['False', 'KubeletHasNoDiskPressure'],
      PIDPressure: ['False', 'KubeletHasSufficientPID'],
      Ready: ['True', 'KubeletReady'],
    });
    expect(node1.spec?.podCIDR).toBe('10.244.1.0/24');
  });

  it('renews a Lease per node in kube-node-lease', async () => {
    const leases = cluster.client.resource(leaseDefinition);
    const first = await eventually(() => leases.get('kube-node-lease', 'node-1'));
    const node = await cluster.client.resource(nodeDefinition).get('', 'node-1');
    expect(first.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    expect(first.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata.uid }]);
    await eventually(async () => {
      const renewed = await leases.get('kube-node-lease', 'node-1');
      expect(Date.parse(renewed.spec?.renewTime ?? '')).toBeGreaterThan(Date.parse(first.spec?.renewTime ?? ''));
    });
  });

  /** watchPod records every watch event of pod `name` after `created`, until stop(). */
  function watchPod(created: Pod): { events: Array<WatchEvent<Pod>>; stop(): Promise<void> } {
    const abort = new AbortController();
    const events: Array<WatchEvent<Pod>> = [];
    const watching = (async () => {
      const stream = pods().watch({
        namespace: NS,
        fieldSelector: `metadata.name=${created.metadata.name}`,
        resourceVersion: created.metadata.resourceVersion,
        signal: abort.signal,
      });
      for await (const event of stream) events.push(event);
    })().catch(() => undefined);
    return {
      events,
      async stop() {
        abort.abort();
        await watching;
      },
    };
  }

  const isReady = (p: Pod | undefined) => p?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  const summary = (p: Pod) =>
    `${p.status?.phase}/${p.status?.containerStatuses?.[0]?.state?.waiting?.reason ?? (p.status?.containerStatuses?.[0]?.state?.running ? 'running' : '-')}`;

  it('runs a bound pod Pending → ContainerCreating → Running and Ready, in that order on a watch', async () => {
    const created = await pods().create(pod('web'));
    const watch = watchPod(created);
    const { events } = watch;
    await bind('web');
    await eventually(() => expect(isReady(events.at(-1)?.object)).toBe(true));
    await watch.stop();
    const seen = events.map((event) => summary(event.object)).filter((s, i, all) => s !== all[i - 1]);
    expect(seen).toEqual(['Pending/-', 'Pending/ContainerCreating', 'Running/running']);
    const running = events.at(-1)!.object;
    expect(running.status).toMatchObject({ phase: 'Running', hostIP: '127.0.0.1', hostIPs: [{ ip: '127.0.0.1' }] });
    expect(running.status?.podIP).toMatch(/^10\.244\.1\.\d+$/);
    expect(running.status?.startTime).toBeTruthy();
    expect(running.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(
      expect.arrayContaining(['PodScheduled=True', 'Initialized=True', 'ContainersReady=True', 'Ready=True']),
    );
    expect(running.status?.containerStatuses?.[0]).toMatchObject({
      name: 'nginx',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'docker.io/library/nginx:1.27',
      imageID: expect.stringMatching(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/),
      containerID: expect.stringMatching(/^containerd:\/\/[0-9a-f]{64}$/),
      state: { running: { startedAt: expect.any(String) } },
    });
  });

  it('coalesces transitions due at the same moment into one status write, keeping their events', async () => {
    // From the second crash on, the exit and the CrashLoopBackOff that follows it at once are
    // one write: the watch never shows a restarted container merely terminated.
    const created = await pods().create(pod('coalesced', { 'kubesim.io/crash-after-seconds': '1', 'kubesim.io/exit-code': '3' }));
    const watch = watchPod(created);
    await bind('coalesced');
    const app = (event: WatchEvent<Pod> | undefined) => event?.object.status?.containerStatuses?.[0];
    await eventually(() => expect(app(watch.events.at(-1))?.state?.waiting?.reason).toBe('CrashLoopBackOff'), { timeoutMs: 15_000 });
    await watch.stop();
    const backedOff = app(watch.events.at(-1));
    expect(backedOff?.lastState?.terminated).toMatchObject({ exitCode: 3, reason: 'Error', finishedAt: expect.any(String) });
    const terminatedAfterRestart = watch.events.filter((event) => (app(event)?.restartCount ?? 0) >= 1 && app(event)?.state?.terminated);
    expect(terminatedAfterRestart).toEqual([]);
    await eventually(async () => {
      const events = await cluster.client.resource(eventDefinition).list({ namespace: NS, fieldSelector: 'involvedObject.name=coalesced' });
      expect(events.items.map((e) => e.reason)).toEqual(expect.arrayContaining(['Started', 'BackOff']));
    });
  });

  it('runs init containers in order before the app container', async () => {
    const initContainers = [
      { name: 'first', image: 'busybox' },
      { name: 'second', image: 'busybox' },
    ];
    await createBound(pod('with-init', {}, { initContainers }));
    await eventually(async () => expect((await pods().get(NS, 'with-init')).status?.phase).toBe('Running'));
    const status = (await pods().get(NS, 'with-init')).status;
    const [first, second] = status?.initContainerStatuses ?? [];
    expect(first?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(second?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(Date.parse(second?.state?.terminated?.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first?.state?.terminated?.finishedAt ?? ''));
  });

  it('deletes a gracefully deleted pod once its containers stopped (gracePeriodSeconds 0)', async () => {
    await createBound(pod('doomed'));
    await eventually(async () => expect((await containerStatus('doomed'))?.ready).toBe(true));
    const marked = await pods().delete(NS, 'doomed');
    // Still there: Terminating until the kubelet confirms.
    expect(marked?.metadata.deletionTimestamp).toBeTruthy();
    await eventually(async () => {
      await expect(pods().get(NS, 'doomed')).rejects.toMatchObject({ reason: 'NotFound' });
    });
  });

  it('restarts a crashing container and backs off (CrashLoopBackOff)', async () => {
    await createBound(pod('crasher', { 'kubesim.io/crash-after-seconds': '1', 'kubesim.io/exit-code': '3' }));
    await eventually(
      async () => {
        const status = await containerStatus('crasher');
        expect(status?.restartCount).toBeGreaterThanOrEqual(1);
        expect(status?.state?.waiting?.reason).toBe('CrashLoopBackOff');
        expect(status?.lastState?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
      },
      { timeoutMs: 15_000 },
    );
  });

  it('stops heartbeats and pod updates for a stopped node and resumes on start', async () => {
    const admin = `${cluster.kubelet.url}/simulation/nodes`;
    const leases = cluster.client.resource(leaseDefinition);
    const stopped = await request(`${admin}/node-2/stop`, { method: 'POST' });
    expect(stopped.body).toMatchObject({ name: 'node-2', state: 'Stopped' });
    const frozen = (await leases.get('kube-node-lease', 'node-2')).spec?.renewTime;
    await createBound(pod('on-stopped-node'), 'node-2');
    // Three lease periods of cluster time: a running node would have renewed three times.
    await cluster.clock.sleep(30_000);
    expect((await leases.get('kube-node-lease', 'node-2')).spec?.renewTime).toBe(frozen);
    expect((await pods().get(NS, 'on-stopped-node')).status?.startTime).toBeUndefined();
    expect((await request(admin)).body.items.map((n: { name: string; state: string }) => `${n.name}:${n.state}`)).toEqual(['node-1:Running', 'node-2:Stopped']);
    await request(`${admin}/node-2/start`, { method: 'POST' });
    await eventually(async () => expect((await leases.get('kube-node-lease', 'node-2')).spec?.renewTime).not.toBe(frozen));
    await eventually(async () => expect((await pods().get(NS, 'on-stopped-node')).status?.phase).toBe('Running'));
  });

  it('answers pods/log through the kubelet, with Kubernetes errors for pods not running', async () => {
    await pods().create(pod('unscheduled'));
    const waiting = await request(`${cluster.url}/api/v1/namespaces/${NS}/pods/unscheduled/log?container=nginx`);
    expect(waiting.status).toBe(400);
    expect(waiting.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'container "nginx" in pod "unscheduled" is waiting to start: ContainerCreating',
    });
    await createBound(pod('pull-fails', { 'kubesim.io/image-pull': 'error' }));
    await eventually(async () => expect((await containerStatus('pull-fails'))?.state?.waiting?.reason).toMatch(/ErrImagePull|ImagePullBackOff/));
    const pulling = await request(`${cluster.url}/api/v1/namespaces/${NS}/pods/pull-fails/log?container=nginx`);
    expect(pulling.body.message).toBe('container "nginx" in pod "pull-fails" is waiting to start: trying and failing to pull image');
  });

  it("answers 500 naming the kubelet when the node's kubelet cannot be reached", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const ghost: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'ghost' },
      status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: closedPort } } },
    };
    await cluster.client.resource(nodeDefinition).create(ghost);
    await createBound(pod('haunted'), 'ghost');
    const response = await request(`${cluster.url}/api/v1/namespaces/${NS}/pods/haunted/log?container=nginx`);
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ kind: 'Status', reason: 'InternalError' });
    expect(response.body.message).toContain(`http://127.0.0.1:${closedPort}/containerLogs/default/haunted/nginx`);
    expect(response.body.message).toContain('unreachable');
  });

  const kubectl = requireKubectl();
  describe('kubectl logs', () => {
    const run = (args: string[]): Promise<KubectlResult> =>
      runKubectl(kubectl!, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, 'kubectl-cache') });

    it('prints the simulated lines; --tail and --timestamps work', async () => {
      await createBound(pod('logged', { 'kubesim.io/log-interval-seconds': '1' }));
      await eventually(async () => expect((await containerStatus('logged'))?.ready).toBe(true));
      await cluster.clock.sleep(5_000);
      const all = await run(['logs', 'logged']);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain('[notice] 1#1: start worker processes');
      expect(all.stdout).toMatch(/"GET \/\S* HTTP\/1\.1" \d{3} \d+/);
      const tail = await run(['logs', 'logged', '--tail=2']);
      expect(tail.stdout.trimEnd().split('\n')).toHaveLength(2);
      const stamped = await run(['logs', 'logged', '--tail=3', '--timestamps']);
      for (const line of stamped.stdout.trimEnd().split('\n')) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /);
    });

    it('follows a container until it exits (-f) and shows the previous run of a crashed one', async () => {
      await createBound(pod('finisher', { 'kubesim.io/run-seconds': '20', 'kubesim.io/log-interval-seconds': '2' }, { restartPolicy: 'Never' }));
      await eventually(async () => expect((await containerStatus('finisher'))?.state?.running).toBeTruthy());
      const followed = await run(['logs', '-f', 'finisher']);
      expect(followed.code, followed.stderr).toBe(0);
      expect(followed.stdout).toMatch(/"GET /);
      expect(followed.stdout.trimEnd().split('\n').at(-1)).toContain('exit');
      await eventually(async () => expect((await containerStatus('crasher'))?.lastState?.terminated).toBeTruthy());
      const previous = await run(['logs', 'crasher', '--previous']);
      expect(previous.code, previous.stderr).toBe(0);
      expect(previous.stdout).toContain('simulated crash after 1s');
    });
  });
});
