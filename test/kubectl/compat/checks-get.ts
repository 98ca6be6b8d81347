/**
 * Compatibility checks, part 2: `get` in every output format and `get -w`, on the objects of
 * part 1 (Deployment web with two ready pods, Service web, ConfigMaps files-a/-b/settings).
 * Expected texts are what a real cluster prints, normalised (see normalize.ts).
 */
import { type Check, paths } from './context.js';
import { CheckFailure, expectAbsent, expectEqual, expectLines, expectText } from './normalize.js';

const WEB_PODS_WIDE = `
NAME              READY   STATUS    RESTARTS   AGE     IP     NODE     NOMINATED NODE   READINESS GATES
web-<hash>-<id>   1/1     Running   0          <age>   <ip>   <node>   <none>           <none>
web-<hash>-<id>   1/1     Running   0          <age>   <ip>   <node>   <none>           <none>`;

const GET_ALL = `
NAME                  READY   STATUS    RESTARTS   AGE
pod/web-<hash>-<id>   1/1     Running   0          <age>
pod/web-<hash>-<id>   1/1     Running   0          <age>

NAME          TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
service/web   ClusterIP   <ip>         <none>        80/TCP    <age>

NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/web   2/2     2            2           <age>

NAME                         DESIRED   CURRENT   READY   AGE
replicaset.apps/web-<hash>   2         2         2       <age>`;

/** Key lines of `get deploy web -o yaml` on a real cluster (other lines may come between). */
const WEB_YAML = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  annotations:',
  '    deployment.kubernetes.io/revision: "1"',
  '  creationTimestamp: "<time>"',
  '  generation: 1',
  '  labels:',
  '    app: web',
  '  name: web',
  '  namespace: <ns>',
  '  resourceVersion: "<rv>"',
  '  uid: <uid>',
  'spec:',
  '  progressDeadlineSeconds: 600',
  '  replicas: 2',
  '  revisionHistoryLimit: 10',
  '  selector:',
  '    matchLabels:',
  '      app: web',
  '  strategy:',
  '    rollingUpdate:',
  '      maxSurge: 25%',
  '      maxUnavailable: 25%',
  '    type: RollingUpdate',
  '  template:',
  '    metadata:',
  '      labels:',
  '        app: web',
  '    spec:',
  '      containers:',
  '      - image: nginx:1.25',
  '        imagePullPolicy: IfNotPresent',
  '        name: nginx',
  '        resources: {}',
  '        terminationMessagePath: /dev/termination-log',
  '        terminationMessagePolicy: File',
  '      dnsPolicy: ClusterFirst',
  '      restartPolicy: Always',
  '      schedulerName: default-scheduler',
  '      securityContext: {}',
  '      terminationGracePeriodSeconds: 30',
  'status:',
  '  availableReplicas: 2',
  '  conditions:',
  '  - lastTransitionTime: "<time>"',
  '    lastUpdateTime: "<time>"',
  '    message: Deployment has minimum availability.',
  '    reason: MinimumReplicasAvailable',
  '    status: "True"',
  '    type: Available',
  '  - lastTransitionTime: "<time>"',
  '    lastUpdateTime: "<time>"',
  '    message: ReplicaSet "web-<hash>" has successfully progressed.',
  '    reason: NewReplicaSetAvailable',
  '    status: "True"',
  '    type: Progressing',
  '  observedGeneration: 1',
  '  readyReplicas: 2',
  '  replicas: 2',
  '  updatedReplicas: 2',
];

