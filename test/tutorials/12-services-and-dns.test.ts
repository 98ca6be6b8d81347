/**
 * docs/tutorials/12-services-and-dns.md, run as written: a busybox pod reaches a Service by
 * name through the cluster DNS, every ready pod answers in turn, a deleted pod stops answering
 * and its replacement starts, a headless Service's name lists the pods, and a Service without
 * ready pods refuses the connection.
 */
import { describe, expect, it } from 'vitest';
import { parseTable } from './tables.js';
import { commandOutput as output, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('12-services-and-dns.md');

/** The pods named by the `Served by` lines of the six-call loop. */
const answered = (text: string): string[] => [...text.matchAll(/^<p>Served by pod <b>([^<]+)<\/b>\.<\/p>$/gm)].map((m) => m[1]!);

describe('tutorial 12: Services and DNS', () => {
  const cluster = useTutorialCluster();

  /** The web pods, name and IP, as kubectl lists them. */
  const webPods = async (): Promise<Array<{ name: string; ip: string }>> =>
    JSON.parse((await cluster.sh('kubectl get pods -l app=web -o json')).stdout).items.map((pod: any) => ({ name: pod.metadata.name, ip: pod.status.podIP }));

  it('reaches a Service by name, spreads over its ready pods, follows a deletion, and refuses with none', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Three web pods behind a Service',
      'Ask the cluster DNS',
      'Call it, six times',
      'Delete a pod, and watch traffic shift',
      'A headless Service: DNS lists the pods',
      'No ready pods: connection refused',
      'No ready pods: connection refused',
      'Clean up',
    ]);
    const [create, dns, calls, remove, headless, scale, refused, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step, Step];

    const created = await cluster.run(create);
    const [service] = parseTable(output(created, 'kubectl get service'));
    expect(service).toMatchObject({ NAME: 'web', TYPE: 'ClusterIP', 'PORT(S)': '80/TCP' });
    const clusterIP = service!['CLUSTER-IP']!;
    expect(clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    const pods = await webPods();
    const [slice] = parseTable(output(created, 'kubectl get endpointslices'));
    expect(slice!['ENDPOINTS']!.split(',').sort()).toEqual(pods.map((p) => p.ip).sort());

    const looked = await cluster.run(dns);
    expect(output(looked, 'kubectl exec client -- cat')).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    expect(output(looked, 'kubectl exec client -- nslookup')).toBe(
      `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${clusterIP}\n\n\n`,
    );

    // Six calls: every one of the three pods answers.
    const first = answered(output(await cluster.run(calls), 'kubectl exec'));
    expect(first).toHaveLength(6);
    expect(new Set(first)).toEqual(new Set(pods.map((p) => p.name)));

    // The victim stops answering; its replacement answers; the slice lists the new set.
    const shifted = await cluster.run(remove);
    const victim = output(shifted, 'kubectl get pods').trim().replace('pod/', '');
    expect(pods.map((p) => p.name)).toContain(victim);
    const after = await webPods();
    expect(after.map((p) => p.name)).not.toContain(victim);
    const second = answered(output(shifted, 'kubectl exec'));
    expect(second).not.toContain(victim);
    expect(new Set(second)).toEqual(new Set(after.map((p) => p.name)));
    const [newSlice] = parseTable(output(shifted, 'kubectl get endpointslices'));
    expect(newSlice!['ENDPOINTS']!.split(',').sort()).toEqual(after.map((p) => p.ip).sort());

    // The headless Service's name lists every pod's IP.
    const lookup = output(await cluster.run(headless), 'kubectl exec client -- nslookup');
    expect([...lookup.matchAll(/^Address: (\S+)$/gm)].map((m) => m[1]).sort()).toEqual(after.map((p) => p.ip).sort());

    // No ready pods: kube-proxy's reject, at once.
    await cluster.run(scale);
    expect(refused.commands).toEqual(['kubectl exec client -- wget -qO- -T 2 http://web']);
    const rejected = await cluster.sh(refused.commands[0]!);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toBe(`wget: can't connect to remote host (${clusterIP}): Connection refused\ncommand terminated with exit code 1\n`);

    await cluster.run(cleanup);
    expect((await cluster.sh('kubectl get services -o name')).stdout.trim()).toBe('service/kubernetes');
  }, 90_000);
});
