/**
 * wget, curl, nc and nslookup inside simulated containers, on a pod network built from plain
 * objects: names resolve through the cluster DNS, Service traffic takes turns among the ready
 * endpoints' nginx pages, a Service without endpoints refuses, a NetworkPolicy drops (the
 * client waits its own timeout in cluster time).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../apiserver/api/machinery/clock.js';
import { objectReader, podObject, type RunResult, run, START_MS, sh } from '../../../../test/support/userland.js';
import { createPodNetwork } from '../../../network/pod-network.js';
import type { ContainerUserland } from '../../contract.js';
import { createUserlandFactory } from '../../index.js';

const slice = (service: string, endpoints: Array<[string, string]>, port = 80, name = '') => ({
  kind: 'EndpointSlice',
  metadata: { name: `${service}-x`, namespace: 'default', labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints: endpoints.map(([ip, pod]) => ({ addresses: [ip], conditions: { ready: true }, targetRef: { kind: 'Pod', name: pod, namespace: 'default' } })),
  ports: [{ name, port, protocol: 'TCP' }],
});
const service = (name: string, clusterIP: string, port = 80) => ({
  kind: 'Service',
  metadata: { name, namespace: 'default' },
  spec: { clusterIP, ports: [{ name: '', port, protocol: 'TCP' }] },
});

const pods = [
  podObject('web-a', { image: 'nginx:1.27', labels: { app: 'web' }, status: { podIP: '10.244.1.2' } }),
  podObject('web-b', { image: 'nginx:1.27', labels: { app: 'web' }, status: { podIP: '10.244.2.2' } }),
  podObject('cache', { image: 'redis:7', labels: { app: 'cache' }, status: { podIP: '10.244.2.7' } }),
  podObject('client', { image: 'busybox:1.36', labels: { role: 'client' }, container: { command: ['sleep', '3600'] }, status: { podIP: '10.244.3.9' } }),
  podObject('curler', { image: 'curlimages/curl:8.13.0', container: { command: ['sleep', '3600'] }, status: { podIP: '10.244.3.10' } }),
  podObject('deb', { image: 'debian:12', container: { command: ['sleep', '3600'] }, status: { podIP: '10.244.3.11' } }),
  podObject('dnsutils', {
    image: 'registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3',
    container: { command: ['sleep', '3600'] },
    status: { podIP: '10.244.3.12' },
  }),
  podObject('db-0', { image: 'nginx', spec: { hostname: 'db-0', subdomain: 'db' }, status: { podIP: '10.244.1.5' } }),
];

const baseObjects: Array<Record<string, any>> = [
  service('web', '10.96.0.50'),
  slice('web', [
    ['10.244.1.2', 'web-a'],
    ['10.244.2.2', 'web-b'],
  ]),
  service('cache', '10.96.0.70', 6379),
  slice('cache', [['10.244.2.7', 'cache']], 6379),
  service('empty', '10.96.0.80'),
  { ...service('db', 'None'), spec: { clusterIP: 'None', ports: [{ port: 80 }] } },
  slice('db', [['10.244.1.5', 'db-0']]),
  { kind: 'Namespace', metadata: { name: 'default' } },
];

/** cluster: the pods' userlands on one pod network over `objects`. */
function cluster(objects: Array<Record<string, any>> = baseObjects) {
  const clock = new FakeClock(START_MS);
  const reader = objectReader(objects);
  const factory = createUserlandFactory();
  const userlands = new Map<string, ContainerUserland>();
  const network = createPodNetwork({
    cluster: reader,
    clock,
    pods: () => pods,
    open: async (pod, port) => userlands.get(pod.metadata.name ?? '')?.connect?.(port),
  });
  for (const pod of pods) userlands.set(pod.metadata.name, factory({ pod, containerName: 'main', cluster: reader, clock, network }));
  /** exec runs a shell line in a pod, moving cluster time on while it waits. */
  const exec = async (pod: string, script: string): Promise<RunResult> => {
    let done = false;
    const running = sh(userlands.get(pod)!, script).finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (!done && clock.pendingTimers > 0) clock.advance(500);
    }
    return running;
  };
  return { clock, exec, userlands };
}

const servedBy = (page: string) => /Served by pod <b>([^<]+)<\/b>/.exec(page)?.[1];

