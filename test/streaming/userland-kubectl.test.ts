/**
 * kubectl against kubesim's own simulated userland (kubelet-sim/userland/, the kubelet's
 * default): exec runs the shell and its commands in the container's filesystem and
 * environment, a ConfigMap volume is mounted, `kubectl cp` copies both ways through tar. The
 * wire itself is tested with a tiny test userland in kubectl-exec.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configMapYaml, useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const podYaml = (name: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: node-1
  containers:
  - name: box
    image: busybox:1.36
    command: [sleep, '3600']
    env: [{name: GREETING, value: hello}]
    volumeMounts: [{name: config, mountPath: /config}]
  volumes: [{name: config, configMap: {name: settings}}]
`;

const scratch = mkdtempSync(join(tmpdir(), 'kubesim-cp-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(binaries)('$label: exec and cp into the simulated userland', (binary) => {
  const k = useKubectlCluster(binary, { nodes: 1 });
  const name = `box-${binary.label.replace(/[^a-z0-9]/g, '')}`;

  it('exec runs a shell line with the pod environment and its mounted ConfigMap', async () => {
    await k.apply(configMapYaml('settings', { mode: 'demo' }));
    await k.apply(podYaml(name));
    await eventually(async () => expect((await k.json(['pod', name])).status.phase).toBe('Running'), { timeoutMs: 20_000 });
    const result = await k.run(['exec', name, '--', 'sh', '-c', 'echo $HOSTNAME $GREETING; cat /config/mode; echo; ls /config']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`${name} hello\ndemo\nmode\n`);
  });

  it('an unknown command fails as a shell says, and its exit code comes back', async () => {
    const result = await k.run(['exec', name, '--', 'sh', '-c', 'nosuch']);
    expect(result.code).toBe(127);
    expect(result.stderr).toContain('sh: nosuch: not found');
  });

  it('kubectl cp copies a file into the container and back out', async () => {
    const local = join(scratch, `${name}-in.txt`);
    writeFileSync(local, 'copied through tar\n');
    await k.ok(['cp', local, `${name}:/tmp/in.txt`]);
    expect((await k.ok(['exec', name, '--', 'cat', '/tmp/in.txt'])).stdout).toBe('copied through tar\n');
    const back = join(scratch, `${name}-out.txt`);
    await k.ok(['cp', `${name}:/tmp/in.txt`, back]);
    expect(readFileSync(back, 'utf8')).toBe('copied through tar\n');
  });
});
