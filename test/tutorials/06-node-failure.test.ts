/**
 * docs/tutorials/06-node-failure.md, run as written on a ×20 clock: a silenced node turns
 * Unknown and tainted after the grace period, its pods turn not Ready and are evicted after
 * their 300 s toleration and replaced on the other nodes; back, it is untainted and new pods use it.
 */
import { describe, expect, it } from 'vitest';
import { parseTable, type Row } from './tables.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('06-node-failure.md');

/** The stdout of the step's command that starts with `prefix`. */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

/** parseWide reads `kubectl get pods -o wide`: its two-word headers (NOMINATED NODE, READINESS
 * GATES) are joined first so that NODE is the node's column. */
function parseWide(output: string): Row[] {
  return parseTable(output.replace('NOMINATED NODE', 'NOMINATED_NODE').replace('READINESS GATES', 'READINESS_GATES'));
}

/** Pod names by node, from `kubectl get pods -o wide`. */
function podsByNode(pods: Row[]): Record<string, string[]> {
  const byNode: Record<string, string[]> = {};
  for (const pod of pods) (byNode[pod['NODE']!] ??= []).push(pod['NAME']!);
  return byNode;
}

interface NodeCondition {
  type: string;
  status: string;
  message?: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

const UNREACHABLE = 'node.kubernetes.io/unreachable:NoSchedule,node.kubernetes.io/unreachable:NoExecute';

describe('tutorial 06: node failure', () => {
  const cluster = useTutorialCluster(['--speed', '20']);

  it('evicts the pods of a silent node, replaces them elsewhere, and untaints it when it is back', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Six pods on three nodes',
      'Silence node-2',
      'Freeze time and look around',
      'Eviction, and replacements',
      'Bring node-2 back',
      'Bring node-2 back',
      'Clean up',
    ]);
    const [create, silence, freeze, evict, back, scale, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step];

    // Six pods 1/1 Running, spread over the three nodes (two each, as the page's arithmetic has it).
    const first = parseWide(output(await cluster.run(create), 'kubectl get'));
    expect(first).toHaveLength(6);
    for (const pod of first) expect(pod).toMatchObject({ READY: '1/1', STATUS: 'Running' });
    const placed = podsByNode(first);
    expect(Object.keys(placed).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const names of Object.values(placed)) expect(names).toHaveLength(2);
    const onNode2 = placed['node-2']!;

    // Silence node-2: Unknown after the 40 s grace period, tainted unreachable NoSchedule + NoExecute.
    const silenced = await cluster.run(silence);
    expect(output(silenced, 'npx kubesim node stop')).toMatch(/^node\/node-2 stopped/);
    expect(output(silenced, 'kubectl wait').trim()).toBe('node/node-2 condition met');
    const nodes = parseTable(output(silenced, 'npx kubesim node list'));
    expect(nodes.map((n) => [n['NAME'], n['STATUS'], n['TAINTS']])).toEqual([
      ['node-1', 'Ready', '<none>'],
      ['node-2', 'NotReady', UNREACHABLE],
      ['node-3', 'Ready', '<none>'],
    ]);
    const node = JSON.parse((await cluster.sh('kubectl get node node-2 -o json')).stdout) as { status: { conditions: NodeCondition[] } };
    for (const condition of node.status.conditions) expect(condition).toMatchObject({ status: 'Unknown', message: 'Kubelet stopped posting node status.' });
    const ready = node.status.conditions.find((c) => c.type === 'Ready')!;
    expect(Date.parse(ready.lastTransitionTime) - Date.parse(ready.lastHeartbeatTime)).toBeGreaterThanOrEqual(40_000);

    // Frozen: every pod still 1/1 Running where it was; the Deployment 4/6 ready; node-2's pods
    // Ready=False, each tolerating unreachable for 300 s.
    const frozen = await cluster.run(freeze);
    expect(output(frozen, 'npx kubesim clock pause')).toMatch(/state\s+paused/);
    const inBetween = parseWide(output(frozen, 'kubectl get pods -l app=web -o wide'));
    expect(inBetween.map((p) => [p['NAME'], p['NODE'], p['READY'], p['STATUS']])).toEqual(first.map((p) => [p['NAME'], p['NODE'], '1/1', 'Running']));
    expect(parseTable(output(frozen, 'kubectl get deployment'))).toEqual([expect.objectContaining({ NAME: 'web', READY: '4/6' })]);
    const readiness = output(frozen, 'kubectl get pods -l app=web --field-selector').trim().split('\n').sort();
    expect(readiness).toEqual(onNode2.map((name) => `${name} Ready=False, tolerates unreachable for 300s`).sort());

    // Resumed: node-2's pods evicted and gone; six pods Running on node-1 and node-3; one event each.
    const evicted = await cluster.run(evict);
    expect(output(evicted, 'kubectl wait').trim().split('\n').sort()).toEqual(onNode2.map((name) => `pod/${name} condition met`).sort());
    const after = parseWide(output(evicted, 'kubectl get pods'));
    expect(after).toHaveLength(6);
    for (const pod of after) expect(pod).toMatchObject({ READY: '1/1', STATUS: 'Running', NODE: expect.stringMatching(/^node-[13]$/) });
    const replacements = after.map((p) => p['NAME']!).filter((name) => !first.some((p) => p['NAME'] === name));
    expect(replacements).toHaveLength(2);
    const events = parseTable(output(evicted, 'kubectl get events'));
    expect(events.map((e) => [e['REASON'], e['MESSAGE']]).sort()).toEqual(
      onNode2.map((name) => ['TaintManagerEviction', `Marking for deletion Pod default/${name}`]).sort(),
    );

    // Back: node-2 Ready and untainted; the pods stay where they are.
    const returned = await cluster.run(back);
    expect(output(returned, 'npx kubesim node start')).toMatch(/^node\/node-2 started/);
    expect(output(returned, 'kubectl wait').trim()).toBe('node/node-2 condition met');
    expect(parseTable(output(returned, 'npx kubesim node list')).map((n) => [n['NAME'], n['STATUS'], n['TAINTS']])).toEqual([
      ['node-1', 'Ready', '<none>'],
      ['node-2', 'Ready', '<none>'],
      ['node-3', 'Ready', '<none>'],
    ]);
    expect(parseWide(output(returned, 'kubectl get pods')).map((p) => [p['NAME'], p['NODE']])).toEqual(after.map((p) => [p['NAME'], p['NODE']]));

    // Scaled to 9: the three new pods all land on node-2.
    const onNode2Again = parseWide(output(await cluster.run(scale), 'kubectl get pods'));
    expect(onNode2Again).toHaveLength(3);
    for (const pod of onNode2Again) {
      expect(pod).toMatchObject({ READY: '1/1', STATUS: 'Running', NODE: 'node-2' });
      expect(after.map((p) => p['NAME'])).not.toContain(pod['NAME']);
    }

    await cluster.run(cleanup);
  }, 90_000);
});
