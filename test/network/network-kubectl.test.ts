/**
 * The pod network end to end, with a real cluster (API server, scheduler, ReplicaSet, Deployment
 * and EndpointSlice loops, a two-node kubelet) and the real kubectl: from a busybox pod, `wget`
 * of a Service name reaches every ready pod in turn, a deleted pod stops answering, nslookup of
 * a headless Service lists the pods' IPs, and a NetworkPolicy cuts the connection until an
 * allow rule restores it.
 */
import { describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';

// One kubectl is enough: the wire is covered per version in test/streaming/.
const binary = findKubectlBinaries().at(-1);
if (!binary) it('finds a kubectl binary', () => requireKubectl());

const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: 'nginx:1.27', ports: [{name: http, containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: web-headless}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{port: 80}]
`;

const denyAll = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec:
  podSelector: {}
  policyTypes: [Ingress]
`;

const allowClient = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-from-client}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from: [{podSelector: {matchLabels: {run: client}}}]
    ports: [{port: http}]
`;

const servedBy = (page: string) => /Served by pod <b>([^<]+)<\/b>/.exec(page)?.[1];

describe.runIf(binary)('the pod network through kubectl', () => {
  const k = useKubectlCluster(binary!, { nodes: 2, scheduler: true, controllers: ['deployment', 'replicaset', 'endpointslice'] });

  /** answering: the pods that answered six wgets of the web Service from the client pod. */
  const answering = async (): Promise<Set<string | undefined>> => {
    const names = new Set<string | undefined>();
    for (let i = 0; i < 6; i++) names.add(servedBy((await k.ok(['exec', 'client', '--', 'wget', '-qO-', 'http://web'])).stdout));
    return names;
  };
  const webPods = async (): Promise<Array<{ name: string; ip: string }>> =>
    (await k.json(['pods', '-l', 'app=web'])).items
      .filter((pod: any) => !pod.metadata.deletionTimestamp && pod.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'))
      .map((pod: any) => ({ name: pod.metadata.name, ip: pod.status.podIP }));

  it('spreads Service traffic over the ready pods and shifts it when a pod goes', async () => {
    await k.apply(manifests);
    await k.ok(['run', 'client', '--image=busybox:1.36', '--', 'sleep', '3600']);
    await k.ok(['wait', '--for=condition=Ready', 'pod/client', '--timeout=30s']);
    const ready = await eventually(
      async () => {
        const pods = await webPods();
        expect(pods).toHaveLength(3);
        expect(await answering()).toEqual(new Set(pods.map((p) => p.name)));
        return pods;
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );
    const gone = ready[0]!.name;
    await k.ok(['delete', 'pod', gone]);
    await eventually(
      async () => {
        const names = await answering();
        expect(names.has(gone)).toBe(false);
        expect(names).toEqual(new Set((await webPods()).map((p) => p.name)));
        expect(names.size).toBe(3);
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );
  }, 90_000);

  it('nslookup of a headless Service lists the ready pods', async () => {
    const lookup = await k.run(['exec', 'client', '--', 'nslookup', 'web-headless.default.svc.cluster.local']);
    expect(lookup.code).toBe(0);
    const addresses = [...lookup.stdout.matchAll(/^Address: (\S+)$/gm)].map((m) => m[1]).sort();
    expect(addresses).toEqual((await webPods()).map((p) => p.ip).sort());
    expect(lookup.stdout).toMatch(/^Server:\t\t10\.96\.0\.10\nAddress:\t10\.96\.0\.10:53\n\nName:\tweb-headless\.default\.svc\.cluster\.local\n/);
  });

  it('a deny-all NetworkPolicy cuts wget; an allow rule restores it', async () => {
    await k.apply(denyAll);
    const cut = await k.run(['exec', 'client', '--', 'wget', '-qO-', '-T', '1', 'http://web']);
    expect(cut).toMatchObject({ code: 1, stderr: 'wget: download timed out\ncommand terminated with exit code 1\n' });
    await k.apply(allowClient);
    expect(servedBy((await k.ok(['exec', 'client', '--', 'wget', '-qO-', '-T', '1', 'http://web'])).stdout)).toMatch(/^web-/);
    // Only the client is allowed: a pod without the label is still cut off.
    await k.ok(['run', 'other', '--image=busybox:1.36', '--', 'sleep', '3600']);
    await k.ok(['wait', '--for=condition=Ready', 'pod/other', '--timeout=30s']);
    expect((await k.run(['exec', 'other', '--', 'wget', '-qO-', '-T', '1', 'http://web'])).code).toBe(1);
  }, 60_000);
});
