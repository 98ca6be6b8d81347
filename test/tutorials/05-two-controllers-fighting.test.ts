/**
 * docs/tutorials/05-two-controllers-fighting.md, run as written on a ×20 clock: a client-side
 * re-apply of docs/examples/hpa.yaml and the HPA take turns on spec.replicas (the history shows
 * the two actors alternating); dropping replicas from the manifest and applying server-side
 * leaves the field to the HPA, and the old file is refused with a conflict.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { parseTable } from './tables.js';
import { find, one, parseTrace, render } from './trace-tree.js';
import { type CommandResult, commandOutput, commandResult, type Step, TUTORIALS_DIR, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('05-two-controllers-fighting.md');
const MANIFEST = 'docs/examples/hpa.yaml';

/** The result of the step's command that starts with `prefix` (the last one, if several do). */
const result = (results: CommandResult[], prefix: string): CommandResult => commandResult(results, prefix, 'last');

const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix, 'last');

/** The lines of every command of the step printing `<replicas> <manager of spec.replicas>`. */
function owners(results: CommandResult[]): string[] {
  return results.filter((r) => r.command.includes('f:replicas)].manager')).map((r) => r.stdout.trim());
}

interface HistoryItem {
  revision: number;
  actor?: { fieldManager?: string; controller?: string };
  diff: Array<{ path: string; old?: unknown; new?: unknown }>;
}

