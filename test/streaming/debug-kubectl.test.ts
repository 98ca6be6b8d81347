/**
 * `kubectl debug` and `kubectl attach` with real kubectl (1.31–1.33) against a cluster whose
 * kubelet runs the simulated userland: a debug container added to a running pod through
 * pods/ephemeralcontainers starts (its status and events as a kubelet reports them), an
 * interactive `kubectl debug -it --target` session (driven through tmux) sees the target's
 * process, `kubectl debug node/<n>` runs kubectl's node-debugger pod with the node's root at
 * /host, and the refusals are kube's words.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, type KubectlBinary, requireKubectl } from '../support/kubectl.js';
import { startTmux, type TmuxSession } from '../support/tmux.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const podYaml = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: [sleep, '3600']
${extra}`;

/** interactive runs kubectl in a tmux session on a real terminal, with the cluster's kubeconfig. */
async function interactive(binary: KubectlBinary, k: ReturnType<typeof useKubectlCluster>, args: string[]): Promise<TmuxSession> {
  const cluster = k.cluster();
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(cluster.dir, 'home'), LANG: 'C.UTF-8', TERM: 'xterm' };
  const argv = [binary.path, '--kubeconfig', cluster.kubeconfigPath, '--cache-dir', join(cluster.dir, 'kubectl-cache'), ...args];
  return startTmux(argv, { env });
}

/** promptOf waits for the debug shell's prompt. The shell starts with its container, before
 * kubectl attaches, so its first prompt may be gone: as kubectl says, press Enter for another. */
async function promptOf(session: TmuxSession): Promise<void> {
  await session.waitFor("If you don't see a command prompt, try pressing enter.");
  await session.type('', { enter: true });
  await session.waitFor('\n/ #');
}

