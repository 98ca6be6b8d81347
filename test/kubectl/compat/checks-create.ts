/**
 * Compatibility checks, part 1: discovery and OpenAPI (api-resources, explain), then the
 * objects the later checks work on, created with kubectl's generators and `create -f`.
 * Expected texts are what a real cluster prints for the same commands.
 */
import { type Check, configMap, deployment, paths, rolledOut, yaml } from './context.js';
import { CheckFailure, expectEqual, expectLines, expectText } from './normalize.js';

const filesManifest = (ns: string) =>
  yaml(configMap('files-a', ns, { rank: '2' }, { group: 'files' }), configMap('files-b', ns, { rank: '1' }, { group: 'files' }));

/** webService is what `kubectl create service clusterip web --tcp=80:80` creates. */
const webService = (ns: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: ns, labels: { app: 'web' } },
  spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: '80-80', port: 80, protocol: 'TCP', targetPort: 80 }] },
});

export const createChecks: Check[] = [
  {
    name: 'api-resources',
    async run(c) {
      const out = await c.out(['api-resources']);
      expectText(out.split('\n')[0] ?? '', 'NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND', 'header');
      // Discovery order: the core group first, then the named groups; rows of a group by name.
      expectLines(out, [
        'configmaps   cm   v1   true   ConfigMap',
        'events   ev   v1   true   Event',
        'namespaces   ns   v1   false   Namespace',
        'nodes   no   v1   false   Node',
        'pods   po   v1   true   Pod',
        'services   svc   v1   true   Service',
        'deployments   deploy   apps/v1   true   Deployment',
        'replicasets   rs   apps/v1   true   ReplicaSet',
        'horizontalpodautoscalers   hpa   autoscaling/v2   true   HorizontalPodAutoscaler',
        'nodes      metrics.k8s.io/v1beta1   false   NodeMetrics',
        'pods      metrics.k8s.io/v1beta1   true   PodMetrics',
      ]);
      if (/\/(scale|status|log)\b/.test(out)) throw new CheckFailure('subresources are listed as resources');
    },
  },
  {
    name: 'explain',
    async run(c) {
      // Descriptions are kubesim's own words; the structure and the field types are compared.
      const field = await c.out(['explain', 'deployment.spec.replicas']);
      expectLines(field, ['GROUP:      apps', 'KIND:       Deployment', 'VERSION:    v1', '', 'FIELD: replicas <integer>', '', 'DESCRIPTION:']);
      const spec = await c.out(['explain', 'deployment.spec']);
      expectLines(spec, [
        'FIELD: spec <DeploymentSpec>',
        'DESCRIPTION:',
        'FIELDS:',
        '  minReadySeconds   <integer>',
        '  paused   <boolean>',
        '  progressDeadlineSeconds   <integer>',
        '  replicas   <integer>',
        '  revisionHistoryLimit   <integer>',
        '  selector   <LabelSelector> -required-',
        '  strategy   <DeploymentStrategy>',
        '  template   <PodTemplateSpec> -required-',
      ]);
    },
  },
  {
    name: 'create namespace',
    async run(c) {
      try {
        expectText(await c.out(['create', 'namespace', `${c.ns}-gen`]), 'namespace/<ns>-gen created');
      } finally {
        await c.api.delete(`${paths.namespaces}/${c.ns}-gen`);
      }
    },
  },
  {
    name: 'create configmap',
    async run(c) {
      expectText(await c.out(['create', 'configmap', 'settings', '--from-literal=color=blue', '--from-literal=size=L']), 'configmap/settings created');
      expectText(await c.out(['get', 'cm', 'settings', '-o', 'jsonpath={.data}']), '{"color":"blue","size":"L"}');
    },
    repair: (c) => c.api.create(paths.configMaps(c.ns), configMap('settings', c.ns, { color: 'blue', size: 'L' })),
  },
  {
    name: 'create deployment',
    async run(c) {
      expectText(await c.out(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']), 'deployment.apps/web created');
      const made = JSON.parse((await c.ok(['get', 'deploy', 'web', '-o', 'json'])).stdout);
      expectEqual(
        made.spec.template.spec.containers.map((x: { name: string; image: string }) => `${x.name}=${x.image}`),
        ['nginx=nginx:1.25'],
        'containers',
      );
      expectEqual(made.spec.selector, { matchLabels: { app: 'web' } }, 'selector');
    },
    repair: (c) => c.api.create(paths.deployments(c.ns), deployment('web', c.ns, { generated: true })),
  },
  {
    name: 'create service clusterip',
    async run(c) {
      expectText(await c.out(['create', 'service', 'clusterip', 'web', '--tcp=80:80']), 'service/web created');
    },
    repair: (c) => c.api.create(paths.services(c.ns), webService(c.ns)),
  },
  {
    name: 'create -f',
    async run(c) {
      expectText(await c.out(['create', '-f', '-'], { stdin: filesManifest(c.ns) }), 'configmap/files-a created\nconfigmap/files-b created');
      const again = await c.kubectl(['create', '-f', '-'], { stdin: filesManifest(c.ns) });
      expectEqual(again.code, 1, 'exit code of a second create');
      expectText(
        c.normalise(again.stderr),
        [
          'Error from server (AlreadyExists): error when creating "STDIN": configmaps "files-a" already exists',
          'Error from server (AlreadyExists): error when creating "STDIN": configmaps "files-b" already exists',
        ].join('\n'),
        'stderr',
      );
    },
    async repair(c) {
      await c.api.create(paths.configMaps(c.ns), configMap('files-a', c.ns, { rank: '2' }, { group: 'files' }));
      await c.api.create(paths.configMaps(c.ns), configMap('files-b', c.ns, { rank: '1' }, { group: 'files' }));
    },
  },
  {
    name: 'rollout status',
    run: (c) => rolledOut(c, 'web'),
  },
];
