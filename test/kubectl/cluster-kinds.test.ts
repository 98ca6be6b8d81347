/**
 * The networking, scheduling, node and storage kinds through every kubectl: `create
 * priorityclass` and `create ingress` (protobuf bodies from kubectl ≥ 1.32), a bundle of
 * every kind applied with default validation, the bootstrap classes, the columns `get`
 * prints, kube-apiserver's validation messages, and `explain`.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl, tableLineOf } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const BUNDLE = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
spec:
  ingressClassName: nginx
  tls:
  - hosts: [shop.example.com]
    secretName: shop-tls
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: shop
            port:
              number: 80
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: shop-ingress
spec:
  podSelector:
    matchLabels:
      app: shop
  ingress:
  - from:
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: default
    ports:
    - port: 8080
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: shop-high
value: 100000
description: Shop pods.
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: gvisor
handler: runsc
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: example.com/fast
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: fast.csi.example.com
spec:
  podInfoOnMount: true
`;

const lineOf = tableLineOf;

describe.each(binaries)('$label: networking, scheduling, node and storage kinds', (binary) => {
  const k = useKubectlCluster(binary);

  it('lists the kinds in api-resources as a 1.33 cluster does', async () => {
    const { stdout } = await k.ok(['api-resources']);
    const rows = stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    for (const row of [
      'ingressclasses networking.k8s.io/v1 false IngressClass',
      'ingresses ing networking.k8s.io/v1 true Ingress',
      'networkpolicies netpol networking.k8s.io/v1 true NetworkPolicy',
      'runtimeclasses node.k8s.io/v1 false RuntimeClass',
      'priorityclasses pc scheduling.k8s.io/v1 false PriorityClass',
      'csidrivers storage.k8s.io/v1 false CSIDriver',
      'csinodes storage.k8s.io/v1 false CSINode',
      'csistoragecapacities storage.k8s.io/v1 true CSIStorageCapacity',
      'storageclasses sc storage.k8s.io/v1 false StorageClass',
      'volumeattachments storage.k8s.io/v1 false VolumeAttachment',
    ]) {
      expect(rows).toContain(row);
    }
  });

  it('starts with the system PriorityClasses and the default StorageClass', async () => {
    const classes = await k.ok(['get', 'priorityclasses']);
    expect(classes.stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim()).toBe('NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY');
    expect(classes.stdout).toMatch(/system-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority/);
    expect(classes.stdout).toMatch(/system-node-critical\s+2000001000\s+false\s+\S+\s+PreemptLowerPriority/);
    const storage = await k.ok(['get', 'sc']);
    expect(storage.stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim()).toBe('NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE');
    expect(storage.stdout).toMatch(/standard \(default\)\s+kubesim\.io\/simulated\s+Delete\s+Immediate\s+false/);
  });

  it('create priorityclass makes the class kubectl asked for', async () => {
    const created = await k.ok(['create', 'priorityclass', 'batch-low', '--value=10', '--description=Batch jobs', '--preemption-policy=Never']);
    expect(created.stdout).toBe('priorityclass.scheduling.k8s.io/batch-low created\n');
    expect(await k.json(['pc', 'batch-low'])).toMatchObject({ value: 10, description: 'Batch jobs', preemptionPolicy: 'Never' });
    const system = await k.run(['delete', 'pc', 'system-node-critical']);
    expect(system.code).toBe(1);
    expect(system.stderr).toContain(
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
    const changed = await k.run(['patch', 'pc', 'batch-low', '--type=merge', '-p', '{"value":20}']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('value: Forbidden: may not be changed in an update.');
  });

  it('create ingress makes the Ingress its rules describe, with an empty status', async () => {
    const created = await k.ok(['create', 'ingress', 'web', '--class=nginx', '--rule=foo.com/bar*=svc1:8080', '--rule=bar.com/admin=svc2:http,tls=my-cert']);
    expect(created.stdout).toBe('ingress.networking.k8s.io/web created\n');
    const web = await k.json(['ingress', 'web']);
    expect(web.spec).toEqual({
      ingressClassName: 'nginx',
      rules: [
        { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Prefix', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
        { host: 'bar.com', http: { paths: [{ path: '/admin', pathType: 'Exact', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
      ],
      tls: [{ hosts: ['bar.com'], secretName: 'my-cert' }],
    });
    expect(web.status).toEqual({ loadBalancer: {} });
    const table = await k.ok(['get', 'ing', 'web']);
    expect(table.stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim()).toBe('NAME CLASS HOSTS ADDRESS PORTS AGE');
    expect(lineOf(table.stdout, 'web')).toBe('web nginx foo.com,bar.com 80, 443 <age>');
  });

  it('applies a bundle of every kind with default validation, prints it and deletes it', async () => {
    const applied = await k.apply(BUNDLE);
    expect(applied.stdout.trim().split('\n')).toEqual([
      'ingressclass.networking.k8s.io/nginx created',
      'ingress.networking.k8s.io/shop created',
      'networkpolicy.networking.k8s.io/shop-ingress created',
      'priorityclass.scheduling.k8s.io/shop-high created',
      'runtimeclass.node.k8s.io/gvisor created',
      'storageclass.storage.k8s.io/fast created',
      'csidriver.storage.k8s.io/fast.csi.example.com created',
    ]);
    expect(lineOf((await k.ok(['get', 'ingressclass'])).stdout, 'nginx')).toBe('nginx k8s.io/ingress-nginx <none> <age>');
    expect(lineOf((await k.ok(['get', 'netpol'])).stdout, 'shop-ingress')).toBe('shop-ingress app=shop <age>');
    expect(lineOf((await k.ok(['get', 'runtimeclass'])).stdout, 'gvisor')).toBe('gvisor runsc <age>');
    expect(lineOf((await k.ok(['get', 'sc'])).stdout, 'fast')).toBe('fast example.com/fast Delete Immediate true <age>');
    expect(lineOf((await k.ok(['get', 'csidrivers'])).stdout, 'fast.csi.example.com')).toBe(
      'fast.csi.example.com true true false <unset> false Persistent <age>',
    );
    expect((await k.json(['netpol', 'shop-ingress'])).spec).toMatchObject({
      policyTypes: ['Ingress'],
      ingress: [{ ports: [{ port: 8080, protocol: 'TCP' }] }],
    });
    expect((await k.apply(BUNDLE)).stdout).toContain('ingress.networking.k8s.io/shop unchanged');
    const deleted = await k.ok(['delete', '-f', '-'], { stdin: BUNDLE });
    expect(deleted.stdout.trim().split('\n')).toHaveLength(7);
  });

  it('rejects what kube-apiserver rejects, in its words', async () => {
    const noPathType = await k.run(['apply', '-f', '-'], {
      stdin: BUNDLE.split('---\n')[1]!.replace('        pathType: Prefix\n', '').replace('name: shop', 'name: no-path-type'),
    });
    expect(noPathType.code).toBe(1);
    expect(noPathType.stderr).toContain('spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified');
    const both = await k.run(['apply', '-f', '-'], {
      stdin: BUNDLE.split('---\n')[1]!
        .replace('name: shop', 'name: two-backends')
        .replace('              number: 80\n', '              number: 80\n          resource: {kind: Bucket, name: b}\n'),
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both resource and service backends');
    const reserved = await k.run(['create', 'priorityclass', 'system-mine', '--value=5']);
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toContain(
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    );
  });

  it('describes the kinds', async () => {
    await k.apply(BUNDLE);
    const ingress = (await k.ok(['describe', 'ingress', 'shop'])).stdout;
    expect(ingress).toMatch(/^Ingress Class:\s+nginx$/m);
    expect(ingress).toMatch(/^\s+shop\.example\.com\s*$/m);
    expect((await k.ok(['describe', 'netpol', 'shop-ingress'])).stdout).toMatch(/^\s+PodSelector:\s+app=shop$/m);
    expect((await k.ok(['describe', 'sc', 'standard'])).stdout).toMatch(/^IsDefaultClass:\s+Yes$/m);
    expect((await k.ok(['describe', 'pc', 'shop-high'])).stdout).toMatch(/^Value:\s+100000$/m);
    await k.ok(['delete', '-f', '-'], { stdin: BUNDLE });
  });

  it('explains the kinds from their OpenAPI schemas', async () => {
    const explained = await k.ok(['explain', 'ingress.spec.rules.http.paths.pathType']);
    expect(explained.stdout).toContain('KIND:       Ingress');
    expect(explained.stdout).toContain('FIELD: pathType <string>');
    expect((await k.ok(['explain', 'storageclass.volumeBindingMode'])).stdout).toContain('KIND:       StorageClass');
    for (const kind of ['IngressClass', 'NetworkPolicy', 'RuntimeClass', 'PriorityClass', 'CSIDriver', 'CSINode', 'VolumeAttachment', 'CSIStorageCapacity']) {
      expect((await k.ok(['explain', kind.toLowerCase()])).stdout).toContain(`KIND:       ${kind}`);
    }
  });
});
