/**
 * kubectl exec and attach against kubesim's streaming wire, with every installed kubectl
 * (1.31+ negotiate v5.channel.k8s.io over WebSocket): output, exit codes, stdin, the errors
 * of a missing container and of a completed pod. A tiny test userland (test/support/
 * test-userland.ts) runs the commands; the real one is kubelet-sim/userland/.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { testUserland } from '../support/test-userland.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** roundTrip connects to a local port, sends `text` and resolves with what comes back once as much arrived. */
function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.length >= text.length) {
        socket.end();
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

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

  it('kubectl port-forward made to speak SPDY only gets the same kind of Status', async () => {
    const result = await k.run(['port-forward', 'pod/one', '0:8080'], { env: { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: error upgrading connection: unable to upgrade connection: pods\/portforward is served over WebSocket with the subprotocols SPDY\/3\.1\+portforward\.k8s\.io, v4\.channel\.k8s\.io.*the client offered SPDY\/3\.1 \(portforward\.k8s\.io\)\. SPDY is not supported by kubesim/,
    );
  });

  it('kubectl made to speak SPDY only gets a Status naming the WebSocket subprotocols', async () => {
    const result = await k.run(['exec', 'one', '--', 'echo', 'hi'], { env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Error from server \(BadRequest\): unable to upgrade connection: pods\/exec is served over WebSocket with the subprotocols v5\.channel\.k8s\.io, v4\.channel\.k8s\.io, v4\.base64\.channel\.k8s\.io; the client offered SPDY\/3\.1 \(v5\.channel\.k8s\.io, v4\.channel\.k8s\.io, .*\)\. SPDY is not supported by kubesim/,
    );
  });

  it('port-forward (SPDY tunnelled in a WebSocket) carries bytes both ways', async () => {
    await k.apply(pod('web', ['app']).replace('stdin: true}', 'stdin: true, ports: [{containerPort: 8080}]}'));
    await running('web');
    const forward = k.watch(['port-forward', 'pod/web', '0:8080']);
    const [line] = await forward.waitFor((lines) => lines.some((l) => l.startsWith('Forwarding from 127.0.0.1:')));
    const local = Number(/127\.0\.0\.1:(\d+) -> 8080/.exec(forward.lines().find((l) => l.startsWith('Forwarding from 127.0.0.1:')) ?? line ?? '')?.[1]);
    expect(await roundTrip(local, 'ping through kubectl')).toBe('ping through kubectl');
    await forward.stop();
  });

  it('port-forward to a port nothing listens on reports the refusal', async () => {
    const forward = k.watch(['port-forward', 'pod/web', '0:9090']);
    await forward.waitFor((lines) => lines.some((l) => l.startsWith('Forwarding from 127.0.0.1:')));
    const local = Number(/127\.0\.0\.1:(\d+) -> 9090/.exec(forward.lines().join('\n'))?.[1]);
    await roundTrip(local, 'anyone there?').catch(() => '');
    await eventually(() => expect(forward.stderr()).toContain('error forwarding port 9090 to pod'));
    expect(forward.stderr()).toMatch(
      /an error occurred forwarding \d+ -> 9090: error forwarding port 9090 to pod [0-9a-f]{32}, uid : .*connect: connection refused/,
    );
    await forward.stop();
  });

  it('exec into a Succeeded pod is refused as kubectl refuses it', async () => {
    await k.apply(pod('done', ['app'], ', annotations: {kubesim.io/run-seconds: "0"}'));
    await eventually(async () => expect((await k.json(['pod', 'done'])).status.phase).toBe('Succeeded'), { timeoutMs: 20_000 });
    const result = await k.run(['exec', 'done', '--', 'echo', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: cannot exec into a container in a completed pod; current phase is Succeeded\n');
  });
});
