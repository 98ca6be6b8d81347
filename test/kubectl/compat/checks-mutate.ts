/**
 * Compatibility checks, part 4: apply (client-side on Deployment api, server-side on
 * ConfigMap ssa — each twice and once with a field removed), server-side apply conflicts,
 * edit, patch with each patch type, label and annotate. Expected outputs are a real cluster's.
 */
import { type Check, type CompatContext, configMap, deployment, paths, yaml } from './context.js';
import { expectEqual, expectLines, expectText } from './normalize.js';

const apiManifest = (c: CompatContext, ports: boolean) => yaml(deployment('api', c.ns, { replicas: 1, ports }));
const ssaManifest = (c: CompatContext, data: Record<string, string>) => yaml(configMap('ssa', c.ns, data));
const jsonpath = (c: CompatContext, kind: string, name: string, path: string) => c.out(['get', kind, name, '-o', `jsonpath=${path}`]);

export const mutateChecks: Check[] = [
  {
    name: 'apply (create)',
    run: async (c) => expectText(await c.out(['apply', '-f', '-'], { stdin: apiManifest(c, true) }), 'deployment.apps/api created'),
    repair: (c) => c.api.create(paths.deployments(c.ns), deployment('api', c.ns, { replicas: 1, ports: true })),
  },
  {
    name: 'get -o yaml (server defaults)',
    async run(c) {
      // A real API server fills in every default of the manifest's pod template.
      expectLines(await c.out(['get', 'deploy', 'api', '-o', 'yaml']), [
        '      containers:',
        '      - image: nginx:1.25',
        '        imagePullPolicy: IfNotPresent',
        '        name: nginx',
        '        ports:',
        '        - containerPort: 80',
        '          protocol: TCP',
        '        resources: {}',
        '        terminationMessagePath: /dev/termination-log',
        '        terminationMessagePolicy: File',
        '      dnsPolicy: ClusterFirst',
        '      restartPolicy: Always',
        '      schedulerName: default-scheduler',
        '      securityContext: {}',
        '      terminationGracePeriodSeconds: 30',
      ]);
    },
  },
  {
    name: 'apply (again, unchanged)',
    run: async (c) => expectText(await c.out(['apply', '-f', '-'], { stdin: apiManifest(c, true) }), 'deployment.apps/api unchanged'),
  },
  {
    name: 'apply (field removed)',
    async run(c) {
      expectText(await c.out(['apply', '-f', '-'], { stdin: apiManifest(c, false) }), 'deployment.apps/api configured');
      expectText(await jsonpath(c, 'deploy', 'api', '{.spec.template.spec.containers[0].ports}'), '', 'ports after apply');
    },
  },
  {
    name: 'apply --server-side (create)',
    run: async (c) =>
      expectText(await c.out(['apply', '--server-side', '-f', '-'], { stdin: ssaManifest(c, { a: '1', b: '2' }) }), 'configmap/ssa serverside-applied'),
    repair: (c) => c.api.create(paths.configMaps(c.ns), configMap('ssa', c.ns, { a: '1', b: '2' })),
  },
  {
    name: 'apply --server-side (again)',
    async run(c) {
      const before = await jsonpath(c, 'cm', 'ssa', '{.metadata.resourceVersion}');
      expectText(await c.out(['apply', '--server-side', '-f', '-'], { stdin: ssaManifest(c, { a: '1', b: '2' }) }), 'configmap/ssa serverside-applied');
      // A no-op apply does not write: the resourceVersion stays.
      expectEqual(await jsonpath(c, 'cm', 'ssa', '{.metadata.resourceVersion}'), before, 'resourceVersion after a no-op apply');
    },
  },
  {
    name: 'apply --server-side (field removed)',
    async run(c) {
      expectText(await c.out(['apply', '--server-side', '-f', '-'], { stdin: ssaManifest(c, { a: '1' }) }), 'configmap/ssa serverside-applied');
      expectText(await jsonpath(c, 'cm', 'ssa', '{.data}'), '{"a":"1"}', 'data after apply');
    },
  },
  {
    name: 'apply --server-side (conflict, --force-conflicts)',
    async run(c) {
      const other = ['apply', '--server-side', '--field-manager=other', '-f', '-'];
      const conflict = await c.kubectl(other, { stdin: ssaManifest(c, { a: '9' }) });
      expectEqual(conflict.code, 1, 'exit code of a conflicting apply');
      expectText(c.normalise(conflict.stderr).split('\n')[0] ?? '', 'error: Apply failed with 1 conflict: conflict with "kubectl": .data.a', 'stderr');
      expectText(await c.out([...other, '--force-conflicts'], { stdin: ssaManifest(c, { a: '9' }) }), 'configmap/ssa serverside-applied');
      expectText(await jsonpath(c, 'cm', 'ssa', '{.data.a}'), '9', 'data.a after a forced apply');
    },
  },
  {
    name: 'edit',
    async run(c) {
      const edited = await c.out(['edit', 'cm', 'settings'], { env: { KUBE_EDITOR: 'sed -i s/blue/green/' } });
      expectText(edited, 'configmap/settings edited');
      expectText(await jsonpath(c, 'cm', 'settings', '{.data.color}'), 'green', 'color after edit');
      const untouched = await c.ok(['edit', 'cm', 'settings'], { env: { KUBE_EDITOR: 'true' } });
      expectText(untouched.stdout + untouched.stderr, 'Edit cancelled, no changes made.');
    },
  },
  {
    name: 'patch (strategic merge)',
    async run(c) {
      const env = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"MODE","value":"demo"}]}]}}}}';
      expectText(await c.out(['patch', 'deploy', 'api', '-p', env]), 'deployment.apps/api patched');
      // Containers merge by name: the image stays.
      const containers = '{range .spec.template.spec.containers[*]}{.name} {.image} {.env[0].value}{end}';
      expectText(await jsonpath(c, 'deploy', 'api', containers), 'nginx nginx:1.25 demo', 'containers after patch');
    },
  },
  {
    name: 'patch --type=merge',
    async run(c) {
      expectText(await c.out(['patch', 'deploy', 'api', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"backend"}}}']), 'deployment.apps/api patched');
      expectText(await jsonpath(c, 'deploy', 'api', '{.metadata.labels.tier}'), 'backend', 'label after patch');
    },
  },
  {
    name: 'patch --type=json',
    async run(c) {
      const ops = '[{"op":"add","path":"/metadata/labels/patched","value":"json"},{"op":"replace","path":"/spec/replicas","value":2}]';
      expectText(await c.out(['patch', 'deploy', 'api', '--type=json', '-p', ops]), 'deployment.apps/api patched');
      expectText(await jsonpath(c, 'deploy', 'api', '{.metadata.labels.patched} {.spec.replicas}'), 'json 2', 'after patch');
    },
  },
  {
    name: 'patch (no change)',
    async run(c) {
      // kubectl says "(no change)" when the object it read before patching equals the patch's
      // answer; the previous row scaled api, so wait until its rollout (and status writes) end,
      // or a status update landing between kubectl's read and its patch reads as a change.
      await c.out(['rollout', 'status', 'deployment/api', '--timeout=60s']);
      expectText(
        await c.out(['patch', 'deploy', 'api', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"backend"}}}']),
        'deployment.apps/api patched (no change)',
      );
    },
  },
  {
    name: 'label',
    async run(c) {
      expectText(await c.out(['label', 'deploy', 'web', 'env=prod']), 'deployment.apps/web labeled');
      const clash = await c.kubectl(['label', 'deploy', 'web', 'env=dev']);
      expectEqual(clash.code, 1, 'exit code without --overwrite');
      expectText(clash.stderr, "error: 'env' already has a value (prod), and --overwrite is false", 'stderr');
      expectText(await c.out(['label', 'deploy', 'web', 'env=dev', '--overwrite']), 'deployment.apps/web labeled');
      expectText(await jsonpath(c, 'deploy', 'web', '{.metadata.labels.env}'), 'dev', 'label env');
      expectText(await c.out(['label', 'deploy', 'web', 'env-']), 'deployment.apps/web unlabeled');
      expectText(
        await c.out(['get', 'deploy', 'web', '--show-labels']),
        'NAME   READY   UP-TO-DATE   AVAILABLE   AGE   LABELS\nweb   2/2   2   2   <age>   app=web',
      );
    },
  },
  {
    name: 'annotate',
    async run(c) {
      expectText(await c.out(['annotate', 'deploy', 'web', 'owner=team-a']), 'deployment.apps/web annotated');
      expectText(await jsonpath(c, 'deploy', 'web', '{.metadata.annotations.owner}'), 'team-a', 'annotation');
      expectText(await c.out(['annotate', 'deploy', 'web', 'owner-']), 'deployment.apps/web annotated');
      expectText(await jsonpath(c, 'deploy', 'web', '{.metadata.annotations.owner}'), '', 'annotation after removal');
    },
  },
];