describe.each(binaries)('$label: kubectl debug and attach', (binary) => {
  const k = useKubectlCluster(binary, { nodes: 1 });
  const running = async (name: string) => eventually(async () => expect((await k.json(['pod', name])).status.phase).toBe('Running'), { timeoutMs: 20_000 });

  it('debug -it --target adds a debug container that sees the target’s process', async () => {
    await k.apply(podYaml('web'));
    await running('web');
    const session = await interactive(binary, k, ['debug', '-it', 'web', '--image=busybox', '--target=app', '-c', 'debugger', '--profile=general']);
    try {
      await promptOf(session);
      await session.type('ps', { enter: true });
      const screen = await session.waitFor(/PID +USER +TIME +COMMAND[\s\S]*\n +1 root .* sleep 3600\n[\s\S]* ps\n/);
      expect(screen).toContain(
        'Targeting container "app". If you don\'t see processes from this container it may be because the container runtime doesn\'t support this feature.',
      );
      await session.type('exit', { enter: true });
      await eventually(async () => expect(await session.alive()).toBe(false), { timeoutMs: 10_000 });
    } finally {
      await session.close();
    }
    // `exit` ended the debug container's shell, its main process: it terminates and never restarts.
    const pod = await eventually(async () => {
      const current = await k.json(['pod', 'web']);
      expect(current.status.ephemeralContainerStatuses).toMatchObject([
        {
          name: 'debugger',
          ready: false,
          restartCount: 0,
          image: 'docker.io/library/busybox:latest',
          state: { terminated: { exitCode: 0, reason: 'Completed' } },
        },
      ]);
      return current;
    });
    expect(pod.spec.ephemeralContainers).toMatchObject([{ name: 'debugger', image: 'busybox', stdin: true, tty: true, targetContainerName: 'app' }]);
    expect(pod.status.ephemeralContainerStatuses[0].containerID).toMatch(/^containerd:\/\//);
    const events = (await k.ok(['get', 'events', '--field-selector', 'involvedObject.name=web', '-o', 'jsonpath={.items[*].message}'])).stdout;
    expect(events).toContain('Started container debugger');
  });

  it('debug without -it adds the container, and exec reaches it', async () => {
    await k.apply(podYaml('quiet'));
    await running('quiet');
    const added = await k.ok(['debug', 'quiet', '--image=busybox', '-c', 'dbg', '--profile=general', '--', 'sleep', '600']);
    expect(added.stdout).toBe('');
    await eventually(async () => expect((await k.json(['pod', 'quiet'])).status.ephemeralContainerStatuses?.[0]?.state?.running).toBeDefined(), {
      timeoutMs: 20_000,
    });
    const ps = await k.ok(['exec', 'quiet', '-c', 'dbg', '--', 'ps']);
    expect(ps.stdout).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 600\n    7 root      0:00 ps\n');
  });

  it('a debug container that runs a command has its output as its log', async () => {
    await k.apply(podYaml('chatty'));
    await running('chatty');
    await k.ok(['debug', 'chatty', '--image=busybox', '-c', 'printer', '--profile=general', '--', 'sh', '-c', 'echo from-the-debugger']);
    await eventually(
      async () => expect((await k.json(['pod', 'chatty'])).status.ephemeralContainerStatuses?.[0]?.state?.terminated?.reason).toBe('Completed'),
      {
        timeoutMs: 20_000,
      },
    );
    expect((await k.ok(['logs', 'chatty', '-c', 'printer'])).stdout).toBe('from-the-debugger\n');
  });

  it('attach -it joins an interactive container’s shell', async () => {
    await k.apply(podYaml('shell', '    stdin: true\n    tty: true\n').replace("command: [sleep, '3600']", 'command: [sh]'));
    await running('shell');
    const session = await interactive(binary, k, ['attach', '-it', 'shell', '-c', 'app']);
    try {
      await session.waitFor("If you don't see a command prompt, try pressing enter.");
      await session.type('echo attached-$HOSTNAME', { enter: true });
      await session.waitFor('attached-shell');
    } finally {
      await session.close();
    }
  });

  it('attach to a container that is not interactive shows nothing and ends when the pod goes away', async () => {
    await k.apply(podYaml('going'));
    await running('going');
    const session = await interactive(binary, k, ['attach', 'going', '-c', 'app']);
    try {
      // Nothing comes: the simulated main process writes nothing, and the session stays open.
      await eventually(async () => expect(await session.alive()).toBe(true));
      await k.ok(['delete', 'pod', 'going', '--wait=false']);
      await eventually(async () => expect(await session.alive()).toBe(false), { timeoutMs: 20_000 });
      expect(await session.screen()).not.toContain('error');
    } finally {
      await session.close();
    }
  });

  it('debug node/<n> -it runs a node-debugger pod on that node with the node’s root at /host', async () => {
    const session = await interactive(binary, k, ['debug', 'node/node-1', '-it', '--image=busybox', '--profile=general']);
    try {
      await session.waitFor(/Creating debugging pod node-debugger-node-1-\w+ with container debugger on node node-1\./);
      await promptOf(session);
      await session.type('cat /host/etc/hostname; ls /host', { enter: true });
      await session.waitFor(/\nnode-1\n[\s\S]*etc[\s\S]*var/);
    } finally {
      await session.close();
    }
    const pods = (await k.json(['pods'])).items.filter((p: any) => p.metadata.name.startsWith('node-debugger-node-1-'));
    expect(pods).toHaveLength(1);
    expect(pods[0].spec).toMatchObject({ nodeName: 'node-1', hostPID: true, hostNetwork: true, hostIPC: true });
    expect(pods[0].spec.volumes).toEqual([{ name: 'host-root', hostPath: { path: '/', type: '' } }]);
  });

  it('debug --copy-to --share-processes runs a copy whose debug container sees every process of the pod', async () => {
    await k.apply(podYaml('orig'));
    await running('orig');
    const args = ['debug', 'orig', '-it', '--copy-to=orig-copy', '--image=busybox', '--share-processes', '--same-node', '-c', 'debugger', '--profile=general'];
    const session = await interactive(binary, k, args);
    try {
      await promptOf(session);
      await session.type('ps', { enter: true });
      await session.waitFor(/\n +1 65535 .* \/pause\n +7 root .* sleep 3600\n +8 root .* sh\n[\s\S]* ps\n/);
    } finally {
      await session.close();
    }
    const copy = await k.json(['pod', 'orig-copy']);
    expect(copy.spec).toMatchObject({ nodeName: 'node-1', shareProcessNamespace: true });
    expect(copy.spec.containers.map((c: any) => c.name)).toEqual(['app', 'debugger']);
  });

  it('refuses a missing pod and a missing container in kube’s words', async () => {
    await k.apply(podYaml('quiet'));
    const missing = await k.run(['debug', 'nosuch', '--image=busybox', '--profile=general']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error from server (NotFound): pods "nosuch" not found\n');
    const container = await k.run(['exec', 'quiet', '-c', 'nosuch', '--', 'true']);
    expect(container.code).toBe(1);
    expect(container.stderr).toContain('container nosuch is not valid for pod quiet');
  });

  it('a finished pod takes a debug container it never starts, and attach is refused', async () => {
    await k.apply(
      podYaml('done')
        .replace('metadata: {name: done}', 'metadata: {name: done, annotations: {kubesim.io/run-seconds: "0"}}')
        .replace('spec:\n', 'spec:\n  restartPolicy: Never\n'),
    );
    await eventually(async () => expect((await k.json(['pod', 'done'])).status.phase).toBe('Succeeded'), { timeoutMs: 20_000 });
    const attach = await k.run(['attach', 'done']);
    expect(attach).toMatchObject({ code: 1, stderr: 'error: cannot attach a container in a completed pod; current phase is Succeeded\n' });
    await k.ok(['debug', 'done', '--image=busybox', '-c', 'late', '--profile=general']);
    const pod = await k.json(['pod', 'done']);
    expect(pod.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['late']);
    expect(pod.status.ephemeralContainerStatuses).toBeUndefined();
  });

  it('a debug container on a node no kubelet runs is added but never starts; exec there is refused', async () => {
    await k.apply(podYaml('stray').replace('nodeName: node-1', 'nodeName: ghost'));
    await k.ok(['debug', 'stray', '--image=busybox', '-c', 'dbg', '--profile=general']);
    const pod = await k.json(['pod', 'stray']);
    expect(pod.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['dbg']);
    expect(pod.status.ephemeralContainerStatuses).toBeUndefined();
    const exec = await k.run(['exec', 'stray', '-c', 'dbg', '--', 'true']);
    expect(exec.code).toBe(1);
    expect(exec.stderr).toBe('Error from server (NotFound): nodes "ghost" not found\n');
  });
});
