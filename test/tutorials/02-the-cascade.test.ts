/**
 * docs/tutorials/02-the-cascade.md, run as written: `kubectl scale` sets one number, and the
 * trace shows each link of the chain the loops close — deployment → replicaset → scheduler →
 * kubelet → status back up — then a stopped replicaset loop breaks the chain until it returns.
 */
import { describe, expect, it } from 'vitest';
import { parseTable } from './tables.js';
import { find, one, parseTrace, render, type TraceLine } from './trace-tree.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('02-the-cascade.md');

/** The stdout of the step's command that starts with `prefix` (the last such command). */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix, 'last');

/** Whether `line` is somewhere below `ancestor` in the trace. */
function isBelow(line: TraceLine, ancestor: TraceLine): boolean {
  for (let at = line.parent; at; at = at.parent) if (at === ancestor) return true;
  return false;
}

describe('tutorial 02: the cascade', () => {
  const cluster = useTutorialCluster();

  it('closes the chain loop by loop, and waits for a stopped loop without losing the desired state', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Start a cluster and a Deployment',
      'Scale it',
      'Follow the chain',
      'Did the controller see my change?',
      'Break one link',
      'Break one link',
    ]);
    const [create, scale, trace, generation, breakLink, restart] = steps as [Step, Step, Step, Step, Step, Step];

    expect(parseTable(output(await cluster.run(create), 'kubectl get'))).toEqual([expect.objectContaining({ NAME: 'web', READY: '3/3' })]);

    // Scale it: the Deployment 5/5, its one ReplicaSet 5/5/5.
    const scaled = await cluster.run(scale);
    expect(parseTable(output(scaled, 'kubectl get deployment'))).toEqual([expect.objectContaining({ NAME: 'web', READY: '5/5' })]);
    const [rs] = parseTable(output(scaled, 'kubectl get replicasets'));
    expect(rs).toMatchObject({ NAME: expect.stringMatching(/^web-[a-z0-9]+$/), DESIRED: '5', CURRENT: '5', READY: '5' });
    const replicaSet = rs!['NAME']!;

    // Follow the chain: each link, each under the write that woke its loop.
    const tree = parseTrace(output(await cluster.run(trace), 'npx kubesim trace'));
    const shown = render(tree.root);
    expect(tree.root.text).toBe('kubectl (user) scaled deployment default/web spec.replicas 3→5');
    const setReplicas = one(tree.root, new RegExp(`^deployment controller set replicaset ${replicaSet} spec\\.replicas 3→5\\b`));
    expect(setReplicas.parent).toBe(tree.root);
    const created = find(setReplicas, /^replicaset controller created pod /);
    expect(created, shown).toHaveLength(2);
    const readyReports: TraceLine[] = [];
    for (const line of created) {
      expect(line.parent, shown).toBe(setReplicas);
      const pod = line.text.replace('replicaset controller created pod ', '');
      expect(pod).toMatch(new RegExp(`^${replicaSet}-[a-z0-9]{5}$`));
      const bound = one(line, new RegExp(`^scheduler bound pod ${pod} to node-\\d$`));
      const node = /to (node-\d)$/.exec(bound.text)![1]!;
      readyReports.push(one(bound, new RegExp(`^kubelet ${node} reported pod ${pod} status: Running, Ready$`)));
    }
    // ...and the reports flow back up: the deployment loop updates the Deployment's status
    // because a pod became Ready (through its ReplicaSet's status).
    const statusUpdates = find(tree.root, /^deployment controller reported deployment web status: /);
    expect(
      statusUpdates.some((line) => readyReports.some((ready) => isBelow(line, ready))),
      shown,
    ).toBe(true);
    expect(tree.verdict).toBe('converged: 5/5 ready');

    // generation and observedGeneration: 2 2.
    expect((await cluster.run(generation))[0]!.stdout).toBe('2 2\n');

    // Break one link: the ReplicaSet wants 6 but has 5; the chain stops at the deployment loop.
    const broken = await cluster.run(breakLink);
    expect(parseTable(output(broken, 'kubectl get replicasets'))).toEqual([
      expect.objectContaining({ NAME: replicaSet, DESIRED: '6', CURRENT: '5', READY: '5' }),
    ]);
    const stalled = parseTrace(output(broken, 'npx kubesim trace'));
    expect(stalled.root.text).toBe('kubectl (user) scaled deployment default/web spec.replicas 5→6');
    one(stalled.root, new RegExp(`^deployment controller set replicaset ${replicaSet} spec\\.replicas 5→6\\b`));
    const loops = stalled.lines.slice(1).map((line) => line.text.split(' ')[0]);
    expect(new Set(loops), render(stalled.root)).toEqual(new Set(['deployment']));
    expect(stalled.verdict).toBe('not converged yet: 5/6 ready');

    // The loop returns and closes the gap.
    expect(parseTable(output(await cluster.run(restart), 'kubectl get'))).toEqual([expect.objectContaining({ NAME: 'web', READY: '6/6' })]);
  }, 90_000);
});
