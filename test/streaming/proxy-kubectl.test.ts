/**
 * pods/proxy, services/proxy and nodes/proxy, and port-forward to a Service and a Deployment,
 * with real kubectl (1.31–1.33) against a cluster whose nginx pods run kubesim's simulated
 * userland: `kubectl proxy` then an HTTP GET of the Service, `kubectl get --raw` of a pod and
 * of a node's kubelet, the errors kube-apiserver words, and bytes through port-forward.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { deploymentYaml, useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, type KubectlWatch, requireKubectl, runKubectl, startKubectlWatch } from '../support/kubectl.js';

const execFileAsync = promisify(execFile);
const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** A Service on port 80 (what `kubectl expose --port 80` makes: an unnamed port), or a named one. */
const serviceYaml = (name: string, selector: string, portName?: string) => `apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {app: ${selector}}
  ports: [{${portName ? `name: ${portName}, ` : ''}port: 80, targetPort: 80}]
`;

/** localPort reads the port a `kubectl proxy` or `port-forward` serves on from its first line. */
async function localPort(watch: KubectlWatch, pattern: RegExp): Promise<number> {
  const lines = await watch.waitFor((seen) => seen.some((line) => pattern.test(line)));
  return Number(pattern.exec(lines.find((line) => pattern.test(line))!)![1]);
}

describe.each(binaries)('$label: proxy and port-forward to the simulated servers', (binary) => {
  const k = useKubectlCluster(binary, { nodes: 2, scheduler: true, controllers: ['deployment', 'replicaset', 'endpoints'] });
  let pods: string[] = [];

  it('a Deployment of nginx behind a Service gets its endpoints', async () => {
    await k.apply(deploymentYaml('web', { replicas: 2, image: 'nginx:1.27' }));
    await k.apply(serviceYaml('web', 'web'));
    await k.apply(serviceYaml('named', 'web', 'http'));
    await k.apply(serviceYaml('empty', 'nothing'));
    await eventually(
      async () => {
        const endpoints = await k.json(['endpoints', 'web']);
        expect(endpoints.subsets?.[0]?.addresses ?? []).toHaveLength(2);
      },
      { timeoutMs: 30_000 },
    );
    pods = (await k.json(['pods', '-l', 'app=web'])).items.map((pod: { metadata: { name: string } }) => pod.metadata.name);
    expect(pods).toHaveLength(2);
  });

  it('kubectl proxy, then GET services/web/proxy/: nginx answers with a page naming one of the pods', async () => {
    const proxy = k.watch(['proxy', '--port=0']);
    const port = await localPort(proxy, /^Starting to serve on 127\.0\.0\.1:(\d+)/);
    const url = `http://127.0.0.1:${port}/api/v1/namespaces/default/services/web/proxy/`;
    const { stdout: curled } = await execFileAsync('curl', ['-sS', '-i', url]);
    expect(curled).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(curled).toContain('Server: nginx/1.27.5\r\n');
    expect(curled).toContain('<title>Welcome to nginx!</title>');
    expect(pods).toContain(/Served by pod <b>([^<]+)<\/b>/.exec(curled)?.[1]);
    // kube-apiserver picks a random ready endpoint: both pods answer, sooner or later.
    const answered = new Set<string>();
    await eventually(async () => {
      answered.add(/Served by pod <b>([^<]+)<\/b>/.exec(await (await fetch(url)).text())?.[1] ?? '');
      expect([...answered].sort()).toEqual([...pods].sort());
    });
    // Without the trailing slash, kube-apiserver redirects to it (relative links need it).
    const bare = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/default/services/web/proxy?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/api/v1/namespaces/default/services/web/proxy/?x=1');
    // A path nginx lacks is nginx's own 404, passed back as it came.
    const missing = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/default/services/web/proxy/nope.html`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<center>nginx/1.27.5</center>');
    await proxy.stop();
  });

  it('a named Service port must be named in the path, as kube-apiserver requires', async () => {
    const unnamed = await k.run(['get', '--raw', '/api/v1/namespaces/default/services/named/proxy/']);
    expect(unnamed.stderr).toBe('Error from server (ServiceUnavailable): no endpoints available for service "named"\n');
    for (const id of ['named:http', 'http:named:http', 'named:80']) {
      const page = await k.ok(['get', '--raw', `/api/v1/namespaces/default/services/${id}/proxy/`]);
      expect(page.stdout).toContain('Served by pod');
    }
  });

  it('get --raw of pods/{name}:80/proxy/ reaches that pod', async () => {
    const result = await k.ok(['get', '--raw', `/api/v1/namespaces/default/pods/${pods[0]}:80/proxy/`]);
    expect(result.stdout).toContain(`Served by pod <b>${pods[0]}</b>`);
    const noPort = await k.ok(['get', '--raw', `/api/v1/namespaces/default/pods/${pods[1]}/proxy/index.html`]);
    expect(noPort.stdout).toContain(`Served by pod <b>${pods[1]}</b>`);
  });

  it('get --raw of nodes/{name}/proxy/healthz is the kubelet answering', async () => {
    expect((await k.ok(['get', '--raw', '/api/v1/nodes/node-1/proxy/healthz'])).stdout).toBe('ok');
    const summary = JSON.parse((await k.ok(['get', '--raw', '/api/v1/nodes/node-2/proxy/stats/summary'])).stdout);
    expect(summary.node.nodeName).toBe('node-2');
    const unknown = await k.run(['get', '--raw', '/api/v1/nodes/node-1/proxy/configz-nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Error from server (NotFound)');
  });

  it('errors are worded as kube-apiserver words them', async () => {
    const pod = await k.json(['pod', pods[0]!]);
    const closed = await k.run(['get', '--raw', `/api/v1/namespaces/default/pods/${pods[0]}:81/proxy/`]);
    expect(closed.stderr).toBe(
      `Error from server (ServiceUnavailable): error trying to reach service: dial tcp ${pod.status.podIP}:81: connect: connection refused\n`,
    );
    const empty = await k.run(['get', '--raw', '/api/v1/namespaces/default/services/empty/proxy/']);
    expect(empty.stderr).toBe('Error from server (ServiceUnavailable): no endpoints available for service "empty"\n');
    const noPort = await k.run(['get', '--raw', '/api/v1/namespaces/default/services/web:8080/proxy/']);
    expect(noPort.stderr).toBe('Error from server (ServiceUnavailable): no service port 8080 found for service "web"\n');
    const node = await k.run(['get', '--raw', '/api/v1/nodes/node-9/proxy/healthz']);
    expect(node.stderr).toBe('Error from server (NotFound): nodes "node-9" not found\n');
    const ghost = await k.run(['get', '--raw', '/api/v1/namespaces/default/pods/ghost/proxy/']);
    expect(ghost.stderr).toBe('Error from server (NotFound): pods "ghost" not found\n');
  });

  for (const resource of ['svc/web', 'deploy/web']) {
    it(`port-forward ${resource} 0:80, then an HTTP GET through the forwarded port`, async () => {
      const forward = k.watch(['port-forward', resource, '0:80']);
      const port = await localPort(forward, /^Forwarding from 127\.0\.0\.1:(\d+) -> 80/);
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(response.status).toBe(200);
      expect(pods).toContain(/Served by pod <b>([^<]+)<\/b>/.exec(await response.text())?.[1]);
      await forward.stop();
    });
  }

  it('a 10 MB file comes whole through port-forward and through pods/proxy', { timeout: 90_000 }, async () => {
    let text = '';
    for (let line = 0; text.length < 10 * 1024 * 1024; line++) text += `line ${line} of a ten megabyte page\n`;
    const wrote = await k.run(['exec', '-i', pods[0]!, '--', 'sh', '-c', 'cat > /usr/share/nginx/html/big.txt'], { stdin: text, timeoutMs: 60_000 });
    expect(wrote.code).toBe(0);
    const digest = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
    const forward = k.watch(['port-forward', `pod/${pods[0]}`, '0:80']);
    const port = await localPort(forward, /^Forwarding from 127\.0\.0\.1:(\d+) -> 80/);
    const forwarded = Buffer.from(await (await fetch(`http://127.0.0.1:${port}/big.txt`)).arrayBuffer());
    expect(digest(forwarded)).toBe(digest(text));
    await forward.stop();
    const proxied = await k.ok(['get', '--raw', `/api/v1/namespaces/default/pods/${pods[0]}/proxy/big.txt`], { timeoutMs: 60_000 });
    expect(digest(proxied.stdout)).toBe(digest(text));
  });

  it('port-forward to a port nothing listens on reports what kubectl reports', async () => {
    const forward = k.watch(['port-forward', `pod/${pods[0]}`, '0:81']);
    const port = await localPort(forward, /^Forwarding from 127\.0\.0\.1:(\d+) -> 81/);
    await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
    await eventually(() =>
      expect(forward.stderr()).toMatch(
        /an error occurred forwarding \d+ -> 81: error forwarding port 81 to pod [0-9a-f]{32}, uid : failed to execute portforward in network namespace \\?"[^"\\]+\\?": failed to connect to localhost:81 inside namespace \\?"[0-9a-f]{32}\\?", IPv4: dial tcp4 127\.0\.0\.1:81: connect: connection refused/,
      ),
    );
    await forward.stop();
  });
});