export const getChecks: Check[] = [
  {
    name: 'get',
    async run(c) {
      expectText(await c.out(['get', 'deploy', 'web']), 'NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb   2/2   2   2   <age>');
      expectText(
        await c.out(['get', 'svc', 'web']),
        'NAME   TYPE   CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\nweb   ClusterIP   <ip>   <none>   80/TCP   <age>',
      );
      expectText(await c.out(['get', 'cm', 'settings']), 'NAME   DATA   AGE\nsettings   2   <age>');
    },
  },
  {
    name: 'get -o wide',
    async run(c) {
      expectText(
        await c.out(['get', 'deploy', 'web', '-o', 'wide']),
        'NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES   SELECTOR\nweb   2/2   2   2   <age>   nginx   nginx:1.25   app=web',
      );
      expectText(await c.out(['get', 'pods', '-l', 'app=web', '-o', 'wide']), WEB_PODS_WIDE);
    },
  },
  {
    name: 'get all',
    run: async (c) => expectText(await c.out(['get', 'all']), GET_ALL),
  },
  {
    name: 'get -o yaml',
    async run(c) {
      const out = await c.out(['get', 'deploy', 'web', '-o', 'yaml']);
      expectLines(out, WEB_YAML);
      expectAbsent(out, 'managedFields');
    },
  },
  {
    name: 'get -o json',
    async run(c) {
      const { stdout } = await c.ok(['get', 'deploy', 'web', '-o', 'json']);
      expectLines(stdout, ['{', '    "apiVersion": "apps/v1",', '    "kind": "Deployment",', '    "metadata": {']);
      const object = JSON.parse(stdout);
      expectEqual([object.spec.replicas, object.status.readyReplicas, object.metadata.managedFields], [2, 2, undefined], 'replicas, ready, managedFields');
      const list = JSON.parse((await c.ok(['get', 'cm', '-l', 'group=files', '-o', 'json'])).stdout);
      expectEqual([list.kind, list.apiVersion, list.items.map((item: { kind: string }) => item.kind)], ['List', 'v1', ['ConfigMap', 'ConfigMap']], 'list');
    },
  },
  {
    name: 'get -o jsonpath',
    async run(c) {
      expectText(await c.out(['get', 'deploy', 'web', '-o', 'jsonpath={.metadata.name} {.spec.replicas} {.status.readyReplicas}']), 'web 2 2');
      expectText(
        await c.out(['get', 'cm', '-l', 'group=files', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.data.rank}{"\\n"}{end}']),
        'files-a=2\nfiles-b=1',
      );
    },
  },
  {
    name: 'get -o custom-columns',
    async run(c) {
      const columns = 'NAME:.metadata.name,REPLICAS:.spec.replicas,IMAGE:.spec.template.spec.containers[*].image';
      expectText(await c.out(['get', 'deploy', 'web', '-o', `custom-columns=${columns}`]), 'NAME   REPLICAS   IMAGE\nweb   2   nginx:1.25');
    },
  },
  {
    name: 'get -o name',
    run: async (c) => expectText(await c.out(['get', 'deploy,svc', '-o', 'name']), 'deployment.apps/web\nservice/web'),
  },
  {
    name: 'get --sort-by',
    async run(c) {
      expectText(await c.out(['get', 'cm', '-l', 'group=files', '--sort-by=.data.rank']), 'NAME   DATA   AGE\nfiles-b   1   <age>\nfiles-a   1   <age>');
    },
  },
  {
    name: 'get (not found)',
    async run(c) {
      const missing = await c.kubectl(['get', 'deploy', 'missing']);
      expectEqual(missing.code, 1, 'exit code');
      expectText(missing.stderr, 'Error from server (NotFound): deployments.apps "missing" not found', 'stderr');
    },
  },
  {
    name: 'get -w',
    async run(c) {
      // The change waits until kubectl's watch is open (see KubectlWatch.watching; -v=6 writes
      // only to stderr, the compared stdout is unchanged).
      const watch = c.watch(['get', 'cm', 'files-a', '-w', '-v=6']);
      try {
        await watch
          .waitFor((lines) => lines.length >= 2)
          .catch(() => {
            throw new CheckFailure(`get -w printed ${JSON.stringify(c.normalise(watch.lines().join('\n') + watch.stderr()))}`);
          });
        await watch.watching().catch(() => {
          throw new CheckFailure(`get -w never opened its watch: ${JSON.stringify(watch.stderr().slice(-500))}`);
        });
        const patched = await c.api.patch(`${paths.configMaps(c.ns)}/files-a`, { data: { extra: 'yes' } });
        if (patched.status !== 200) throw new Error(`patch files-a: ${patched.status}`);
        await watch
          .waitFor((lines) => lines.length >= 3)
          .catch(() => {
            throw new CheckFailure('get -w printed no row for the change');
          });
      } finally {
        await watch.stop();
      }
      expectText(c.normalise(watch.lines().join('\n')), 'NAME   DATA   AGE\nfiles-a   1   <age>\nfiles-a   2   <age>');
    },
  },
];
