/**
 * docs/tutorials/01-the-loop.md, run as written: delete a pod of a Deployment, and the trace
 * and the history name the replicaset loop and the event that woke it.
 */
import { describe, expect, it } from 'vitest';
import { parseTable, parseTables } from './tables.js';
import { find, one, parseTrace, render } from './trace-tree.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('01-the-loop.md');

/** The stdout of the step's command that starts with `prefix`. */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

describe('tutorial 01: the loop', () => {
  const cluster = useTutorialCluster();

  it('replaces a deleted pod, and the trace and history say the replicaset loop did it', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Ask for three pods',
      'Ask for three pods',
      'Pick a victim',
      'Delete it',
      'Who did it, and why',
      'Who did it, and why',
      'Clean up: the garbage collector is a loop too',
    ]);
    const [create, owners, pick, remove, trace, history, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step];

    // Ask for three pods: one Deployment 3/3, one ReplicaSet 3/3/3, three pods 1/1 Running.
    const [deployments, replicaSets, pods] = parseTables(output(await cluster.run(create), 'kubectl get'));
    expect(deployments).toEqual([expect.objectContaining({ NAME: 'deployment.apps/web', READY: '3/3' })]);
    expect(replicaSets).toEqual([
      expect.objectContaining({ NAME: expect.stringMatching(/^replicaset\.apps\/web-[a-z0-9]+$/), DESIRED: '3', CURRENT: '3', READY: '3' }),
    ]);
    const replicaSet = replicaSets![0]!['NAME']!.replace('replicaset.apps/', '');
    expect(pods).toHaveLength(3);
    for (const pod of pods!)
      expect(pod).toMatchObject({ NAME: expect.stringMatching(new RegExp(`^pod/${replicaSet}-[a-z0-9]{5}$`)), READY: '1/1', STATUS: 'Running' });

    // Every pod is owned by the ReplicaSet, the ReplicaSet by the Deployment web.
    const ownerResults = await cluster.run(owners);
    const podOwners = parseTable(ownerResults[0]!.stdout);
    expect(podOwners).toHaveLength(3);
    for (const row of podOwners) expect(row).toMatchObject({ OWNER: 'ReplicaSet', NAME: replicaSet });
    expect(parseTable(ownerResults[1]!.stdout)).toEqual([{ REPLICASET: replicaSet, OWNER: 'Deployment', NAME: 'web' }]);

    // Pick a victim: `victim` holds one pod's name.
    const victimRef = output(await cluster.run(pick), 'head').trim();
    expect(victimRef).toMatch(new RegExp(`^pod/${replicaSet}-[a-z0-9]{5}$`));
    const victim = victimRef.replace('pod/', '');

    // Delete it: three pods again, all 1/1 Running, the victim gone.
    const after = parseTable(output(await cluster.run(remove), 'kubectl get'));
    expect(after).toHaveLength(3);
    expect(after.map((row) => row['NAME'])).not.toContain(victim);
    for (const pod of after) expect(pod).toMatchObject({ NAME: expect.stringMatching(new RegExp(`^${replicaSet}-`)), READY: '1/1', STATUS: 'Running' });
    const newcomer = after.map((row) => row['NAME']!).find((name) => !pods!.some((p) => p['NAME'] === `pod/${name}`))!;

    // The trace: your delete marked it; the replicaset loop created the newcomer, the scheduler
    // bound it, the kubelet reported it Running and Ready; the old pod's kubelet deleted it.
    const tree = parseTrace(output(await cluster.run(trace), 'npx kubesim trace'));
    expect(tree.root.text).toBe(`kubectl (user) marked pod default/${victim} for deletion`);
    const created = one(tree.root, new RegExp(`^replicaset controller created pod ${newcomer}$`));
    expect(created.parent, render(tree.root)).toBe(tree.root);
    const bound = one(created, new RegExp(`^scheduler bound pod ${newcomer} to node-\\d$`));
    const node = /to (node-\d)$/.exec(bound.text)![1]!;
    expect(find(bound, new RegExp(`^kubelet ${node} reported pod ${newcomer} status: Running, Ready$`)), render(tree.root)).toHaveLength(1);
    one(tree.root, new RegExp(`^kubelet node-\\d deleted pod ${victim}$`));
    expect(tree.verdict).toBe('converged: deleted');

    // The history: the newcomer was ADDED by the replicaset loop reconciling its ReplicaSet,
    // queued by the MODIFIED event of the victim at the revision of your delete.
    const historyResults = await cluster.run(history);
    expect(historyResults[0]!.stdout.trim()).toBe(`pod/${newcomer}`);
    const entry = JSON.parse(historyResults[1]!.stdout).items[0];
    expect(entry).toMatchObject({
      type: 'ADDED',
      name: newcomer,
      actor: {
        userAgent: expect.stringMatching(/^kubesim-replicaset-controller\//),
        controller: 'replicaset',
        key: `default/${replicaSet}`,
        trigger: { kind: 'event', type: 'MODIFIED', object: { kind: 'Pod', name: victim } },
      },
    });
    const marked = await cluster.sh(`kubectl get --raw "/apis/kubesim.io/v1alpha1/history?resource=pods&namespace=default&name=${victim}"`);
    const deletion = JSON.parse(marked.stdout).items.find((item: { revision: number }) => String(item.revision) === entry.actor.trigger.object.resourceVersion);
    expect(deletion, marked.stdout).toMatchObject({ type: 'MODIFIED', actor: { userAgent: expect.stringMatching(/^kubectl\//) } });
    expect(deletion.actor.controller).toBeUndefined();
    expect(deletion.diff.map((d: { path: string }) => d.path)).toContain('metadata.deletionTimestamp');

    // Clean up: the garbage collector deletes the ReplicaSet, then marks each pod; nothing is left.
    const cleanupResults = await cluster.run(cleanup);
    const gc = parseTrace(output(cleanupResults, 'npx kubesim trace'));
    expect(gc.root.text).toBe('kubectl (user) deleted deployment default/web');
    const rsDeleted = one(gc.root, new RegExp(`^garbage-collector controller deleted replicaset ${replicaSet}$`));
    const podsMarked = find(rsDeleted, /^garbage-collector controller marked pod \S+ for deletion$/);
    expect(podsMarked, render(gc.root)).toHaveLength(3);
    for (const line of podsMarked) expect(find(line, /^kubelet node-\d deleted pod /), render(gc.root)).toHaveLength(1);
    expect(gc.verdict).toBe('converged: deleted');
    const leftovers = cleanupResults.find((r) => r.command.startsWith('kubectl get'))!;
    expect(leftovers.stdout).toBe('');
    expect(leftovers.stderr.trim()).toBe('No resources found in default namespace.');
  }, 90_000);
});
