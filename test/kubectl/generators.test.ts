/**
 * kubectl's generator subcommands against kubesim: `create deployment|service|namespace|
 * configmap|secret|serviceaccount` and `autoscale`. kubectl 1.32 and 1.33 send these as
 * protobuf (1.33's autoscale as autoscaling/v2), 1.31 as JSON; every version must create
 * the same objects, read back with `get -o json`.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: create generators and autoscale', (binary) => {
  const k = useKubectlCluster(binary);

  it('create deployment makes the Deployment kubectl describes', async () => {
    const created = await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2', '--port=80']);
    expect(created.stdout).toBe('deployment.apps/web created\n');
    const web = await k.json(['deployment', 'web']);
    expect(web.metadata.labels).toEqual({ app: 'web' });
    expect(web.spec).toMatchObject({ replicas: 2, selector: { matchLabels: { app: 'web' } } });
    expect(web.spec.template.spec.containers).toEqual([
      expect.objectContaining({ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {} }),
    ]);
  });

  it('create service clusterip makes a ClusterIP Service with the given ports', async () => {
    expect((await k.ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080'])).stdout).toBe('service/web created\n');
    const web = await k.json(['service', 'web']);
    expect(web.spec).toMatchObject({ type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' }] });
  });

  it('create namespace, configmap, secret generic and serviceaccount', async () => {
    expect((await k.ok(['create', 'namespace', 'demo'])).stdout).toBe('namespace/demo created\n');
    expect((await k.ok(['create', 'configmap', 'cfg', '--from-literal=a=b'])).stdout).toBe('configmap/cfg created\n');
    expect((await k.ok(['create', 'secret', 'generic', 's', '--from-literal=k=v'])).stdout).toBe('secret/s created\n');
    expect((await k.ok(['create', 'serviceaccount', 'robot'])).stdout).toBe('serviceaccount/robot created\n');
    expect((await k.json(['namespace', 'demo'])).status).toEqual({ phase: 'Active' });
    expect((await k.json(['configmap', 'cfg'])).data).toEqual({ a: 'b' });
    expect(await k.json(['secret', 's'])).toMatchObject({ type: 'Opaque', data: { k: Buffer.from('v').toString('base64') } });
    expect((await k.json(['serviceaccount', 'robot'])).metadata.name).toBe('robot');
  });

  it('autoscale makes an HPA targeting the Deployment', async () => {
    const created = await k.ok(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=80']);
    expect(created.stdout).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const hpa = await k.json(['hpa', 'web']);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  it('create of an existing object says AlreadyExists, as for JSON', async () => {
    const again = await k.run(['create', 'configmap', 'cfg', '--from-literal=a=b']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(/configmaps "cfg" already exists$/);
  });
});
