/**
 * docs/tutorials/08-cronjob-drill.md, run as written on a cluster with a virtual clock: a
 * CronJob every minute gets exactly one Job per minute, named `tick-<minutes since 1970>`,
 * through a second copy of the cronjob loop (the page's second terminal, spawned here), a
 * minute with the loop stopped (caught up when it starts) and a restart inside a minute.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type KubesimProcess, spawnKubesim } from '../support/processes.js';
import { parseTable, type Row } from './tables.js';
import { type CommandResult, commandResult, onlyCommands, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('08-cronjob-drill.md');

/** The result of the step's command that starts with `prefix`. */
const result = (results: CommandResult[], prefix: string): CommandResult => commandResult(results, prefix);

/** The step cut down to its commands that start with `prefix` (to look again after an advance). */
const only = onlyCommands;

/** The minute number of a Job named `tick-<minutes>`. */
function minuteOf(name: string | undefined): number {
  const match = /^tick-(\d+)$/.exec(name ?? '');
  if (!match) throw new Error(`not a tick Job: ${JSON.stringify(name)}`);
  return Number(match[1]);
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

describe('tutorial 08: the CronJob drill', () => {
  const cluster = useTutorialCluster(['--clock', 'virtual']);
  let secondCopy: KubesimProcess | undefined;
  afterAll(async () => {
    await secondCopy?.stop();
  });

  /** Runs the step, then checks the minutes of the Jobs its `kubectl get jobs` lists; if they
   * are not right yet, lists again (the loops follow a clock advance on their own, a moment
   * after it, as a learner looking twice would see). */
  async function jobsAfter(step: Step, check: (minutes: number[]) => void): Promise<{ results: CommandResult[]; rows: Row[] }> {
    const results = await cluster.run(step);
    let table = result(results, 'kubectl get jobs').stdout;
    const rows = await eventually(
      async () => {
        try {
          const rows = parseTable(table);
          check(rows.map((r) => minuteOf(r['JOB'] ?? r['NAME'])));
          return rows;
        } catch (err) {
          table = result(await cluster.run(only(step, 'kubectl get jobs')), 'kubectl get jobs').stdout;
          throw err;
        }
      },
      // A budget, not a measure: each look is a kubectl run, slow on a busy two-core machine.
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    return { results, rows };
  }

  /** The `Created job …` messages of an events table, sorted. */
  const createdJobs = (results: CommandResult[]) =>
    parseTable(result(results, 'kubectl get events').stdout)
      .map((row) => row['MESSAGE'])
      .sort();

  it('makes exactly one Job per minute through a second copy, a stop and a restart', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'A CronJob for every minute',
      'One minute, one Job',
      'One minute, one Job',
      'Two copies of the loop',
      'Stop the loop for a minute',
      'Stop the loop for a minute',
      'Restart it inside the minute',
      'Count',
    ]);
    const [create, firstMinute, beSecond, twoCopies, stop, start, restart, count] = steps as [Step, Step, Step, Step, Step, Step, Step, Step];

    // A CronJob: nothing scheduled yet, the clock has not moved.
    const created = await cluster.run(create);
    expect(result(created, 'kubectl create').stdout).toBe('cronjob.batch/tick created\n');
    expect(result(created, 'kubectl patch').stdout).toBe('cronjob.batch/tick patched\n');
    expect(result(created, 'kubectl get').stdout).toMatch(/^tick\s+\* \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+\s*$/m);

    // One minute, one Job named for its minute, scheduled at that whole minute.
    const { rows: first } = await jobsAfter(firstMinute, (minutes) => expect(minutes).toHaveLength(1));
    const minute = minuteOf(first[0]!['JOB']);
    expect(first[0]!['SCHEDULED']).toBe(new Date(minute * 60_000).toISOString().replace('.000Z', 'Z'));

    // Be a second controller: the name is taken.
    const [refused] = await cluster.run(beSecond);
    expect(refused!.stdout).toBe('exit code 1\n');
    expect(refused!.stderr.trim()).toBe(`error: failed to create job: jobs.batch "tick-${minute}" already exists`);

    // Two copies: `npx kubesim status` shows the loop in the shared controller-manager process;
    // the page's second terminal, `npx kubesim controller cronjob` with KUBECONFIG set, is a process of its own.
    expect((await cluster.sh('npx kubesim status')).stdout).toMatch(/^cronjob\s+running \(in controller-manager, pid \d+\)/m);
    secondCopy = spawnKubesim(['controller', 'cronjob'], { KUBECONFIG: cluster.kubeconfig });
    await secondCopy.waitForOutput(/Starting workers/, 30_000);
    const two = await jobsAfter(twoCopies, (minutes) => expect(minutes).toEqual(range(minute, 2)));
    expect(createdJobs(two.results)).toEqual(range(minute, 2).map((m) => `Created job tick-${m}`));
    expect(secondCopy.child.exitCode, secondCopy.output()).toBeNull();
    // Nobody elects: the only Leases are the nodes' heartbeats.
    const leases = parseTable((await cluster.sh('kubectl get leases -A')).stdout);
    expect(leases.map((l) => l['NAMESPACE'])).toEqual(['kube-node-lease', 'kube-node-lease', 'kube-node-lease']);
    await secondCopy.stop(); // Ctrl-C

    // A minute with the loop stopped: no Job; started again, it catches up on that minute.
    const stopped = await cluster.run(stop);
    expect(result(stopped, 'npx kubesim stop').stdout).toMatch(/^cronjob\s+stopped/);
    expect(parseTable(result(stopped, 'kubectl get jobs').stdout).map((r) => minuteOf(r['NAME']))).toEqual(range(minute, 2));
    const started = await jobsAfter(start, (minutes) => expect(minutes).toEqual(range(minute, 3)));
    expect(result(started.results, 'npx kubesim start').stdout).toMatch(/^cronjob\s+running \(in controller-manager, pid \d+\)/);

    // Restarted inside the minute: nothing new.
    const restarted = await cluster.run(restart);
    expect(parseTable(result(restarted, 'kubectl get jobs').stdout).map((r) => minuteOf(r['NAME']))).toEqual(range(minute, 3));

    // Count: four minutes, four consecutive Jobs, each scheduled at its minute, one event each.
    const counted = await jobsAfter(count, (minutes) => expect(minutes).toEqual(range(minute, 4)));
    for (const row of counted.rows) expect(row['SCHEDULED']).toBe(new Date(minuteOf(row['JOB']) * 60_000).toISOString().replace('.000Z', 'Z'));
    expect(createdJobs(counted.results)).toEqual(range(minute, 4).map((m) => `Created job tick-${m}`));
  }, 120_000);
});