describe('tutorial 05: two controllers fighting', () => {
  const cluster = useTutorialCluster(['--speed', '20']);
  beforeAll(() => {
    // The page is followed from the repository root, where the manifest is.
    const dir = dirname(cluster.kubeconfig);
    mkdirSync(join(dir, 'docs/examples'), { recursive: true });
    copyFileSync(resolve(TUTORIALS_DIR, '..', 'examples/hpa.yaml'), join(dir, MANIFEST));
  });

  /** Every change of the Deployment's spec.replicas, as `who old→new`. */
  async function replicaChanges(): Promise<string[]> {
    const history = await cluster.sh(`kubectl get --raw "/apis/kubesim.io/v1alpha1/history?resource=deployments&namespace=production&name=web-frontend"`);
    const items = (JSON.parse(history.stdout) as { items: HistoryItem[] }).items;
    return items.flatMap((item) =>
      item.diff
        .filter((d) => d.path === 'spec.replicas')
        .map((d) => `${item.actor?.controller ?? item.actor?.fieldManager ?? '?'} ${String(d.old)}→${String(d.new)}`),
    );
  }

  it('shows the flapping in the history and ends it with server-side apply ownership', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'A manifest with replicas, and an HPA',
      'Load makes the HPA scale up',
      'Re-apply the manifest',
      'Re-apply the manifest',
      'Flapping',
      'The fix: one owner for spec.replicas',
      'Re-apply as often as you like',
      'Clean up',
    ]);
    const [apply, load, reapply, resume, flapping, fix, again, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step, Step];

    const applied = await cluster.run(apply);
    expect(output(applied, 'kubectl apply').trim().split('\n')).toEqual([
      'namespace/production created',
      'deployment.apps/web-frontend created',
      'horizontalpodautoscaler.autoscaling/web-frontend-hpa created',
    ]);

    // 780m on three pods → the HPA scales to 6 and owns spec.replicas; at six pods about 66%.
    const loaded = await cluster.run(load);
    expect(output(loaded, 'npx kubesim load')).toMatch(/load set to cpu 780m \(spread over 3 ready pods\)/);
    expect(owners(loaded)).toEqual(['6 kubesim-hpa-controller']);
    await eventually(
      async () => {
        const hpa = JSON.parse((await cluster.sh('kubectl get hpa web-frontend-hpa -n production -o json')).stdout);
        expect(hpa.status.currentReplicas).toBe(6);
        const utilization = hpa.status.currentMetrics[0].resource.current.averageUtilization as number;
        expect(utilization).toBeGreaterThanOrEqual(63);
        expect(utilization).toBeLessThanOrEqual(70);
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );

    // Paused, re-applied: 3 owned by kubectl-client-side-apply, three of six pods Terminating.
    const reapplied = await cluster.run(reapply);
    expect(output(reapplied, 'npx kubesim clock pause')).toMatch(/state\s+paused/);
    expect(output(reapplied, 'kubectl apply')).toContain('deployment.apps/web-frontend configured');
    expect(owners(reapplied)).toEqual(['3 kubectl-client-side-apply']);
    const pods = parseTable(output(reapplied, 'kubectl get pods'));
    expect(pods).toHaveLength(6);
    expect(pods.filter((p) => p['STATUS'] === 'Terminating')).toHaveLength(3);
    expect(pods.filter((p) => p['STATUS'] === 'Running')).toHaveLength(3);

    // Resumed: the HPA writes 6 again and owns the field again.
    expect(owners(await cluster.run(resume))).toEqual(['6 kubesim-hpa-controller']);

    // Flapping: the trace of the latest apply kills three pods; the events count the swings.
    const flapped = await cluster.run(flapping);
    const trace = parseTrace(output(flapped, 'npx kubesim trace'));
    expect(trace.root.text).toBe('kubectl (user) scaled deployment production/web-frontend spec.replicas 6→3');
    const scaledDown = one(trace.root, /^deployment controller set replicaset web-frontend-[a-z0-9]+ spec\.replicas 6→3/);
    const marked = find(scaledDown, /^replicaset controller marked pod web-frontend-[a-z0-9]+-[a-z0-9]{5} for deletion$/);
    expect(marked, render(trace.root)).toHaveLength(3);
    for (const line of marked) expect(find(line, /^kubelet node-\d deleted pod /), render(trace.root)).toHaveLength(1);
    const events = parseTable(output(flapped, 'kubectl get events'));
    // The swings summed by message: the count of one Event, or (seen under heavy load) of several
    // Events the recorder did not merge.
    const swings = new Map<string, number>();
    for (const e of events) {
      const message = e['MESSAGE']!.replace(/web-frontend-[a-z0-9]+/, 'RS');
      swings.set(message, (swings.get(message) ?? 0) + Number(e['COUNT']));
    }
    expect(Object.fromEntries(swings)).toEqual({
      'Scaled up replica set RS from 0 to 3': 1,
      'Scaled down replica set RS from 6 to 3': 2,
      'Scaled up replica set RS from 3 to 6': 3,
    });
    const fight = ['hpa 3→6', 'kubectl-client-side-apply 6→3', 'hpa 3→6', 'kubectl-client-side-apply 6→3', 'hpa 3→6'];
    expect(await replicaChanges()).toEqual(fight);

    // The fix: the HPA still owns it; server-side apply without replicas keeps 6; the
    // client-side manager is gone.
    const fixed = await cluster.run(fix);
    expect(owners(fixed)).toEqual(['6 kubesim-hpa-controller', '6 kubesim-hpa-controller']);
    expect(output(fixed, 'kubectl apply').trim().split('\n')).toEqual([
      'namespace/production serverside-applied',
      'deployment.apps/web-frontend serverside-applied',
      'horizontalpodautoscaler.autoscaling/web-frontend-hpa serverside-applied',
    ]);
    const managers = output(fixed, "kubectl get deployment web-frontend -n production -o jsonpath='{range").trim().split('\n');
    expect(managers).toEqual(expect.arrayContaining(['kubectl Apply', 'kubectl-last-applied Apply', 'kubesim-hpa-controller Update']));
    expect(managers.some((m) => m.startsWith('kubectl-client-side-apply'))).toBe(false);

    // Re-applied with the clock stopped: still 6, the HPA's; the old file is refused with a conflict.
    const reappliedAgain = await cluster.run(again);
    expect(owners(reappliedAgain)).toEqual(['6 kubesim-hpa-controller']);
    const refused = result(reappliedAgain, 'kubectl apply --server-side -f docs/examples/hpa.yaml');
    expect(refused.stdout).toContain('refused: spec.replicas belongs to the HPA');
    expect(refused.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubesim-hpa-controller" with subresource "scale" using apps/v1: .spec.replicas',
    );
    expect(await replicaChanges()).toEqual(fight);

    expect(output(await cluster.run(cleanup), 'kubectl delete').trim()).toBe('namespace "production" deleted');
  }, 90_000);
});
