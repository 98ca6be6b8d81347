/**
 * The kubelet's prober through a real cluster and the real kubectl: an httpGet readiness probe
 * on a path nginx does not serve keeps the pod unready and out of its Service's endpoints;
 * `kubectl exec … rm index.html` turns a ready pod unready (nginx answers 403) and it leaves
 * the endpoints; a failing liveness probe restarts the container with the kubelet's events,
 * and the restarted container (a fresh filesystem) is healthy again.
 */
import { describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';

// The newest installed kubectl is enough: probes are the kubelet's, not the client's.
const binary = findKubectlBinaries().at(-1);
if (!binary) it('finds a kubectl binary', () => requireKubectl());

const webPod = (name: string, probe: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: web}}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    ports: [{name: http, containerPort: 80}]
${probe}`;

const serviceYaml = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
`;

describe.runIf(binary)('probes against the simulated userland', () => {
  const k = useKubectlCluster(binary!, { nodes: 1, scheduler: true, controllers: ['endpoints', 'endpointslice'] });
  const ready = async (pod: string) => (await k.json(['pod', pod])).status.conditions?.find((c: { type: string }) => c.type === 'Ready')?.status;
  const readyAddresses = async () =>
    ((await k.json(['endpoints', 'web'])).subsets ?? []).flatMap((s: any) => (s.addresses ?? []).map((a: any) => a.targetRef.name));
  const events = async (pod: string) =>
    (await k.ok(['get', 'events', '--field-selector', `involvedObject.name=${pod}`, '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']))
      .stdout;

  it('a readiness probe on a missing path keeps the pod unready and out of the endpoints; rm index.html takes a ready pod out', async () => {
    await k.apply(serviceYaml);
    await k.apply(webPod('good', '    readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 1}'));
    await k.apply(webPod('bad', '    readinessProbe: {httpGet: {path: /healthz, port: 80}, periodSeconds: 1}'));
    await eventually(async () => expect(await ready('good')).toBe('True'), { timeoutMs: 20_000 });
    await eventually(async () => expect(await readyAddresses()).toEqual(['good']), { timeoutMs: 20_000 });
    await eventually(async () => expect(await events('bad')).toContain('Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404\n'));
    expect(await ready('bad')).toBe('False');
    expect(await readyAddresses()).toEqual(['good']);

    await k.ok(['exec', 'good', '--', 'rm', '/usr/share/nginx/html/index.html']);
    await eventually(async () => expect(await ready('good')).toBe('False'), { timeoutMs: 20_000 });
    await eventually(async () => expect(await readyAddresses()).toEqual([]), { timeoutMs: 20_000 });
    expect(await events('good')).toContain('Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 403\n');
    const describe = (await k.ok(['describe', 'pod', 'good'])).stdout;
    expect(describe).toMatch(/Readiness:\s+http-get http:\/\/:http\/ delay=0s timeout=1s period=1s #success=1 #failure=3/);
  });

  it('a failing liveness probe restarts the container; describe shows the events, the new container is healthy', async () => {
    await k.apply(webPod('live', '    livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1, failureThreshold: 2}'));
    await eventually(async () => expect(await ready('live')).toBe('True'), { timeoutMs: 20_000 });
    await k.ok(['exec', 'live', '--', 'rm', '/usr/share/nginx/html/index.html']);
    await eventually(async () => expect((await k.json(['pod', 'live'])).status.containerStatuses[0].restartCount).toBe(1), { timeoutMs: 20_000 });
    const describe = (await k.ok(['describe', 'pod', 'live'])).stdout;
    expect(describe).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Liveness probe failed: HTTP probe failed with statuscode: 403/);
    expect(describe).toMatch(/Normal\s+Killing\s+.*kubelet\s+Container nginx failed liveness probe, will be restarted/);
    expect(describe).toMatch(/Last State:\s+Terminated\s+Reason:\s+Completed\s+Exit Code:\s+0/);
    // The restarted container has the image's files again: it becomes ready and stays up.
    await eventually(async () => expect(await ready('live')).toBe('True'), { timeoutMs: 20_000 });
    const status = (await k.json(['pod', 'live'])).status.containerStatuses[0];
    expect(status).toMatchObject({ restartCount: 1, ready: true, started: true });
  });
});
