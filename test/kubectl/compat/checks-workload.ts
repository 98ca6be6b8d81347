/**
 * Compatibility checks, part 5: the workload commands on Deployment web — scale, rollout
 * restart/history/undo, wait, autoscale, events, logs and top — and delete with each cascade
 * mode on the Deployments bg, fg and orphan of the second namespace. Expected outputs are a
 * real cluster's, normalised.
 */

import { eventually } from '../../support/eventually.js';
import { type Check, configMap, paths, rolledOut } from './context.js';
import { CheckFailure, expectEqual, expectLines, expectText, withoutKlog } from './normalize.js';

const HISTORY = (revisions: number[]) => `deployment.apps/web\nREVISION   CHANGE-CAUSE\n${revisions.map((r) => `${r}   <none>`).join('\n')}`;

/** A ConfigMap that a finalizer keeps after its deletion, for `wait --for=delete`. */
const held = (ns: string) => ({ ...configMap('held', ns, { k: 'v' }), metadata: { name: 'held', namespace: ns, finalizers: ['example.com/hold'] } });

export const workloadChecks: Check[] = [
  {
    name: 'scale',
    async run(c) {
      expectText(await c.out(['scale', 'deployment', 'web', '--replicas=3']), 'deployment.apps/web scaled');
      await rolledOut(c, 'web');
      expectText(await c.out(['get', 'deploy', 'web']), 'NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb   3/3   3   3   <age>');
    },
    repair: async (c) => void (await c.api.patch(`${paths.deployments(c.ns)}/web`, { spec: { replicas: 3 } })),
  },
  {
    name: 'scale --current-replicas',
    async run(c) {
      const wrong = await c.kubectl(['scale', 'deployment', 'web', '--current-replicas=5', '--replicas=2']);
      expectEqual(wrong.code, 1, 'exit code with a wrong --current-replicas');
      expectText(wrong.stderr, 'error: Expected replicas to be 5, was 3', 'stderr');
      expectText(await c.out(['scale', 'deployment', 'web', '--current-replicas=3', '--replicas=2']), 'deployment.apps/web scaled');
      await rolledOut(c, 'web');
    },
    repair: async (c) => void (await c.api.patch(`${paths.deployments(c.ns)}/web`, { spec: { replicas: 2 } })),
  },
  {
    name: 'rollout restart',
    async run(c) {
      expectText(await c.out(['rollout', 'restart', 'deployment/web']), 'deployment.apps/web restarted');
      await rolledOut(c, 'web');
    },
  },
  {
    name: 'rollout history',
    run: async (c) => expectText(await c.out(['rollout', 'history', 'deployment/web']), HISTORY([1, 2])),
  },
  {
    name: 'rollout history --revision',
    async run(c) {
      expectLines(await c.out(['rollout', 'history', 'deployment/web', '--revision=2']), [
        'deployment.apps/web with revision #2',
        'Pod Template:',
        '  Labels:   app=web',
        '\tpod-template-hash=<hash>',
        '  Annotations:   kubectl.kubernetes.io/restartedAt: <time>',
        '  Containers:',
        '   nginx:',
        '    Image:   nginx:1.25',
      ]);
    },
  },
  {
    name: 'rollout undo',
    async run(c) {
      expectText(await c.out(['rollout', 'undo', 'deployment/web']), 'deployment.apps/web rolled back');
      await rolledOut(c, 'web');
      expectText(await c.out(['rollout', 'history', 'deployment/web']), HISTORY([2, 3]), 'history after undo');
    },
  },
  {
    name: 'wait --for=condition',
    run: async (c) => expectText(await c.out(['wait', '--for=condition=Available', 'deployment/web', '--timeout=30s']), 'deployment.apps/web condition met'),
  },
  {
    name: 'wait --for=jsonpath',
    async run(c) {
      const out = await c.out(['wait', '--for=jsonpath={.status.readyReplicas}=2', 'deployment/web', '--timeout=30s']);
      expectText(out, 'deployment.apps/web condition met');
    },
  },
  {
    name: 'wait --for=delete',
    async run(c) {
      await c.api.create(paths.configMaps(c.ns), held(c.ns));
      expectText(await c.out(['delete', 'cm', 'held', '--wait=false']), 'configmap "held" deleted');
      const timedOut = await c.kubectl(['wait', '--for=delete', 'cm/held', '--timeout=2s']);
      expectEqual(timedOut.code, 1, 'exit code while a finalizer holds the object');
      // kubectl ≥ 1.33 also logs its watch ending at the deadline ("Failed to watch"), as with any cluster.
      expectText(withoutKlog(timedOut.stderr), 'error: timed out waiting for the condition on configmaps/held', 'stderr');
      await c.api.patch(`${paths.configMaps(c.ns)}/held`, { metadata: { finalizers: null } });
      await c.ok(['wait', '--for=delete', 'cm/held', '--timeout=10s']);
    },
    repair: async (c) => void (await c.api.patch(`${paths.configMaps(c.ns)}/held`, { metadata: { finalizers: null } })),
  },
  {
    name: 'autoscale',
    async run(c) {
      expectText(
        await c.out(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=80']),
        'horizontalpodautoscaler.autoscaling/web autoscaled',
      );
      // The pods request no CPU, so a real HPA cannot compute utilisation either.
      const hpa = await eventually(
        async () => {
          const out = await c.out(['get', 'hpa', 'web']);
          if (!/\s2\s+<age>$/m.test(out)) throw new CheckFailure(`get hpa: ${out.split('\n')[1] ?? out}`);
          return out;
        },
        { timeoutMs: 15_000, intervalMs: 250 },
      );
      expectText(hpa, 'NAME   REFERENCE   TARGETS   MINPODS   MAXPODS   REPLICAS   AGE\nweb   Deployment/web   cpu: <unknown>/80%   2   5   2   <age>');
    },
  },
];

/** Read-only views of the running workload (run while web has its first two pods). */
export const observeChecks: Check[] = [
  {
    name: 'events',
    async run(c) {
      expectLines(await c.out(['events', '--for', 'deployment/web']), [
        'LAST SEEN   TYPE   REASON   OBJECT   MESSAGE',
        '<age>   Normal   ScalingReplicaSet   Deployment/web   Scaled up replica set web-<hash> from 0 to 2',
      ]);
    },
  },
  {
    name: 'get events',
    async run(c) {
      expectLines(await c.out(['get', 'events', '--field-selector', 'involvedObject.kind=Deployment,involvedObject.name=web']), [
        'LAST SEEN   TYPE   REASON   OBJECT   MESSAGE',
        '<age>   Normal   ScalingReplicaSet   deployment/web   Scaled up replica set web-<hash> from 0 to 2',
      ]);
    },
  },
  {
    name: 'logs',
    async run(c) {
      const result = await c.ok(['logs', 'deployment/web']);
      expectText(c.normalise(result.stderr), 'Found <*> pods, using pod/web-<hash>-<id>', 'stderr');
      expectLines(c.normalise(result.stdout), ['/docker-entrypoint.sh: Configuration complete; ready for start up'], 'log');
      const pod = (await c.ok(['get', 'pods', '-l', 'app=web', '-o', 'name'])).stdout.split('\n')[0] ?? '';
      expectText(await c.out(['logs', pod, '--tail=2', '--timestamps']), '<time> <*>\n<time> <*>', 'logs --tail=2 --timestamps');
      expectText(
        await c.out(['logs', '-l', 'app=web', '--prefix', '--tail=1']),
        '[pod/web-<hash>-<id>/nginx] <*>\n[pod/web-<hash>-<id>/nginx] <*>',
        'logs -l --prefix',
      );
    },
  },
  {
    name: 'top pod',
    async run(c) {
      const rows = (await c.out(['top', 'pod', '-l', 'app=web'])).replace(/\b\d+m\b|<age>/g, '<cpu>').replace(/\b\d+Mi\b/g, '<mem>');
      expectText(rows, 'NAME   CPU(cores)   MEMORY(bytes)\nweb-<hash>-<id>   <cpu>   <mem>\nweb-<hash>-<id>   <cpu>   <mem>');
    },
  },
  {
    name: 'top node',
    async run(c) {
      const rows = (await c.out(['top', 'node']))
        .replace(/\b\d+m\b|<age>/g, '<cpu>')
        .replace(/\b\d+Mi\b/g, '<mem>')
        .replace(/\b\d+%/g, '<pct>');
      const row = '<node>   <cpu>   <pct>   <mem>   <pct>';
      // kubectl 1.32 renamed the percentage columns (the header is kubectl's own).
      const header = c.minor >= 32 ? 'NAME   CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)' : 'NAME   CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%';
      expectText(rows, `${header}\n${row}\n${row}\n${row}`);
    },
  },
];

/** Deletion with each cascade mode, in the second namespace. */
export const deleteChecks: Check[] = [
  {
    name: 'delete (background)',
    async run(c) {
      const ns = { namespace: c.delNs };
      await rolledOut(c, 'bg', ns);
      expectText(await c.out(['delete', 'deployment', 'bg'], ns), 'deployment.apps "bg" deleted');
      // The garbage collector removes the ReplicaSet and its pods soon after.
      await eventually(async () => expectText(await c.out(['get', 'rs,pods', '-l', 'app=bg'], ns), ''), { timeoutMs: 20_000, intervalMs: 250 });
    },
  },
  {
    name: 'delete --cascade=foreground',
    async run(c) {
      const ns = { namespace: c.delNs };
      await rolledOut(c, 'fg', ns);
      expectText(await c.out(['delete', 'deployment', 'fg', '--cascade=foreground'], ns), 'deployment.apps "fg" deleted');
      // kubectl returned once the Deployment was gone, which foreground deletion allows only
      // after its dependents are gone.
      const left = await c.kubectl(['get', 'rs,pods', '-l', 'app=fg'], ns);
      expectText(c.normalise(left.stdout + left.stderr), 'No resources found in <ns>-del namespace.', 'dependents');
    },
  },
  {
    name: 'delete --cascade=orphan',
    async run(c) {
      const ns = { namespace: c.delNs };
      await rolledOut(c, 'orphan', ns);
      expectText(await c.out(['delete', 'deployment', 'orphan', '--cascade=orphan'], ns), 'deployment.apps "orphan" deleted');
      const owners = await c.out(['get', 'rs', '-l', 'app=orphan', '-o', 'jsonpath={.items[*].metadata.ownerReferences}'], ns);
      expectText(owners, '', 'ownerReferences of the orphaned ReplicaSet');
      expectText(await c.out(['get', 'rs', '-l', 'app=orphan'], ns), 'NAME   DESIRED   CURRENT   READY   AGE\norphan-<hash>   1   1   1   <age>');
      expectText(await c.out(['delete', 'rs', '-l', 'app=orphan'], ns), 'replicaset.apps "orphan-<hash>" deleted');
    },
  },
];
