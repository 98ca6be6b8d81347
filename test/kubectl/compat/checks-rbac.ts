/**
 * Compatibility checks for rbac.authorization.k8s.io: kubectl's role and binding generators
 * (protobuf bodies from kubectl ≥ 1.32), their tables, and the default cluster roles. Names of
 * cluster-scoped objects carry the run's namespace, so concurrent kubectl runs do not collide.
 */
import type { Check } from './context.js';
import { expectLines, expectText } from './normalize.js';

export const rbacChecks: Check[] = [
  {
    name: 'create role',
    async run(c) {
      expectText(
        await c.out(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']),
        'role.rbac.authorization.k8s.io/pod-reader created',
      );
      expectText(await c.out(['get', 'role', 'pod-reader']), 'NAME   CREATED AT\npod-reader   <*>');
    },
  },
  {
    name: 'create clusterrole',
    async run(c) {
      const out = await c.out(['create', 'clusterrole', `${c.ns}-reader`, '--verb=get', '--resource=nodes', '--non-resource-url=/logs/*']);
      expectText(out, 'clusterrole.rbac.authorization.k8s.io/<ns>-reader created');
    },
  },
  {
    name: 'create rolebinding',
    async run(c) {
      const created = await c.out([
        'create',
        'rolebinding',
        'pod-reader',
        '--role=pod-reader',
        '--user=alice',
        '--group=devs',
        `--serviceaccount=${c.ns}:robot`,
      ]);
      expectText(created, 'rolebinding.rbac.authorization.k8s.io/pod-reader created');
      expectText(
        await c.out(['get', 'rolebinding', 'pod-reader', '-o', 'wide']),
        'NAME   ROLE   AGE   USERS   GROUPS   SERVICEACCOUNTS\npod-reader   Role/pod-reader   <*>   alice   devs   <ns>/robot',
      );
    },
  },
  {
    name: 'create clusterrolebinding',
    async run(c) {
      const created = await c.out(['create', 'clusterrolebinding', `${c.ns}-view`, '--clusterrole=view', `--group=${c.ns}-auditors`]);
      expectText(created, 'clusterrolebinding.rbac.authorization.k8s.io/<ns>-view created');
      expectText(await c.out(['get', 'clusterrolebinding', `${c.ns}-view`]), 'NAME   ROLE   AGE\n<ns>-view   ClusterRole/view   <*>');
    },
  },
  {
    name: 'get clusterroles (defaults)',
    async run(c) {
      const out = await c.out(['get', 'clusterroles', 'cluster-admin', 'admin', 'edit', 'view']);
      expectLines(out, ['NAME   CREATED AT', 'cluster-admin   <*>', 'admin   <*>', 'edit   <*>', 'view   <*>']);
    },
  },
];
