/**
 * kubectl exec and attach against kubesim's streaming wire, with every installed kubectl
 * (1.31+ negotiate v5.channel.k8s.io over WebSocket): output, exit codes, stdin, the errors
 * of a missing container and of a completed pod. A tiny test userland (test/support/
 * test-userland.ts) runs the commands; the real one is kubelet-sim/userland/.
 */
import { describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { testUserland } from '../support/test-userland.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const pod = (name: string, containers: string[], extra = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}${extra}}
spec:
  nodeName: node-1
  restartPolicy: Never
  containers:
${containers.map((c) => `  - {name: ${c}, image: busybox, stdin: true}`).join('\n')}
`;

describe.each(binaries)('$label: exec and attach', (binary) => {
  const k = useKubectlCluster(binary, { nodes: 1, kubelet: { userland: testUserland } });
  const running = (name: string) => eventually(async () => expect((await k.json(['pod', name])).status.phase).toBe('Running'), { timeoutMs: 20_000 });

  it('exec runs a command and prints its output', async () => {
    await k.apply(pod('one', ['app']));
    await running('one');
    const result = await k.run(['exec', 'one', '--', 'echo', 'hi', 'there']);
    expect(result).toMatchObject({ code: 0, stdout: 'hi there\n', stderr: '' });
  });

  it('exec passes the exit code back', async () => {
    const result = await k.run(['exec', 'one', '--', 'exit', '3']);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('command terminated with exit code 3\n');
  });

  it('exec separates stderr and reports an unknown command as a shell does', async () => {
    const result = await k.run(['exec', 'one', '--', 'nosuch']);
    expect(result).toMatchObject({ code: 127, stdout: '' });
    expect(result.stderr).toBe('sh: nosuch: not found\ncommand terminated with exit code 127\n');
  });

  it('exec -i passes piped stdin through and ends when it closes', async () => {
    const result = await k.run(['exec', '-i', 'one', '--', 'cat'], { stdin: 'line one\nline two\n' });
    expect(result).toMatchObject({ code: 0, stdout: 'line one\nline two\n' });
  });

  it('attach -i echoes through the main process', async () => {
    const result = await k.run(['attach', '-i', 'one'], { stdin: 'hello\n' });
    expect(result.stdout).toBe('attached to app\nhello\n');
  });

  it('exec into a container the pod lacks is kube-apiserver’s BadRequest', async () => {
    const result = await k.run(['exec', 'one', '-c', 'ghost', '--', 'echo', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error from server (BadRequest): container ghost is not valid for pod one');
  });

  it('exec without -c into a pod of two containers picks the first and says so', async () => {
    await k.apply(pod('two', ['first', 'second']));
    await running('two');
    const result = await k.run(['exec', 'two', '--', 'echo', 'ok']);
    expect(result).toMatchObject({ code: 0, stdout: 'ok\n' });
    expect(result.stderr).toBe('Defaulted container "first" out of: first, second\n');
  });

  it('exec honours the default-container annotation', async () => {
    await k.apply(pod('annotated', ['first', 'second'], ', annotations: {kubectl.kubernetes.io/default-container: second}'));
    await running('annotated');
    const result = await k.run(['exec', 'annotated', '--', 'echo', 'ok']);
    expect(result).toMatchObject({ code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('kubectl made to speak SPDY only gets a Status naming the WebSocket subprotocols', async () => {
    const result = await k.run(['exec', 'one', '--', 'echo', 'hi'], { env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Error from server \(BadRequest\): unable to upgrade connection: pods\/exec is served over WebSocket with the subprotocols v5\.channel\.k8s\.io, v4\.channel\.k8s\.io, v4\.base64\.channel\.k8s\.io; the client offered SPDY\/3\.1 \(v5\.channel\.k8s\.io, v4\.channel\.k8s\.io, .*\)\. SPDY is not supported by kubesim/,
    );
  });

  it('port-forward (SPDY tunnelled in a WebSocket) says clearly that it is not served yet', async () => {
    const result = await k.run(['port-forward', 'one', '9999:9090']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error: error upgrading connection: unable to upgrade connection: pods/portforward is served over WebSocket with the subprotocols v4.channel.k8s.io',
    );
    expect(result.stderr).toContain(
      "SPDY, also tunnelled in a WebSocket as kubectl 1.31+ does ('SPDY/3.1+portforward.k8s.io'), is not supported by kubesim yet",
    );
  });

  it('exec into a Succeeded pod is refused as kubectl refuses it', async () => {
    await k.apply(pod('done', ['app'], ', annotations: {kubesim.io/run-seconds: "0"}'));
    await eventually(async () => expect((await k.json(['pod', 'done'])).status.phase).toBe('Succeeded'), { timeoutMs: 20_000 });
    const result = await k.run(['exec', 'done', '--', 'echo', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: cannot exec into a container in a completed pod; current phase is Succeeded\n');
  });
});
