/**
 * Client libraries on kubesim's streaming wire: @kubernetes/client-node's Exec and
 * PortForward (they offer v5 then v4) and the Python client's kubernetes.stream (v4 only),
 * with the tiny test userland of test/support/test-userland.ts in the containers.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { KINDS } from '../../controllers/runtime/kinds.js';
import { eventually } from '../support/eventually.js';
import { testUserland } from '../support/test-userland.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const PYTHON = '/usr/bin/python3';

/** collect gathers what a client writes to it. */
function collector(): PassThrough & { text(): string } {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString('utf8') });
}

describe('client libraries on the streaming wire', () => {
  const cluster = useTestCluster({ lifetime: 'file', nodes: 1, kubelet: { userland: testUserland } });
  let kc: KubeConfig;

  beforeAll(async () => {
    kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const pods = cluster.client.resource(KINDS.pod);
    await pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'busybox', ports: [{ containerPort: 8080 }] }] },
    } as never);
    await eventually(async () => expect((await pods.get('default', 'web')).status?.phase).toBe('Running'), { timeoutMs: 20_000 });
  });

  /** execute runs a command with client-node's Exec and resolves with its output, Status and protocol. */
  const execute = async (command: string[], stdin: Readable | null = null) => {
    const stdout = collector();
    const stderr = collector();
    let reported: (status: V1Status) => void = () => {};
    const status = new Promise<V1Status>((done) => (reported = done));
    const ws = await new Exec(kc).exec('default', 'web', 'app', command, stdout, stderr, stdin, false, reported);
    return { status: await status, stdout: stdout.text(), stderr: stderr.text(), protocol: ws.protocol };
  };

  it('@kubernetes/client-node Exec: output, Success and the v5 protocol', async () => {
    const result = await execute(['echo', 'from', 'node']);
    expect(result).toMatchObject({ stdout: 'from node\n', stderr: '', status: { status: 'Success' }, protocol: 'v5.channel.k8s.io' });
  });

  it('@kubernetes/client-node Exec: stdin through cat, ended by the close signal', async () => {
    const result = await execute(['cat'], Readable.from([Buffer.from('piped in\n')]));
    expect(result).toMatchObject({ stdout: 'piped in\n', status: { status: 'Success' } });
  });

  it('@kubernetes/client-node Exec: a non-zero exit is a NonZeroExitCode Status with the code', async () => {
    const result = await execute(['exit', '5']);
    expect(result.status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '5' }] } });
  });

  it('@kubernetes/client-node PortForward: bytes both ways to a listening port', async () => {
    const output = collector();
    const input = new PassThrough();
    const ws = (await new PortForward(kc).portForward('default', 'web', [8080], output, null, input)) as WebSocket;
    expect(ws.protocol).toBe('v4.channel.k8s.io');
    input.write('hello port');
    await eventually(() => expect(output.text()).toBe('hello port'));
    ws.close();
  });

  it('@kubernetes/client-node PortForward: a closed port reports the refusal on the error stream', async () => {
    const output = collector();
    const errors = collector();
    await new PortForward(kc).portForward('default', 'web', [9090], output, errors, new PassThrough());
    await eventually(() => expect(errors.text()).toContain('error forwarding port 9090 to pod'));
    expect(errors.text()).toContain('connect: connection refused');
  });

  it('the Python client: stream() exec output, the exit code, a missing container, and port-forward', async () => {
    const child = spawn(PYTHON, [resolve(import.meta.dirname, 'python/stream_exec.py'), cluster.kubeconfigPath], {
      env: { PATH: '/usr/bin:/bin', HOME: cluster.dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => child.on('close', done));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      echo: 'from python\n',
      exitCode: 3,
      ghost: 'Handshake status 400 Bad Request',
      portForward: 'ping from python',
    });
  }, 30_000);
});