// The cluster `kubesim up` runs (HTTPS, client certificates, RBAC, every loop, the simulated
// userland): a learner's commands, as a tutorial would show them. The newest kubectl is enough.
const newest = binaries.at(-1);
describe.runIf(newest)('kubectl proxy on the default cluster', () => {
  let cluster: Cluster;
  const kubectl = (args: string[]) =>
    runKubectl(newest!, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.kubeconfigPath, '..', 'proxy-cache') });

  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.stop());

  it('create deployment, expose, kubectl proxy, curl the Service; get --raw a node’s healthz', async () => {
    expect((await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).code).toBe(0);
    expect((await kubectl(['expose', 'deployment', 'web', '--port=80'])).stdout).toBe('service/web exposed\n');
    await eventually(
      async () => expect((await kubectl(['get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[0].addresses[*].ip}'])).stdout.split(' ')).toHaveLength(2),
      {
        timeoutMs: 30_000,
      },
    );
    const proxy = startKubectlWatch(newest!, ['proxy', '--port=0'], {
      kubeconfigPath: cluster.kubeconfigPath,
      cacheDir: join(cluster.kubeconfigPath, '..', 'proxy-cache'),
    });
    const port = await localPort(proxy, /^Starting to serve on 127\.0\.0\.1:(\d+)/);
    const { stdout } = await execFileAsync('curl', ['-sS', `http://127.0.0.1:${port}/api/v1/namespaces/default/services/web/proxy/`]);
    expect(stdout).toMatch(/Served by pod <b>web-[a-z0-9]+-[a-z0-9]{5}<\/b>/);
    await proxy.stop();
    const node = (await kubectl(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout;
    expect(await kubectl(['get', '--raw', `/api/v1/nodes/${node}/proxy/healthz`])).toMatchObject({ code: 0, stdout: 'ok' });
  });
});
