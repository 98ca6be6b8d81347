/**
 * The real kubectl meeting kube-apiserver's semantics: `debug` reading the details of a 404
 * (kubectl 1.31–1.33 crash when a 404 Status has none) and adding a debug container, namespaces selected by their name
 * label, and updates refused with kube-apiserver's words (immutable ConfigMaps, a Service's
 * cluster IP, the 1 MiB data limit).
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: kube-apiserver semantics', (binary) => {
  const k = useKubectlCluster(binary);

  it('debug reports a missing pod, and adds a debug container to an existing one', async () => {
    const missing = await k.run(['debug', 'nope', '--image=busybox', '--profile=general']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error from server (NotFound): pods "nope" not found');

    await k.ok(['run', 'target', '--image=busybox']);
    // pods/ephemeralcontainers is served (docs/streaming.md, "Debug containers").
    const debug = await k.run(['debug', 'target', '--image=busybox', '--profile=general']);
    expect(debug).toMatchObject({ code: 0, stderr: '' });
    expect(debug.stdout).toMatch(/^Defaulting debug container name to debugger-\w+\.\n$/);
    expect((await k.json(['pod', 'target'])).spec.ephemeralContainers).toMatchObject([{ name: expect.stringMatching(/^debugger-\w+$/), image: 'busybox' }]);
  });

  it('selects namespaces by their kubernetes.io/metadata.name label', async () => {
    await k.ok(['create', 'namespace', 'team-a']);
    await k.ok(['create', 'namespace', 'team-b']);
    const selected = await k.ok(['get', 'namespaces', '-l', 'kubernetes.io/metadata.name in (team-a)', '-o', 'name']);
    expect(selected.stdout).toBe('namespace/team-a\n');
    expect((await k.json(['namespace', 'team-b'])).metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-b' });
  });

  it('refuses changes to an immutable ConfigMap and to a cluster IP, in kube-apiserver words', async () => {
    await k.ok(['create', 'configmap', 'frozen', '--from-literal=a=b']);
    await k.ok(['patch', 'configmap', 'frozen', '-p', '{"immutable":true}']);
    const data = await k.run(['patch', 'configmap', 'frozen', '-p', '{"data":{"a":"c"}}']);
    expect(data.code).toBe(1);
    expect(data.stderr.trim()).toBe('The ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');

    await k.ok(['create', 'service', 'clusterip', 'web', '--tcp=80']);
    const ip = (await k.json(['service', 'web'])).spec.clusterIP;
    const other = ip === '10.96.0.99' ? '10.96.0.98' : '10.96.0.99';
    const moved = await k.run(['patch', 'service', 'web', '-p', JSON.stringify({ spec: { clusterIP: other } })]);
    expect(moved.code).toBe(1);
    expect(moved.stderr.trim()).toBe(`The Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"${other}"}: may not change once set`);
  });

  it('refuses a ConfigMap over 1 MiB', async () => {
    const big = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  a: ${'x'.repeat(1024 * 1024 + 1)}\n`;
    const res = await k.run(['create', '-f', '-'], { stdin: big });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('The ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
  });
});
