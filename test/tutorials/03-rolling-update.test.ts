/**
 * docs/tutorials/03-rolling-update.md, run as written on `kubesim up --speed 10`: a rolling
 * update completes; a release whose pods never get Ready stalls, and `kubectl rollout status`
 * fails with ProgressDeadlineExceeded; `kubectl rollout undo` converges back.
 */
import { describe, expect, it } from 'vitest';
import { parseTable, type Row } from './tables.js';
import { find, one, parseTrace, render } from './trace-tree.js';
import { type CommandResult, commandResult, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('03-rolling-update.md');

/** The result of the step's command that starts with `prefix` (the first such command). */
const result = (results: CommandResult[], prefix: string): CommandResult => commandResult(results, prefix);

/** The result of the step's command that is exactly `command`. */
function exactly(results: CommandResult[], command: string): CommandResult {
  return result(
    results.filter((r) => r.command === command),
    command,
  );
}

/** The ReplicaSets of `kubectl get replicasets -o wide`, by image. */
function byImage(rows: Row[]): Record<string, Row> {
  return Object.fromEntries(rows.map((row) => [row['IMAGES']!, row]));
}

const CONDITIONS = "kubectl get deployment web -o jsonpath='{range .status.conditions[*]}";

describe('tutorial 03: a rolling update', () => {
  const cluster = useTutorialCluster(['--speed', '10']);

  it('rolls out, stalls at the progress deadline, and rolls back', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Start a fast cluster',
      'Roll out a new version',
      'Roll out a new version',
      'A release that never becomes Ready',
      'A release that never becomes Ready',
      'A release that never becomes Ready',
      'Undo',
      'Undo',
    ]);
    const [create, rollout, describeStep, breakIt, waitForIt, look, undo, trace] = steps as [Step, Step, Step, Step, Step, Step, Step, Step];

    expect(parseTable(result(await cluster.run(create), 'kubectl get').stdout)).toEqual([expect.objectContaining({ NAME: 'web', READY: '4/4' })]);

    // Roll out a new version: success; the new ReplicaSet 4/4/4, the old one kept at 0.
    const rolled = await cluster.run(rollout);
    const status = result(rolled, 'kubectl rollout status').stdout;
    expect(status).toMatch(/^Waiting for deployment "web" rollout to finish: /m);
    expect(status.trimEnd().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    const afterRollout = byImage(parseTable(result(rolled, 'kubectl get replicasets').stdout));
    expect(Object.keys(afterRollout).sort()).toEqual(['nginx:1.27', 'nginx:1.28']);
    expect(afterRollout['nginx:1.28']).toMatchObject({ DESIRED: '4', CURRENT: '4', READY: '4' });
    expect(afterRollout['nginx:1.27']).toMatchObject({ DESIRED: '0', CURRENT: '0', READY: '0' });
    const v127 = afterRollout['nginx:1.27']!['NAME']!;
    const v128 = afterRollout['nginx:1.28']!['NAME']!;

    // The events: the new ReplicaSet scaled up from 0 to 1 first (maxSurge), the old one down
    // from 4 by one or two (maxUnavailable, plus a new pod already Ready); in the end the new one is at 4 and the old one at 0. (Steps in between depend on
    // which pods got Ready together.)
    const described = (await cluster.run(describeStep))[0]!.stdout;
    const scalings = [...described.matchAll(/Scaled (?:up|down) replica set \S+ from \d+ to \d+/g)].map((m) => m[0]);
    const of = (rs: string) => scalings.filter((line) => line.includes(` ${rs} `));
    expect(of(v128)[0], described).toBe(`Scaled up replica set ${v128} from 0 to 1`);
    expect(of(v128).at(-1), described).toMatch(new RegExp(`^Scaled up replica set ${v128} from [123] to 4$`));
    expect(
      of(v127).find((line) => line.startsWith('Scaled down')),
      described,
    ).toMatch(new RegExp(`^Scaled down replica set ${v127} from 4 to [23]$`));
    expect(of(v127).at(-1), described).toMatch(new RegExp(`^Scaled down replica set ${v127} from [123] to 0$`));
    expect(described).toMatch(/RollingUpdateStrategy:\s+25% max unavailable, 25% max surge/);

    // A release that never becomes Ready: rollout status fails at the progress deadline.
    await cluster.run(breakIt);
    expect(waitForIt.commands).toEqual(['kubectl rollout status deployment/web']);
    const stalled = await cluster.sh(waitForIt.commands[0]!);
    expect(stalled.code, stalled.stderr).toBe(1);
    expect(stalled.stdout).toContain('Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...');
    expect(stalled.stderr.trim()).toBe('error: deployment "web" exceeded its progress deadline');

    const looked = await cluster.run(look);
    const stuck = byImage(parseTable(result(looked, 'kubectl get replicasets').stdout));
    expect(stuck['nginx:1.29']).toMatchObject({ DESIRED: '2', CURRENT: '2', READY: '0' });
    expect(stuck['nginx:1.28']).toMatchObject({ NAME: v128, DESIRED: '3', CURRENT: '3', READY: '3' });
    expect(stuck['nginx:1.27']).toMatchObject({ DESIRED: '0' });
    const v129 = stuck['nginx:1.29']!['NAME']!;
    expect(parseTable(exactly(looked, 'kubectl get deployment web').stdout)).toEqual([expect.objectContaining({ NAME: 'web', READY: '3/4' })]);
    expect(result(looked, CONDITIONS).stdout).toBe('Available True MinimumReplicasAvailable\nProgressing False ProgressDeadlineExceeded\n');
    // ...and the new pods run but are not ready.
    const pods = parseTable((await cluster.sh(`kubectl get pods -l pod-template-hash=${v129.replace('web-', '')}`)).stdout);
    expect(pods).toHaveLength(2);
    for (const pod of pods) expect(pod).toMatchObject({ READY: '0/1', STATUS: 'Running' });

    // Undo: back to nginx:1.28, which keeps its ReplicaSet and gets revision 4.
    const undone = await cluster.run(undo);
    expect(result(undone, 'kubectl rollout undo').stdout.trim()).toBe('deployment.apps/web rolled back');
    expect(result(undone, 'kubectl rollout status').stdout.trimEnd().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    const back = byImage(parseTable(result(undone, 'kubectl get replicasets').stdout));
    expect(back['nginx:1.28']).toMatchObject({ NAME: v128, DESIRED: '4', CURRENT: '4', READY: '4' });
    expect(back['nginx:1.29']).toMatchObject({ NAME: v129, DESIRED: '0', CURRENT: '0', READY: '0' });
    expect(Object.keys(back)).toHaveLength(3);
    expect(result(undone, CONDITIONS).stdout).toBe('Available True MinimumReplicasAvailable\nProgressing True NewReplicaSetAvailable\n');
    const revisions = parseTable(result(undone, 'kubectl rollout history').stdout.replace(/^deployment\.apps\/web\s*\n/, ''));
    expect(revisions.map((row) => row['REVISION'])).toEqual(['1', '3', '4']);

    // The undo is an ordinary write of the template, and the loops converge on it.
    const tree = parseTrace((await cluster.run(trace))[0]!.stdout);
    const shown = render(tree.root);
    expect(tree.root.text).toMatch(/^kubectl \(user\) set deployment default\/web spec\.template/);
    one(tree.root, new RegExp(`^deployment controller set replicaset ${v129} spec\\.replicas 2→0$`));
    one(tree.root, new RegExp(`^deployment controller set replicaset ${v128} spec\\.replicas 3→4$`));
    expect(find(tree.root, new RegExp(`^replicaset controller marked pod ${v129}-[a-z0-9]{5} for deletion$`)), shown).toHaveLength(2);
    expect(find(tree.root, new RegExp(`^replicaset controller created pod ${v128}-[a-z0-9]{5}$`)), shown).toHaveLength(1);
    expect(tree.verdict).toBe('converged: 4/4 ready');
  }, 90_000);
});