describe('network commands', () => {
  it('wget reaches a Service by name; its endpoints take turns', async () => {
    const { exec } = cluster();
    const pages = [
      await exec('client', 'wget -qO- http://web'),
      await exec('client', 'wget -qO- web.default'),
      await exec('client', 'wget -q -O - 10.96.0.50'),
    ];
    expect(pages.map((p) => p.status)).toEqual([0, 0, 0]);
    expect(pages.map((p) => servedBy(p.stdout))).toEqual(['web-a', 'web-b', 'web-a']);
    const loud = await exec('client', 'wget -O /tmp/page.html http://web.default.svc.cluster.local/ && grep -c Served /tmp/page.html');
    expect(loud.stderr).toMatch(
      /^Connecting to web\.default\.svc\.cluster\.local \(10\.96\.0\.50:80\)\nsaving to '\/tmp\/page\.html'\n.*\n'\/tmp\/page\.html' saved\n$/,
    );
    expect(loud.stdout).toBe('1\n');
  });

  it("wget words busybox's errors: 404, bad address, refused, and a timeout when a port matches no rule", async () => {
    const { exec } = cluster();
    const missing = await exec('client', 'wget -q http://web/nope');
    expect(missing).toMatchObject({ status: 1, stderr: 'wget: server returned error: HTTP/1.1 404 Not Found\n' });
    expect((await exec('client', 'wget -qO- http://nosuch')).stderr).toBe("wget: bad address 'nosuch'\n");
    expect((await exec('client', 'wget -qO- http://empty')).stderr).toBe("wget: can't connect to remote host (10.96.0.80): Connection refused\n");
    expect((await exec('client', 'wget -qO- -T 2 http://web:8080')).stderr).toBe('wget: download timed out\n');
    const headers = await exec('client', 'wget -S -qO- http://10.244.2.2/');
    expect(headers.stderr).toMatch(/^ {2}HTTP\/1\.1 200 OK\n {2}Server: nginx\/1\.27\.5\n/);
    // Loopback reaches the pod's own server.
    expect(servedBy((await exec('web-a', 'curl -s localhost')).stdout)).toBe('web-a');
  });

  it('nslookup prints busybox 1.36 answers for a Service, a headless Service and a missing name', async () => {
    const { exec } = cluster();
    const found = await exec('client', 'nslookup web');
    expect(found.stdout).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n' +
        'Name:\tweb.default.svc.cluster.local\nAddress: 10.96.0.50\n\n' +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n" +
        "\n** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n",
    );
    expect(found.status).toBe(1);
    const headless = await exec('client', 'nslookup db.default.svc.cluster.local');
    expect(headless).toMatchObject({
      status: 0,
      stdout: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tdb.default.svc.cluster.local\nAddress: 10.244.1.5\n\n\n',
    });
    expect((await exec('client', 'nslookup db-0.db.default.svc.cluster.local')).stdout).toContain('Address: 10.244.1.5\n');
    expect((await exec('client', 'nslookup nosuch.default')).stdout).toBe(
      "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find nosuch.default: NXDOMAIN\n\n** server can't find nosuch.default: NXDOMAIN\n\n",
    );
  });

  it("the DNS debugging image has BIND's nslookup, with the search list, and dig", async () => {
    const { exec } = cluster();
    expect(await exec('dnsutils', 'nslookup web')).toMatchObject({
      status: 0,
      stdout: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.0.50\n\n',
    });
    expect(await exec('dnsutils', 'nslookup nosuch')).toMatchObject({
      status: 1,
      stdout: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nosuch: NXDOMAIN\n\n",
    });
    expect(await exec('dnsutils', 'dig +short db.default.svc.cluster.local')).toMatchObject({ status: 0, stdout: '10.244.1.5\n' });
    // dig asks the name as given: no search list unless +search.
    expect((await exec('dnsutils', 'dig +short web')).stdout).toBe('');
    expect((await exec('dnsutils', 'dig +short +search web')).stdout).toBe('10.96.0.50\n');
    expect((await exec('dnsutils', 'dig +short -x 10.96.0.50')).stdout).toBe('web.default.svc.cluster.local.\n');
    const full = await exec('dnsutils', 'dig web.default.svc.cluster.local');
    expect(full.stdout).toContain(';; ->>HEADER<<- opcode: QUERY, status: NOERROR');
    expect(full.stdout).toContain(';; ANSWER SECTION:\nweb.default.svc.cluster.local.\t30\tIN\tA\t10.96.0.50\n');
    expect(full.stdout).toContain(';; SERVER: 10.96.0.10#53(10.96.0.10)\n');
  });

  it('curl shows pages, headers, and its exit codes', async () => {
    const { exec } = cluster();
    expect(servedBy((await exec('curler', 'curl -s http://web')).stdout)).toBe('web-a');
    const head = await exec('curler', 'curl -sI web');
    expect(head.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.27\.5\r\n[\s\S]*\r\n\r\n$/);
    const meter = await exec('curler', 'curl http://web -o /tmp/x');
    expect(meter.stderr).toMatch(/^ {2}% Total {4}% Received % Xferd/);
    expect(await exec('curler', 'curl -sSf http://web/nope')).toMatchObject({ status: 22, stderr: 'curl: (22) The requested URL returned error: 404\n' });
    expect(await exec('curler', 'curl -sS http://nosuch')).toMatchObject({ status: 6, stderr: 'curl: (6) Could not resolve host: nosuch\n' });
    expect(await exec('curler', 'curl -sS http://empty')).toMatchObject({
      status: 7,
      stderr: "curl: (7) Failed to connect to empty port 80 after 0 ms: Couldn't connect to server\n",
    });
    expect(await exec('curler', 'curl -sS -m 2 http://web:8080')).toMatchObject({
      status: 28,
      stderr: 'curl: (28) Failed to connect to web port 8080 after 2000 ms: Timeout was reached\n',
    });
  });

  it('nc checks and talks to a TCP port', async () => {
    const { exec } = cluster();
    expect(await exec('client', 'nc -zv cache 6379')).toMatchObject({ status: 0, stderr: 'cache (10.96.0.70:6379) open\n' });
    expect(await exec('client', 'nc -z empty 80')).toMatchObject({ status: 1, stderr: '' });
    expect((await exec('client', 'echo PING | nc -w 1 cache 6379')).stdout).toBe('+PONG\r\n');
  });

  it('images carry the clients their real images have', async () => {
    const { exec, userlands } = cluster();
    expect((await run(userlands.get('deb')!, ['wget', 'http://web'])).status).toBe(126);
    expect((await exec('deb', 'curl http://web')).stderr).toBe('sh: 1: curl: not found\n');
    expect((await exec('client', 'curl http://web')).stderr).toBe('sh: curl: not found\n');
    expect(servedBy((await exec('web-b', 'curl -s web')).stdout)).toBe('web-a');
  });

  it('a NetworkPolicy drops traffic: ingress deny times wget out, egress deny stops DNS', async () => {
    const denyWeb = {
      kind: 'NetworkPolicy',
      metadata: { name: 'deny', namespace: 'default' },
      spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress'] },
    };
    const denied = cluster([...baseObjects, denyWeb]);
    expect(await denied.exec('client', 'wget -qO- -T 2 http://web')).toMatchObject({ status: 1, stderr: 'wget: download timed out\n' });
    // busybox names the address before it connects.
    expect((await denied.exec('client', 'wget -O- -T 2 http://web')).stderr).toBe('Connecting to web (10.96.0.50:80)\nwget: download timed out\n');
    expect((await denied.exec('curler', 'curl -v -m 1 http://web')).stderr).toBe(
      '*   Trying 10.96.0.50:80...\ncurl: (28) Failed to connect to web port 80 after 1000 ms: Timeout was reached\n',
    );
    const started = denied.clock.now();
    expect((await denied.exec('client', 'wget -qO- http://web')).stderr).toBe("wget: can't connect to remote host (10.96.0.50): Connection timed out\n");
    expect(denied.clock.now() - started).toBeGreaterThanOrEqual(127_000);
    const allowClients = {
      kind: 'NetworkPolicy',
      metadata: { name: 'allow', namespace: 'default' },
      spec: {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }], ports: [{ port: 80 }] }],
      },
    };
    const allowed = cluster([...baseObjects, denyWeb, allowClients]);
    expect((await allowed.exec('client', 'wget -qO- -T 2 http://web')).status).toBe(0);
    expect((await allowed.exec('curler', 'curl -sS -m 2 http://web')).status).toBe(28);
    const denyEgress = {
      kind: 'NetworkPolicy',
      metadata: { name: 'no-egress', namespace: 'default' },
      spec: { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'] },
    };
    const isolated = cluster([...baseObjects, denyEgress]);
    expect(await isolated.exec('client', 'nslookup web')).toMatchObject({ status: 1, stdout: ';; connection timed out; no servers could be reached\n\n' });
    expect((await isolated.exec('client', 'wget -qO- http://web')).stderr).toBe("wget: bad address 'web'\n");
    const dnsAllowed = {
      ...denyEgress,
      metadata: { name: 'dns', namespace: 'default' },
      spec: {
        ...denyEgress.spec,
        egress: [{ to: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }], ports: [{ port: 53, protocol: 'UDP' }] }],
      },
    };
    const dnsOnly = cluster([...baseObjects, denyEgress, dnsAllowed]);
    expect((await dnsOnly.exec('client', 'nslookup web.default.svc.cluster.local')).status).toBe(0);
    expect((await dnsOnly.exec('client', 'wget -qO- -T 1 http://web')).stderr).toBe('wget: download timed out\n');
  });
});
