/**
 * docs/tutorials/10-rbac.md, run as written on the HTTPS, RBAC-enforcing `kubesim up`: a service
 * account is refused with kube-apiserver's Forbidden, a Role lets it list pods; the ReplicaSet
 * controller (its own service account) stalls with a FailedCreate event when its ClusterRole
 * loses `create pods`, and heals when the verb comes back.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { parseTable } from './tables.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('10-rbac.md');

const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

const SERVICE_ACCOUNT = 'system:serviceaccount:default:demo';
const REPLICASET_CONTROLLER = 'system:serviceaccount:kube-system:replicaset-controller';

describe('tutorial 10: RBAC', () => {
  const cluster = useTutorialCluster();

  it('refuses, grants, and shows a controller stalling without a permission and healing with it', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Who you are',
      'A service account that may do nothing',
      'A service account that may do nothing',
      'Grant a Role',
      'The ReplicaSet controller is a user too',
      'Take away `create pods`',
      'See it stall',
      'Give it back',
      'Clean up',
    ]);
    const [whoami, create, refused, grant, controller, takeAway, stall, giveBack, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step, Step, Step];

    const who = output(await cluster.run(whoami), 'kubectl auth whoami');
    expect(who).toMatch(/^Username\s+kubernetes-admin$/m);
    expect(who).toMatch(/^Groups\s+\[system:masters system:authenticated\]$/m);

    await cluster.run(create);
    // The refusal exits non-zero: run on its own, and read kube-apiserver's words.
    expect(refused.commands).toEqual([`kubectl get pods --as=${SERVICE_ACCOUNT}`]);
    const forbidden = await cluster.sh(refused.commands[0]!);
    expect(forbidden.code).not.toBe(0);
    expect(forbidden.stderr.trim()).toBe(
      `Error from server (Forbidden): pods is forbidden: User "${SERVICE_ACCOUNT}" cannot list resource "pods" in API group "" in the namespace "default"`,
    );

    const granted = await cluster.run(grant);
    expect(output(granted, 'kubectl auth can-i').trim()).toBe('yes');
    expect(granted.at(-1)!.stderr.trim()).toBe('No resources found in default namespace.');

    const roles = await cluster.run(controller);
    expect(output(roles, 'kubectl auth can-i').trim()).toBe('yes');
    expect(JSON.parse(output(roles, 'kubectl get clusterrole'))).toEqual({
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['create', 'delete', 'list', 'patch', 'watch'],
    });

    await cluster.run(takeAway);
    // The loop is refused, says so in an Event, and the ReplicaSet stays at two pods.
    const stalled = await eventually(
      async () => {
        const seen = await cluster.run(stall);
        const events = output(seen, 'kubectl get events');
        expect(events).toContain(`is forbidden: User "${REPLICASET_CONTROLLER}" cannot create resource "pods" in API group "" in the namespace "default"`);
        return seen;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const [replicaSet] = parseTable(output(stalled, 'kubectl get replicasets'));
    expect(replicaSet).toMatchObject({ DESIRED: '4', CURRENT: '2' });
    expect(parseTable(output(stalled, 'kubectl get events'))[0]).toMatchObject({ TYPE: 'Warning', REASON: 'FailedCreate' });

    // Given back, the controller's next retry succeeds; rollout status returns at 4/4.
    const healed = await cluster.run(giveBack);
    expect(output(healed, 'kubectl rollout status')).toContain('successfully rolled out');
    const [after] = parseTable((await cluster.sh('kubectl get replicasets -l app=web')).stdout);
    expect(after).toMatchObject({ DESIRED: '4', CURRENT: '4', READY: '4' });

    await cluster.run(cleanup);
  }, 180_000);
});
