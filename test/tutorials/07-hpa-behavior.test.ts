/**
 * docs/tutorials/07-hpa-behavior.md, run as written on a cluster whose clock runs ×20: the HPA
 * scales 3 → 6 within a sync or two of the load, holds 6 through the 300 s scale-down
 * stabilization window, then steps down one pod per 60 s to its minimum. The timings come from
 * the Deployment's history in cluster time, which is what `kubesim watch deployment/web` prints
 * in the page's second terminal.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { parseTable } from './tables.js';
import { type CommandResult, commandOutput, onlyCommands, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('07-hpa-behavior.md');
const SPEED = 20;

/** The stdout of the step's command that starts with `prefix`. */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

/** The CPU percentage in a TARGETS cell such as `cpu: 68%/70%`. */
function cpuPercent(targets: string | undefined): number {
  const match = /^cpu: (\d+)%\/70%$/.exec(targets ?? '');
  if (!match) throw new Error(`TARGETS is ${JSON.stringify(targets)}`);
  return Number(match[1]);
}

describe('tutorial 07: HPA behavior', () => {
  const cluster = useTutorialCluster(['--speed', String(SPEED)]);

  /** Runs a one-command step until `check` passes on its table (time-driven: HPA syncs, scrapes). */
  const untilTable = (step: Step, check: (rows: ReturnType<typeof parseTable>) => void, timeoutMs = 20_000) =>
    eventually(async () => check(parseTable(output(await cluster.run(step), 'kubectl get hpa'))), { timeoutMs, intervalMs: 250 });

  it('scales up at once, holds through the stabilization window, then steps down one pod a minute', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'A Deployment with CPU requests, and an HPA',
      'A Deployment with CPU requests, and an HPA',
      'A Deployment with CPU requests, and an HPA',
      'Load it: up at once',
      'Take the load away: nothing happens, on purpose',
      'After the window, one pod a minute',
    ]);
    const [setup, behavior, getHpa, load, off, stepDown] = steps as [Step, Step, Step, Step, Step, Step];

    const setupResults = await cluster.run(setup);
    expect(output(setupResults, 'kubectl autoscale')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    expect(output(setupResults, 'kubectl patch')).toBe('horizontalpodautoscaler.autoscaling/web patched\n');
    expect(output(setupResults, 'kubectl rollout')).toMatch(/deployment "web" successfully rolled out/);

    // Your scaleDown, and the scaleUp the API server defaulted.
    expect(JSON.parse(output(await cluster.run(behavior), 'kubectl get hpa'))).toEqual({
      scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: expect.arrayContaining([
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ]),
      },
    });

    // Idle: a few percent, 3 replicas.
    await untilTable(only(getHpa, 'kubectl get hpa'), (rows) => {
      expect(rows).toEqual([expect.objectContaining({ NAME: 'web', REFERENCE: 'Deployment/web', MINPODS: '2', MAXPODS: '10', REPLICAS: '3' })]);
      expect(cpuPercent(rows[0]!['TARGETS'])).toBeLessThan(10);
    });

    // Load: spec.replicas reaches 6 (kubectl wait), then the HPA shows 6 just under target.
    const loadResults = await cluster.run(load);
    expect(output(loadResults, 'npx kubesim load')).toBe('deployment.apps/web: load set to cpu 800m (spread over 3 ready pods)\n');
    expect(output(loadResults, 'kubectl wait')).toBe('deployment.apps/web condition met\n');
    await untilTable(only(load, 'kubectl get hpa'), (rows) => {
      expect(rows[0]).toMatchObject({ NAME: 'web', REPLICAS: '6' });
      expect(cpuPercent(rows[0]!['TARGETS'])).toBeGreaterThanOrEqual(60);
      expect(cpuPercent(rows[0]!['TARGETS'])).toBeLessThanOrEqual(70);
    });

    // Load off: within seconds the HPA sees a few percent, and still keeps 6 — the window.
    const offResults = await cluster.run(off);
    expect(output(offResults, 'npx kubesim load')).toBe('deployment.apps/web: load removed\n');
    await eventually(
      async () => {
        const [table, message] = await cluster.run(only(off, 'kubectl get hpa'));
        const [row] = parseTable(table!.stdout);
        expect(row).toMatchObject({ NAME: 'web', REPLICAS: '6' });
        expect(cpuPercent(row!['TARGETS'])).toBeLessThan(10);
        expect(message!.stdout).toBe('recent recommendations were higher than current one, applying the highest recent recommendation\n');
      },
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    const replicas = await cluster.sh("kubectl get deployment web -o jsonpath='{.spec.replicas}'");
    expect(replicas.stdout, 'still inside the window').toBe('6');

    // After the window: the events say 6, then 5, 4, 3, 2.
    const downResults = await cluster.run(stepDown);
    expect(output(downResults, 'kubectl wait')).toBe('deployment.apps/web condition met\n');
    const events = parseTable(output(downResults, 'kubectl get events'));
    expect(events.map((e) => e['MESSAGE'])).toEqual([
      'New size: 6; reason: cpu resource utilization (percentage of request) above target',
      ...[5, 4, 3, 2].map((n) => `New size: ${n}; reason: All metrics below target`),
    ]);

    // The times `kubesim watch deployment/web` prints, from the same history.
    const timeline = await deploymentTimeline();
    const described = JSON.stringify(timeline, null, 1);
    expect(
      timeline.replicas.map((r) => `${r.from}→${r.to} by ${r.by}`),
      described,
    ).toEqual(['3→6', '6→5', '5→4', '4→3', '3→2'].map((change) => `${change} by hpa`));
    const [up, ...downs] = timeline.replicas.map((r) => r.atMs);
    const seconds = (fromMs: number, toMs: number) => (toMs - fromMs) / 1000;
    // Up within a sync or two (and a metrics scrape) of the load.
    expect(seconds(timeline.loadOnMs, up!), described).toBeGreaterThan(0);
    expect(seconds(timeline.loadOnMs, up!), described).toBeLessThanOrEqual(45);
    // The first step down waits out the window (less at most one 15 s sync period)...
    expect(seconds(timeline.loadOffMs, downs[0]!), described).toBeGreaterThanOrEqual(300 - 15);
    expect(seconds(timeline.loadOffMs, downs[0]!), described).toBeLessThanOrEqual(390);
    // ...and each further step waits for the 60 s policy period.
    for (let i = 1; i < downs.length; i++) {
      expect(seconds(downs[i - 1]!, downs[i]!), described).toBeGreaterThanOrEqual(59);
      expect(seconds(downs[i - 1]!, downs[i]!), described).toBeLessThanOrEqual(110);
    }
  }, 120_000);

  /** The Deployment's history (what `kubesim watch deployment/web` prints): when the load went
   * on and off, and every spec.replicas change with who made it, in cluster time. */
  async function deploymentTimeline() {
    const raw = await cluster.sh("kubectl get --raw '/apis/kubesim.io/v1alpha1/history?resource=deployments&namespace=default&name=web'");
    expect(raw.code, raw.stderr).toBe(0);
    const items = (JSON.parse(raw.stdout) as { items: HistoryItem[] }).items;
    const at = (item: HistoryItem | undefined, what: string) => {
      if (!item) throw new Error(`no history entry for ${what}:\n${raw.stdout}`);
      return Date.parse(item.time);
    };
    const change = (item: HistoryItem, path: string) => item.diff.find((d) => d.path === path);
    return {
      loadOnMs: at(
        items.find((i) => change(i, LOAD_PATH)?.new === '800m'),
        'load on',
      ),
      loadOffMs: at(
        items.find((i) => change(i, LOAD_PATH)?.old === '800m' && change(i, LOAD_PATH)?.new === undefined),
        'load off',
      ),
      replicas: items
        .filter((i) => change(i, 'spec.replicas'))
        .map((i) => ({
          from: change(i, 'spec.replicas')!.old,
          to: change(i, 'spec.replicas')!.new,
          by: i.actor?.controller ?? i.actor?.userAgent,
          atMs: Date.parse(i.time),
        })),
    };
  }
});

const LOAD_PATH = 'metadata.annotations["kubesim.io/load-cpu"]';

interface HistoryItem {
  time: string;
  actor?: { userAgent?: string; controller?: string };
  diff: Array<{ path: string; old?: unknown; new?: unknown }>;
}

/** The step cut down to its commands that start with `prefix` (to re-run a time-driven check). */
const only = onlyCommands;
