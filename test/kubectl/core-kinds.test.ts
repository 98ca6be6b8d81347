/**
 * The real kubectl against the core/v1 kinds every cluster serves besides pods and services:
 * ReplicationControllers run by the `replicationcontroller` loop in a `kubesim controller`
 * process (with the resourcequota loop and the garbage collector, as the shared
 * controller-manager runs them), `scale rc`, `create quota` (its status kept current), LimitRanges, PodTemplates, `get cs`, `explain`, `apply --prune -l`
 * (whose default list includes replicationcontrollers) and `cluster-info dump`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { tableRows, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const rcYaml = (name: string, replicas: number, labels = '') => `apiVersion: v1
kind: ReplicationController
metadata:
  name: ${name}${labels ? `\n  labels: {${labels}}` : ''}
spec:
  replicas: ${replicas}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - {name: nginx, image: nginx:1.27}
`;

describe.each(binaries)('$label: core/v1 ReplicationController, quota, limits, cs', (binary) => {
  const k = useKubectlCluster(binary);
  beforeAll(() => {
    spawnKubesim(['controller', 'replicationcontroller,resourcequota,garbage-collector', '--kubeconfig', k.cluster().kubeconfigPath, '--log-level', 'warn']);
  });
  afterAll(async () => {
    await stopAllKubesim();
  });

  const podsOf = async (app: string, namespace = 'default') =>
    (await k.json(['pods', '-l', `app=${app}`, '-n', namespace])).items as Array<{ metadata: Record<string, any> }>;

  it('runs a ReplicationController: pods owned by it, scale rc, -o wide columns, deletion takes the pods', async () => {
    expect((await k.apply(rcYaml('web', 2))).stdout).toBe('replicationcontroller/web created\n');
    await eventually(async () => expect(await podsOf('web')).toHaveLength(2), { timeoutMs: 30_000 });
    const rc = await k.json(['rc', 'web']);
    expect(rc.spec.selector).toEqual({ app: 'web' });
    for (const pod of await podsOf('web')) {
      expect(pod.metadata['ownerReferences']).toEqual([
        { apiVersion: 'v1', kind: 'ReplicationController', name: 'web', uid: rc.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    expect((await k.ok(['scale', 'rc', 'web', '--replicas=3'])).stdout).toBe('replicationcontroller/web scaled\n');
    await eventually(async () => expect(tableRows((await k.ok(['get', 'rc', 'web'])).stdout)[1]?.slice(0, 3)).toEqual(['web', '3', '3']), {
      timeoutMs: 30_000,
    });
    const wide = tableRows((await k.ok(['get', 'rc', '-o', 'wide'])).stdout);
    expect(wide[0]).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(wide[1]?.slice(5)).toEqual(['nginx', 'nginx:1.27', 'app=web']);
    await k.ok(['delete', 'rc', 'web']);
    await eventually(async () => expect(await podsOf('web')).toHaveLength(0), { timeoutMs: 30_000 });
  });

  it('create quota makes the ResourceQuota `get quota` prints', async () => {
    const created = await k.ok(['create', 'quota', 'compute', '--hard=pods=4,requests.cpu=1,limits.memory=1Gi', '--scopes=NotBestEffort']);
    expect(created.stdout).toBe('resourcequota/compute created\n');
    const quota = await k.json(['quota', 'compute']);
    expect(quota.spec).toEqual({ hard: { pods: '4', 'requests.cpu': '1', 'limits.memory': '1Gi' }, scopes: ['NotBestEffort'] });
    expect(tableRows((await k.ok(['get', 'quota'])).stdout)[0]).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    // The quota controller counts the pods that are not best-effort, with their requests and limits.
    await k.apply(`apiVersion: v1
kind: Pod
metadata: {name: counted}
spec:
  containers:
  - {name: app, image: nginx:1.27, resources: {requests: {cpu: 250m, memory: 256Mi}, limits: {memory: 512Mi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: best-effort}
spec:
  containers: [{name: app, image: nginx:1.27}]
`);
    await eventually(async () => {
      const row = tableRows((await k.ok(['get', 'quota', 'compute'])).stdout)[1];
      expect([row?.[0], ...(row?.slice(2) ?? [])]).toEqual(['compute', 'pods: 1/4, requests.cpu: 250m/1', 'limits.memory: 512Mi/1Gi']);
    });
    await k.ok(['delete', 'pod', 'counted', 'best-effort', '--grace-period=0', '--force']);
    // A quota on cpu or memory refuses pods that do not state them.
    const unstated = await k.run([
      'run',
      'unstated',
      '--image=nginx:1.27',
      '--overrides={"spec":{"containers":[{"name":"unstated","image":"nginx:1.27","resources":{"requests":{"cpu":"1m"}}}]}}',
    ]);
    expect(unstated.stderr).toBe(
      'Error from server (Forbidden): pods "unstated" is forbidden: failed quota: compute: must specify limits.memory for: unstated\n',
    );
    await k.ok(['delete', 'quota', 'compute']);
    const rejected = await k.run(['create', 'quota', 'bad', '--hard=gadgets=1']);
    expect(rejected.stderr).toContain('spec.hard[gadgets]: Invalid value: "gadgets": must be a standard resource for quota');
  });

  it("refuses creates past a quota with kube-apiserver's message, also to the ReplicationController loop", async () => {
    await k.ok(['create', 'namespace', 'capped']);
    await k.ok(['create', 'quota', 'two-pods', '--hard=pods=2', '-n', 'capped']);
    // Until the quota controller has filled its status, the quota refuses what it limits.
    await eventually(async () => expect((await k.json(['quota', 'two-pods', '-n', 'capped'])).status?.hard).toEqual({ pods: '2' }));
    await k.ok(['apply', '-n', 'capped', '-f', '-'], { stdin: rcYaml('capped', 3) });
    await eventually(
      async () => expect(tableRows((await k.ok(['get', 'rc', 'capped', '-n', 'capped'])).stdout)[1]?.slice(0, 3)).toEqual(['capped', '3', '2']),
      {
        timeoutMs: 30_000,
      },
    );
    const refused = await k.run(['run', 'extra', '--image=nginx:1.27', '-n', 'capped']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toBe(
      'Error from server (Forbidden): pods "extra" is forbidden: exceeded quota: two-pods, requested: pods=1, used: pods=2, limited: pods=2\n',
    );
    await eventually(async () => {
      const events = (await k.ok(['get', 'events', '-n', 'capped', '--field-selector', 'reason=FailedCreate', '-o', 'jsonpath={.items[*].message}'])).stdout;
      expect(events).toContain('is forbidden: exceeded quota: two-pods, requested: pods=1, used: pods=2, limited: pods=2');
    });
    expect(await podsOf('capped', 'capped')).toHaveLength(2);
  });

  it('serves LimitRanges (limits) whose defaults new pods get, and PodTemplates, with their columns', async () => {
    await k.apply(`apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - {type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}}
---
apiVersion: v1
kind: PodTemplate
metadata: {name: tpl}
template:
  metadata: {labels: {app: tpl}}
  spec:
    containers: [{name: app, image: busybox:1.36}]
`);
    const limits = tableRows((await k.ok(['get', 'limits'])).stdout);
    expect(limits[0]).toEqual(['NAME', 'CREATED AT']);
    expect(limits[1]?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(tableRows((await k.ok(['get', 'podtemplates'])).stdout)).toEqual([
      ['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS'],
      ['tpl', 'app', 'busybox:1.36', 'app=tpl'],
    ]);
    // The LimitRanger fills a new pod's missing requests and limits and says so.
    await k.ok(['run', 'limited', '--image=nginx:1.27']);
    const limited = await k.json(['pod', 'limited']);
    expect(limited.spec.containers[0].resources).toEqual({ requests: { cpu: '100m' }, limits: { cpu: '500m' } });
    expect(limited.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container limited; cpu limit for container limited',
    );
    expect(limited.status.qosClass).toBe('Burstable');
    await k.ok(['delete', 'pod', 'limited', '--grace-period=0', '--force']);
    // …and refuses one past a maximum.
    await k.ok(['create', 'namespace', 'bounded']);
    await k.ok(['apply', '-n', 'bounded', '-f', '-'], {
      stdin: 'apiVersion: v1\nkind: LimitRange\nmetadata: {name: max}\nspec:\n  limits:\n  - {type: Container, max: {cpu: "1"}}\n',
    });
    const big = '{"spec":{"containers":[{"name":"big","image":"nginx:1.27","resources":{"limits":{"cpu":"2"}}}]}}';
    const refused = await k.run(['run', 'big', '--image=nginx:1.27', '-n', 'bounded', `--overrides=${big}`]);
    expect(refused.stderr).toBe('Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2\n');
    const bad = await k.run(['apply', '-f', '-'], {
      stdin: 'apiVersion: v1\nkind: LimitRange\nmetadata: {name: bad}\nspec:\n  limits:\n  - {type: Container, min: {cpu: "2"}, max: {cpu: "1"}}\n',
    });
    expect(bad.stderr).toContain('spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1');
  });

  it('get cs reports the controller-manager process healthy and a missing scheduler unhealthy', async () => {
    await eventually(async () => {
      const result = await k.ok(['get', 'cs']);
      expect(result.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
      const rows = tableRows(result.stdout);
      expect(rows[0]).toEqual(['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
      expect(rows.find((row) => row[0] === 'controller-manager')).toEqual(['controller-manager', 'Healthy', 'ok']);
      expect(rows.find((row) => row[0] === 'etcd-0')).toEqual(['etcd-0', 'Healthy', 'ok']);
      expect(rows.find((row) => row[0] === 'scheduler')?.[1]).toBe('Unhealthy');
    });
  });

  it('explains the new kinds', async () => {
    expect((await k.ok(['explain', 'rc.spec.selector'])).stdout).toMatch(/FIELD: selector <map\[string\]string>/);
    expect((await k.ok(['explain', 'quota.spec.hard'])).stdout).toMatch(/FIELD: hard <map\[string\]Quantity>/);
    expect((await k.ok(['explain', 'limitrange.spec.limits.type'])).stdout).toMatch(/FIELD: type <string>/);
    expect((await k.ok(['explain', 'podtemplate.template'])).stdout).toMatch(/FIELD: template <PodTemplateSpec>/);
  });

  it('apply --prune -l removes a labelled ReplicationController left out of the manifest', async () => {
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept, labels: {bundle: demo}}\ndata: {k: v}\n';
    const allowlist = ['--prune-allowlist=core/v1/ConfigMap', '--prune-allowlist=core/v1/ReplicationController'];
    await k.ok(['apply', '-l', 'bundle=demo', '--prune', ...allowlist, '-f', '-'], { stdin: `${configMap}---\n${rcYaml('pruned', 0, 'bundle: demo')}` });
    const pruned = await k.ok(['apply', '-l', 'bundle=demo', '--prune', ...allowlist, '-f', '-'], { stdin: configMap });
    expect(pruned.stdout).toContain('replicationcontroller/pruned pruned');
    // kubectl's default prune list (replicationcontrollers and ingresses included) is served
    // whole; test/kubectl/bundle.test.ts prunes every kind of it with the chart-style bundle.
    const byDefault = await k.run(['apply', '-l', 'bundle=demo', '--prune', '-f', '-'], { stdin: configMap });
    expect(byDefault.code, byDefault.stderr).toBe(0);
  });

  it('cluster-info dump completes, replicationcontrollers included', async () => {
    const dump = await k.ok(['cluster-info', 'dump', '--namespaces=default'], { timeoutMs: 60_000 });
    expect(dump.stdout).toContain('"kind": "ReplicationControllerList"');
  });
});
