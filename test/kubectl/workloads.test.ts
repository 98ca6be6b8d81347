/**
 * The real kubectl driving a Deployment through its life with the ReplicaSet and Deployment
 * controllers and a kubelet running: create, rollout status (with the progress lines of a
 * rollout held half-way), scale, set image, rollout history/undo/restart, get, describe and
 * wait — asserting the output a real cluster prints. Deletion is in workloads-delete.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { tableRows } from './fixture.js';
import { useWorkloadCluster } from './workload-fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const ROLLED_OUT = 'deployment "web" successfully rolled out';
/** What rollout status may print before it is done (kubectl repeats a line per event). */
const PROGRESS = /^(Waiting for deployment "web" rollout to finish: .+\.\.\.|Waiting for deployment spec update to be observed\.\.\.)$/;

describe.each(binaries)('$label: Deployment rollouts', (binary) => {
  const k = useWorkloadCluster(binary);

  /** rolledOut runs `rollout status` and checks it ends with success after progress lines only. */
  const rolledOut = async () => {
    const status = await k.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 65_000 });
    const lines = status.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(ROLLED_OUT);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(PROGRESS);
  };
  /** replicaSets maps each ReplicaSet of web to [desired, current, ready] from `get rs`. */
  const replicaSets = async () => {
    const rows = tableRows((await k.ok(['get', 'rs', '-l', 'app=web'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    return new Map(rows.slice(1).map(([name, ...cells]) => [name ?? '', cells.slice(0, 3)]));
  };
  const webPods = async () => (await k.ok(['get', 'pods', '-l', 'app=web', '--no-headers'])).stdout.split('\n').filter((line) => line !== '');
  const deployment = async () => k.json(['deploy', 'web']);
  const revisionOf = async (rs: string) => (await k.json(['rs', rs])).metadata.annotations['deployment.kubernetes.io/revision'];

  it('create deployment makes web (kubectl ≥ 1.32 sends it as protobuf)', async () => {
    const created = await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3']);
    expect(created.stdout).toBe('deployment.apps/web created\n');
    await rolledOut();
  });

  it('get shows the Deployment, its ReplicaSet and three running pods', async () => {
    const rows = tableRows((await k.ok(['get', 'deploy', 'web'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(rows[1]?.slice(0, 4)).toEqual(['web', '3/3', '3', '3']);
    const sets = await replicaSets();
    expect([...sets.values()]).toEqual([['3', '3', '3']]);
    const [rs] = [...sets.keys()];
    expect(rs).toMatch(/^web-[a-z0-9]{6,10}$/);
    const pods = await webPods();
    expect(pods).toHaveLength(3);
    for (const pod of pods) expect(pod).toMatch(new RegExp(`^${rs}-[a-z0-9]{5}\\s+1/1\\s+Running\\s+0\\s+\\d+s$`));
  });

  it('scale changes the number of pods', async () => {
    expect((await k.ok(['scale', 'deployment', 'web', '--replicas=5'])).stdout).toBe('deployment.apps/web scaled\n');
    await rolledOut();
    expect(await webPods()).toHaveLength(5);
    expect(tableRows((await k.ok(['get', 'deploy', 'web'])).stdout)[1]?.slice(0, 4)).toEqual(['web', '5/5', '5', '5']);

    expect((await k.ok(['scale', 'deployment', 'web', '--replicas=3'])).stdout).toBe('deployment.apps/web scaled\n');
    await rolledOut();
    await eventually(async () => expect(await webPods()).toHaveLength(3));
    expect([...(await replicaSets()).values()]).toEqual([['3', '3', '3']]);
  });

  it('set image starts a rollout that rollout status follows to the end', async () => {
    const [oldRs] = [...(await replicaSets()).keys()];
    k.holdReadiness('nginx:1.26');
    expect((await k.ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.26'])).stdout).toBe('deployment.apps/web image updated\n');
    const status = k.watch(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    // maxSurge 25% of 3 rounds up to 1, maxUnavailable rounds down to 0: one new pod, held unready.
    await status.waitFor((lines) => lines.includes('Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...'));
    const during = await replicaSets();
    expect(during.size).toBe(2);
    expect(during.get(oldRs ?? '')).toEqual(['3', '3', '3']);
    const [newRs] = [...during.keys()].filter((name) => name !== oldRs);
    expect(during.get(newRs ?? '')).toEqual(['1', '1', '0']);
    expect(tableRows((await k.ok(['get', 'deploy', 'web'])).stdout)[1]?.slice(0, 4)).toEqual(['web', '3/3', '1', '3']);

    await k.releaseReadiness();
    const done = await status.exited;
    expect(done.code).toBe(0);
    const lines = done.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(ROLLED_OUT);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(PROGRESS);
    expect(lines).toContain('Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...');
    const after = await replicaSets();
    expect(after.get(oldRs ?? '')).toEqual(['0', '0', '0']);
    expect(after.get(newRs ?? '')).toEqual(['3', '3', '3']);
  }, 60_000);

  it('rollout history lists both revisions and shows the template of one', async () => {
    const history = await k.ok(['rollout', 'history', 'deployment/web']);
    expect(history.stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    const newRs = [...(await replicaSets()).entries()].find(([, [desired]]) => desired === '3')?.[0] ?? '';
    const hash = newRs.slice('web-'.length);
    const revision = (await k.ok(['rollout', 'history', 'deployment/web', '--revision=2'])).stdout;
    expect(revision).toMatch(/^deployment\.apps\/web with revision #2\nPod Template:\n/);
    expect(revision).toMatch(new RegExp(`Labels:\\s+app=web\\n\\s+pod-template-hash=${hash}\\n`));
    expect(revision).toMatch(/\n\s+Image:\s+nginx:1\.26\n/);
    const missing = await k.run(['rollout', 'history', 'deployment/web', '--revision=7']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('error: unable to find the specified revision');
  });

  it('rollout undo goes back to the previous template as a new revision', async () => {
    const before = await replicaSets();
    const oldRs = [...before.entries()].find(([, [desired]]) => desired === '0')?.[0] ?? '';
    expect(await revisionOf(oldRs)).toBe('1');
    expect((await k.ok(['rollout', 'undo', 'deployment/web'])).stdout).toBe('deployment.apps/web rolled back\n');
    await rolledOut();
    const web = await deployment();
    expect(web.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    expect(web.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    // Revision 1's ReplicaSet is reused: it becomes revision 3 and holds the pods again.
    expect(await revisionOf(oldRs)).toBe('3');
    expect((await replicaSets()).get(oldRs)).toEqual(['3', '3', '3']);
    const history = await k.ok(['rollout', 'history', 'deployment/web']);
    expect(history.stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');

    const missing = await k.run(['rollout', 'undo', 'deployment/web', '--to-revision=99']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('error: unable to find specified revision 99 in history');
  });

  it('rollout restart rolls the pods out again through a new ReplicaSet', async () => {
    const before = new Set((await replicaSets()).keys());
    expect((await k.ok(['rollout', 'restart', 'deployment/web'])).stdout).toBe('deployment.apps/web restarted\n');
    await rolledOut();
    const web = await deployment();
    expect(web.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(web.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
    const after = await replicaSets();
    const added = [...after.keys()].filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    expect(after.get(added[0] ?? '')).toEqual(['3', '3', '3']);
    expect([...after.values()].filter(([desired]) => desired !== '0')).toHaveLength(1);
    expect(await revisionOf(added[0] ?? '')).toBe('4');
    expect((await k.ok(['rollout', 'history', 'deployment/web'])).stdout).toContain('\n4         <none>\n');
  });

  it('describe shows replicas, the strategy, the new ReplicaSet and the scaling events', async () => {
    const newRs = [...(await replicaSets()).entries()].find(([, [desired]]) => desired === '3')?.[0] ?? '';
    const out = (await k.ok(['describe', 'deployment', 'web'])).stdout;
    expect(out).toMatch(/^Name:\s+web\nNamespace:\s+default\n/);
    expect(out).toContain('\nReplicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable\n');
    expect(out).toContain('\nStrategyType:           RollingUpdate\n');
    expect(out).toContain('\nRollingUpdateStrategy:  25% max unavailable, 25% max surge\n');
    expect(out).toMatch(/\n\s+Available\s+True\s+MinimumReplicasAvailable\n/);
    expect(out).toMatch(/\n\s+Progressing\s+True\s+NewReplicaSetAvailable\n/);
    expect(out).toMatch(new RegExp(`\\nNewReplicaSet:\\s+${newRs} \\(3/3 replicas created\\)\\n`));
    const events = out.slice(out.indexOf('\nEvents:\n'));
    expect(events).toMatch(/\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/);
    expect(events).toMatch(new RegExp(`\\n\\s+Normal\\s+ScalingReplicaSet\\s+\\S+\\s+deployment-controller\\s+Scaled up replica set ${newRs} from 0 to 1\\n`));
    expect(events).toMatch(/\n\s+Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-\w+ from 3 to 5\n/);
    expect(events).toMatch(/\n\s+Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled down replica set web-\w+ from 5 to 3\n/);

    // Each control loop writes events as itself, though one process runs them all.
    const rs = (await k.ok(['describe', 'rs', newRs])).stdout;
    expect(rs).toMatch(new RegExp(`^Name:\\s+${newRs}\\n`));
    expect(rs).toMatch(/\nControlled By:\s+Deployment\/web\n/);
    expect(rs).toMatch(/\nReplicas:\s+3 current \/ 3 desired\n/);
    expect(rs).toMatch(new RegExp(`\\n\\s+Normal\\s+SuccessfulCreate\\s+\\S+\\s+replicaset-controller\\s+Created pod: ${newRs}-[a-z0-9]{5}\\n`));
    const [pod] = (await k.ok(['get', 'pods', '-l', 'app=web', '-o', 'name'])).stdout.split('\n');
    expect((await k.ok(['describe', pod ?? ''])).stdout).toMatch(new RegExp(`\\nControlled By:\\s+ReplicaSet/${newRs}\\n`));
  });

  it('wait --for=condition=Available is met', async () => {
    const waited = await k.ok(['wait', '--for=condition=Available', 'deployment/web', '--timeout=30s'], { timeoutMs: 35_000 });
    expect(waited.stdout).toBe('deployment.apps/web condition met\n');
  });
});
