/**
 * docs/tutorials/04-level-triggered-recovery.md, run as written: with the replicaset loop
 * stopped, a scale and a delete change nothing but the ReplicaSet's spec; started again, the
 * loop converges in one reconcile from what it lists; killed, it is restarted and does the same.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { parseTable, parseTables, type Row } from './tables.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('04-level-triggered-recovery.md');

/** The stdout of the step's command that starts with `prefix`. */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

/** `kubesim status` as component → state (a line is a name, spaces, the state; a long name
 * can overrun the column, so it is read by words rather than by column). */
function loopStates(status: string): Map<string, string> {
  const rows = status.trim().split('\n').slice(1);
  return new Map(rows.map((line) => /^(\S+)\s+(.*)$/.exec(line.trim())!.slice(1, 3) as [string, string]));
}

/** The state of the replicaset loop in `kubesim status` output. */
function replicasetState(status: string): string {
  const state = loopStates(status).get('replicaset');
  if (!state) throw new Error(`no replicaset row in:\n${status}`);
  return state;
}

function expectRunningPods(pods: Row[], count: number): void {
  const table = JSON.stringify(pods, null, 1);
  expect(pods, table).toHaveLength(count);
  for (const pod of pods) expect(pod, table).toMatchObject({ NAME: expect.stringMatching(/^web-[a-z0-9]+-[a-z0-9]{5}$/), READY: '1/1', STATUS: 'Running' });
}

describe('tutorial 04: level-triggered recovery', () => {
  const cluster = useTutorialCluster();

  it('converges from the current state after a stop and after a kill', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Three pods, one ReplicaSet',
      'Stop the ReplicaSet controller',
      'Change things behind its back',
      'Start it again',
      'Start it again',
      'Variant: kill it instead',
      'Variant: kill it instead',
      'Variant: kill it instead',
      'Clean up',
    ]);
    const [create, stop, change, start, log, kill, status, converge, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step, Step, Step];

    // One ReplicaSet web-<hash>, 3/3/3.
    const created = parseTable(output(await cluster.run(create), 'kubectl get'));
    expect(created).toEqual([expect.objectContaining({ NAME: expect.stringMatching(/^web-[a-z0-9]+$/), DESIRED: '3', CURRENT: '3', READY: '3' })]);
    const replicaSet = created[0]!['NAME']!;

    // `replicaset   stopped`, every other loop running.
    const stopped = output(await cluster.run(stop), 'npx kubesim status');
    expect(replicasetState(stopped)).toBe('stopped');
    for (const [loop, state] of loopStates(stopped)) if (loop !== 'replicaset') expect(state, loop).toMatch(/^running/);

    // settle returns; Deployment 3/5, ReplicaSet DESIRED 5 but CURRENT 3 READY 3 (stale), two pods.
    const changed = await cluster.run(change);
    expect(output(changed, 'npx kubesim settle')).toMatch(/^settled in \d+ ms/);
    const [deployments, replicaSets, pods] = parseTables(output(changed, 'kubectl get'));
    expect(deployments).toEqual([expect.objectContaining({ NAME: 'deployment.apps/web', READY: '3/5' })]);
    expect(replicaSets).toEqual([expect.objectContaining({ NAME: `replicaset.apps/${replicaSet}`, DESIRED: '5', CURRENT: '3', READY: '3' })]);
    expect(pods).toHaveLength(2);
    const survivors = pods!.map((p) => p['NAME']!.replace('pod/', ''));

    // Started again: 5/5/5 and five pods Running, the two survivors among them.
    const started = await cluster.run(start);
    expect(parseTable(output(started, 'kubectl get replicasets'))).toEqual([
      expect.objectContaining({ NAME: replicaSet, DESIRED: '5', CURRENT: '5', READY: '5' }),
    ]);
    const afterStart = parseTable(output(started, 'kubectl get pods'));
    expectRunningPods(afterStart, 5);
    expect(afterStart.map((p) => p['NAME'])).toEqual(expect.arrayContaining(survivors));

    // One reconcile decided it all: need 5, creating 3, for this ReplicaSet.
    const line = JSON.parse(output(await cluster.run(log), 'grep')) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'Too few replicas', key: `default/${replicaSet}`, need: 5, creating: 3 });
    const decisions = await cluster.sh(`grep -c 'Too few replicas' "$(dirname "$KUBECONFIG")/logs/replicaset.log"`);
    expect(decisions.stdout.trim()).toBe('2'); // the first three pods, then this one

    // Killed: SIGKILL, and all five pods marked for deletion.
    const killed = await cluster.run(kill);
    expect(output(killed, 'npx kubesim chaos')).toMatch(/^killed replicaset \(pid \d+\) with SIGKILL/);
    expect(output(killed, 'kubectl delete').trim().split('\n')).toHaveLength(5);

    // "Give it a second": the supervisor's restart is on wall time.
    const restarted = await eventually(
      async () => {
        const state = replicasetState(output(await cluster.run(status), 'npx kubesim status'));
        expect(state).toMatch(/^running \(pid \d+\), 1 restart, metrics http:\/\/127\.0\.0\.1:\d+\/metrics$/);
        return state;
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    const pidBefore = /\(pid (\d+)\)/.exec(output(started, 'npx kubesim start'))?.[1];
    expect(pidBefore).toBeDefined();
    expect(restarted).not.toContain(`(pid ${pidBefore})`);

    // Five pods again, all new, all Running; the ReplicaSet 5/5/5.
    const converged = await cluster.run(converge);
    expect(parseTable(output(converged, 'kubectl get replicasets'))).toEqual([
      expect.objectContaining({ NAME: replicaSet, DESIRED: '5', CURRENT: '5', READY: '5' }),
    ]);
    const afterKill = parseTable(output(converged, 'kubectl get pods'));
    expectRunningPods(afterKill, 5);
    for (const pod of afterKill) expect(afterStart.map((p) => p['NAME'])).not.toContain(pod['NAME']);

    await cluster.run(cleanup);
  }, 90_000);
});
