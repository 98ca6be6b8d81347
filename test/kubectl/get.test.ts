/**
 * The real kubectl reading from a kubesim cluster: version, discovery, tables, output
 * formats, explain and NotFound errors — asserted on what kubectl prints.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, needsOpenApiV2, requireKubectl } from '../support/kubectl.js';
import { configMapYaml, deploymentYaml, namespaceYaml, tableRows, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: get and discovery', (binary) => {
  const k = useKubectlCluster(binary);

  it('version prints the server version', async () => {
    const { stdout } = await k.ok(['version']);
    if (binary.minor >= 28) {
      expect(stdout).toMatch(/^Client Version: v1\.\d+\.\d+/m);
      expect(stdout).toMatch(/^Server Version: v1\.33\.0$/m);
    } else {
      // Before 1.28 kubectl printed the Go struct.
      expect(stdout).toMatch(/^Server Version: version\.Info\{Major:"1", Minor:"33", GitVersion:"v1\.33\.0"/m);
    }
  });

  it('api-resources lists the served resources in their preferred versions', async () => {
    const { stdout } = await k.ok(['api-resources']);
    const rows = tableRows(stdout);
    expect(rows[0]).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    expect(rows).toContainEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    expect(rows).toContainEqual(['replicasets', 'rs', 'apps/v1', 'true', 'ReplicaSet']);
    expect(rows).toContainEqual(['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 'true', 'HorizontalPodAutoscaler']);
    expect(rows).toContainEqual(['pods', 'po', 'v1', 'true', 'Pod']);
    expect(rows).toContainEqual(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(rows).toContainEqual(['nodes', 'no', 'v1', 'false', 'Node']);
    // Subresources are not rows of their own.
    expect(stdout).not.toMatch(/deployments\/scale|pods\/log/);
  });

  it('short names resolve; empty types print "No resources found"', async () => {
    await k.apply(namespaceYaml('short'));
    const empty = await k.ok(['get', 'deploy,rs,po,hpa', '-n', 'short']);
    expect(empty.stdout).toBe('');
    expect(empty.stderr.trim()).toBe('No resources found in short namespace.');

    await k.apply(`${deploymentYaml('short')}---\n${NODE_SHORT}`.replace('  name: short\n', '  name: short\n  namespace: short\n'));
    const { stdout } = await k.ok(['get', 'deploy,rs,po,no,hpa', '-n', 'short']);
    expect(stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/short\s+0\/2\s+0\s+0\s+\d+s\n\n/);
    expect(stdout).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n(.*\n)*node\/node-short\s+Unknown\s+<none>\s+\d+s/m);
  });

  it('get deployments prints the deployment table, -o wide adds containers, images and selector', async () => {
    await k.apply(deploymentYaml('table', { image: 'nginx:1.26' }));
    const plain = tableRows((await k.ok(['get', 'deployments', 'table'])).stdout);
    expect(plain).toEqual([
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      ['table', '0/2', '0', '0', expect.stringMatching(/^\d+s$/)],
    ]);
    const wide = tableRows((await k.ok(['get', 'deployments', 'table', '-o', 'wide'])).stdout);
    expect(wide[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(wide[1]).toEqual(['table', '0/2', '0', '0', expect.any(String), 'nginx', 'nginx:1.26', 'app=table']);
  });

  it('get pods, services, configmaps, namespaces and nodes print their tables', async () => {
    await k.ok(['create', '-f', '-'], { stdin: POD_AND_NODE });
    await k.apply(configMapYaml('tables', { a: '1', b: '2' }));
    await k.apply(SERVICE);

    const pods = tableRows((await k.ok(['get', 'pods', 'solo', '-o', 'wide'])).stdout);
    expect(pods[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(pods[1]).toEqual(['solo', '0/1', 'Pending', '0', expect.any(String), '<none>', '<none>', '<none>', '<none>']);

    const services = tableRows((await k.ok(['get', 'svc'])).stdout);
    expect(services[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    expect(services).toContainEqual(['kubernetes', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP', expect.any(String)]);
    expect(services).toContainEqual(['tables', 'ClusterIP', expect.stringMatching(/^10\.\d+\.\d+\.\d+$/), '<none>', '80/TCP', expect.any(String)]);

    const configMaps = tableRows((await k.ok(['get', 'cm', 'tables'])).stdout);
    expect(configMaps).toEqual([
      ['NAME', 'DATA', 'AGE'],
      ['tables', '2', expect.any(String)],
    ]);

    const namespaces = tableRows((await k.ok(['get', 'ns'])).stdout);
    expect(namespaces[0]).toEqual(['NAME', 'STATUS', 'AGE']);
    expect(namespaces.map((row) => row.slice(0, 2))).toEqual(
      expect.arrayContaining([
        ['default', 'Active'],
        ['kube-system', 'Active'],
      ]),
    );

    const nodes = (await k.ok(['get', 'no'])).stdout;
    expect(nodes).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
    // No Ready condition yet: kubectl shows the node as Unknown; roles come from node-role labels.
    expect(nodes).toMatch(/^node-a\s+Unknown\s+control-plane\s+\d+s\s*$/m);
  });

  it('-A adds the NAMESPACE column; --show-labels and -l filter and show labels', async () => {
    await k.apply(deploymentYaml('labelled', { labels: { app: 'labelled', tier: 'front' } }));
    await k.apply(deploymentYaml('other'));

    const all = tableRows((await k.ok(['get', 'deploy', '-A'])).stdout);
    expect(all[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(all).toContainEqual(['default', 'labelled', '0/2', '0', '0', expect.any(String)]);

    const allServices = tableRows((await k.ok(['get', 'svc', '--all-namespaces'])).stdout);
    expect(allServices).toContainEqual(['default', 'kubernetes', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP', expect.any(String)]);

    const shown = tableRows((await k.ok(['get', 'deploy', 'labelled', '--show-labels'])).stdout);
    expect(shown[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'LABELS']);
    expect(shown[1]?.[5]).toBe('app=labelled,tier=front');

    const selected = tableRows((await k.ok(['get', 'deploy', '-l', 'tier=front'])).stdout);
    expect(selected.map((row) => row[0])).toEqual(['NAME', 'labelled']);
    const none = await k.ok(['get', 'deploy', '-l', 'tier=back']);
    expect(none.stdout).toBe('');
    expect(none.stderr.trim()).toBe('No resources found in default namespace.');
  });

  it('--sort-by sorts on fields of the full objects (includeObject=Object)', async () => {
    const order = { 'sort-c': '1', 'sort-a': '3', 'sort-b': '2' };
    for (const [name, rank] of Object.entries(order)) await k.apply(configMapYaml(name, { rank }));
    const byName = tableRows((await k.ok(['get', 'cm', '--sort-by=.metadata.name'])).stdout).map((row) => row[0]);
    expect(byName.filter((name) => name?.startsWith('sort-'))).toEqual(['sort-a', 'sort-b', 'sort-c']);
    // A field outside metadata proves the rows carry the full objects.
    const byData = tableRows((await k.ok(['get', 'cm', '-l', 'missing!=x', '--sort-by=.data.rank'])).stdout).map((row) => row[0]);
    expect(byData.filter((name) => name?.startsWith('sort-'))).toEqual(['sort-c', 'sort-b', 'sort-a']);
  });

  it('get --chunk-size pages through the list with continue tokens', async () => {
    await k.apply(namespaceYaml('paged'));
    for (const name of ['page-1', 'page-2', 'page-3']) await k.ok(['apply', '-n', 'paged', '-f', '-'], { stdin: configMapYaml(name) });
    const rows = tableRows((await k.ok(['get', 'cm', '-n', 'paged', '--chunk-size=1'])).stdout);
    expect(rows.map((row) => row[0])).toEqual(['NAME', 'page-1', 'page-2', 'page-3']);
  });

  it('get -o yaml and -o json print the full object with kind and apiVersion', async () => {
    await k.apply(deploymentYaml('yaml', { replicas: 3, image: 'nginx:1.27' }));
    const { stdout } = await k.ok(['get', 'deploy', 'yaml', '-o', 'yaml']);
    expect(stdout).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
    expect(stdout).toMatch(/^ {2}name: yaml$/m);
    expect(stdout).toMatch(/^ {2}namespace: default$/m);
    expect(stdout).toMatch(/^ {2}uid: [0-9a-f-]{36}$/m);
    expect(stdout).toMatch(/^ {2}resourceVersion: "\d+"$/m);
    expect(stdout).toMatch(/^ {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
    expect(stdout).toMatch(/^ {2}replicas: 3$/m);
    expect(stdout).toMatch(/^ {6}- image: nginx:1\.27$/m);

    const list = await k.json(['deploy']);
    expect(list.kind).toBe('List');
    const item = list.items.find((d: any) => d.metadata.name === 'yaml');
    expect(item).toMatchObject({ kind: 'Deployment', apiVersion: 'apps/v1', spec: { replicas: 3 } });
    // Server-side defaults are visible.
    expect(item.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    expect(item.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80, protocol: 'TCP' }] });
  });

  it('get -o jsonpath and -o name', async () => {
    await k.apply(configMapYaml('jp', { color: 'blue' }));
    expect((await k.ok(['get', 'cm', 'jp', '-o', 'jsonpath={.data.color}'])).stdout).toBe('blue');
    expect((await k.ok(['get', 'cm', 'jp', '-o', 'name'])).stdout).toBe('configmap/jp\n');
  });

  it('get of a missing object is NotFound', async () => {
    const result = await k.run(['get', 'deploy', 'nope']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe('Error from server (NotFound): deployments.apps "nope" not found');
    const core = await k.run(['get', 'cm', 'nope']);
    expect(core.stderr.trim()).toBe('Error from server (NotFound): configmaps "nope" not found');
  });

  it('get of an unknown resource type fails client-side', async () => {
    const result = await k.run(['get', 'widgets']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the server doesn't have a resource type "widgets"`);
  });

  it('get events prints No resources found, then the event table', async () => {
    await k.apply(namespaceYaml('events-ns'));
    const empty = await k.ok(['get', 'events', '-n', 'events-ns']);
    expect(empty.stderr.trim()).toBe('No resources found in events-ns namespace.');
    await k.ok(['create', '-f', '-'], { stdin: EVENT });
    const rows = tableRows((await k.ok(['get', 'events', '-n', 'events-ns'])).stdout);
    expect(rows[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    // No timestamps in the Event: LAST SEEN is <unknown>, as kube-apiserver prints it.
    expect(rows[1]).toEqual(['<unknown>', 'Warning', 'Testing', 'pod/solo', 'hello from the test']);
    if (binary.minor < 26) return; // `kubectl events` arrived in 1.26.
    const events = await k.ok(['events', '-n', 'events-ns']);
    expect(events.stdout).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n.*Warning\s+Testing\s+Pod\/solo\s+hello from the test$/m);
  });

  // kubectl < 1.27 explains from the protobuf /openapi/v2, which kubesim does not serve.
  it.skipIf(needsOpenApiV2(binary))('explain prints the schema of a field with typed FIELDS', async () => {
    const strategy = (await k.ok(['explain', 'deployment.spec.strategy'])).stdout;
    expect(strategy).toMatch(/^GROUP:\s+apps$/m);
    expect(strategy).toMatch(/^KIND:\s+Deployment$/m);
    expect(strategy).toMatch(/^VERSION:\s+v1$/m);
    expect(strategy).toMatch(/^FIELD: strategy <DeploymentStrategy>$/m);
    expect(strategy).toMatch(/^DESCRIPTION:$/m);
    expect(strategy).toMatch(/^FIELDS:\n {2}rollingUpdate\t<RollingUpdateDeployment>$/m);
    expect(strategy).toMatch(/^ {2}type\t<string>$/m);

    const containers = (await k.ok(['explain', 'pod.spec.containers'])).stdout;
    expect(containers).toMatch(/^KIND:\s+Pod$/m);
    expect(containers).toMatch(/^FIELD: containers <\[\]Container>$/m);
    expect(containers).toMatch(/^ {2}image\t<string>$/m);
    expect(containers).toMatch(/^ {2}name\t<string> -required-$/m);
    expect(containers).toMatch(/^ {2}ports\t<\[\]ContainerPort>$/m);
    expect(containers).toMatch(/^ {2}env\t<\[\]EnvVar>$/m);
  });
});

const POD_AND_NODE = `apiVersion: v1
kind: Pod
metadata:
  name: solo
  labels:
    app: solo
spec:
  containers:
  - name: c
    image: busybox:1.36
---
apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels:
    node-role.kubernetes.io/control-plane: ""
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: tables
spec:
  selector:
    app: tables
  ports:
  - port: 80
`;

const NODE_SHORT = `apiVersion: v1
kind: Node
metadata:
  name: node-short
`;

const EVENT = `apiVersion: v1
kind: Event
metadata:
  name: solo.1
  namespace: events-ns
involvedObject:
  kind: Pod
  name: solo
  namespace: events-ns
reason: Testing
message: hello from the test
type: Warning
source:
  component: kubectl-test
`;
