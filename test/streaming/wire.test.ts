/**
 * The streaming wire seen from a raw client: the channel protocols kubesim speaks (v5, v4 and
 * v4.base64 for exec; v4 for port-forward), the error channel's Status, the resize channel,
 * and the answers to what it does not serve — an SPDY-only client, an upgrade of a path that
 * does not stream, a missing or unbound pod, a container that is not running, a kubelet with
 * no userland — each a Status or the kubelet's own text, never a bare EOF.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../controllers/runtime/kinds.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { testUserland } from '../support/test-userland.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openStream, rawUpgrade, refusalOf } from './stream-client.js';

const PODS = '/api/v1/namespaces/default/pods';

const podObject = (name: string, extra: { annotations?: Record<string, string>; nodeName?: string | null; ports?: number[] } = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', annotations: extra.annotations },
  spec: {
    nodeName: extra.nodeName === null ? undefined : (extra.nodeName ?? 'node-1'),
    restartPolicy: 'Never',
    containers: [{ name: 'app', image: 'busybox', ports: (extra.ports ?? []).map((containerPort) => ({ containerPort })) }],
  },
});

const execPath = (pod: string, command: string[], flags = 'stdout=true&stderr=true') =>
  `${PODS}/${pod}/exec?${command.map((c) => `command=${encodeURIComponent(c)}`).join('&')}&${flags}`;

describe('exec, attach and port-forward over the channel protocols', () => {
  const cluster = useTestCluster({ lifetime: 'file', nodes: 1, kubelet: { userland: testUserland } });
  const pods = () => cluster.client.resource(KINDS.pod);
  const create = async (pod: ReturnType<typeof podObject>, phase = 'Running') => {
    await pods().create(pod as never);
    await eventually(async () => expect((await pods().get('default', pod.metadata.name)).status?.phase).toBe(phase), { timeoutMs: 20_000 });
  };

  it('v4.channel.k8s.io: stdout, stderr and a NonZeroExitCode Status on the error channel', async () => {
    await create(podObject('web', { ports: [8080] }));
    const session = await openStream(cluster.url, execPath('web', ['stderr', 'oops']), ['v4.channel.k8s.io']);
    expect(session.protocol).toBe('v4.channel.k8s.io');
    expect(await session.closed).toBe(1000);
    expect(session.text(2)).toBe('oops\n');
    expect(JSON.parse(session.text(3))).toEqual({ metadata: {}, status: 'Success' });
    const failing = await openStream(cluster.url, execPath('web', ['exit', '42']), ['v4.channel.k8s.io']);
    await failing.closed;
    expect(JSON.parse(failing.text(3))).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: error executing command [exit 42], exit code 42',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '42' }] },
    });
  });

  it('v4.base64.channel.k8s.io: text frames with the channel digit and base64 data', async () => {
    const session = await openStream(cluster.url, execPath('web', ['echo', 'héllo']), ['v4.base64.channel.k8s.io']);
    await session.closed;
    expect(session.text(1)).toBe('héllo\n');
  });

  it('v5.channel.k8s.io: resize on channel 4, stdin closed by the close signal on 255', async () => {
    const session = await openStream(cluster.url, execPath('web', ['size'], 'stdin=true&stdout=true&tty=true'), ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    expect(session.protocol).toBe('v5.channel.k8s.io');
    session.send(4, JSON.stringify({ Width: 120, Height: 40 }));
    session.send(255, Buffer.of(0));
    await session.closed;
    expect(session.text(1)).toBe('120x40\n');
  });

  it('port-forward (v4): the port prefix on both channels, then bytes both ways', async () => {
    const session = await openStream(cluster.url, `${PODS}/web/portforward?ports=8080`, ['v4.channel.k8s.io']);
    const prefix = Buffer.of(8080 & 0xff, 8080 >> 8);
    await eventually(() =>
      expect(session.messages.slice(0, 2)).toEqual([
        { channel: 0, data: prefix },
        { channel: 1, data: prefix },
      ]),
    );
    session.send(0, 'ping');
    await eventually(() => expect(session.text(0)).toBe(`${prefix.toString('utf8')}ping`));
  });

  it('port-forward to a port nothing listens on reports the refusal on the error channel', async () => {
    const uid = ((await pods().get('default', 'web')).metadata.uid ?? '').replaceAll('-', '');
    const session = await openStream(cluster.url, `${PODS}/web/portforward?ports=9090`, ['v4.channel.k8s.io']);
    await session.closed;
    expect(session.text(1).slice(2)).toBe(
      `error forwarding port 9090 to pod ${uid}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-${uid.slice(0, 8)}": ` +
        `failed to connect to localhost:9090 inside namespace "${uid}", IPv4: dial tcp4 127.0.0.1:9090: connect: connection refused IPv6 dial tcp6 [::1]:9090: connect: connection refused `,
    );
  });

  it('an SPDY-only client gets a Status naming the WebSocket subprotocols', async () => {
    const answer = await rawUpgrade(cluster.url, execPath('web', ['echo', 'hi']), 'POST', {
      Upgrade: 'SPDY/3.1',
      'X-Stream-Protocol-Version': 'v4.channel.k8s.io',
    });
    expect(answer.status).toBe(400);
    const status = answer.json();
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(status.message).toContain('pods/exec is served over WebSocket with the subprotocols v5.channel.k8s.io, v4.channel.k8s.io, v4.base64.channel.k8s.io');
    expect(status.message).toContain('the client offered SPDY/3.1 (v4.channel.k8s.io)');
    expect(status.details.causes.map((c: { message: string }) => c.message)).toEqual(['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io']);
  });

  it('a WebSocket offering no known subprotocol gets the same Status', async () => {
    const refusal = await refusalOf(cluster.url, execPath('web', ['echo', 'hi']), ['v3.channel.k8s.io']);
    expect(refusal.status).toBe(400);
    expect(refusal.json().message).toContain('the client offered websocket (v3.channel.k8s.io)');
  });

  it('an upgrade of a path that does not stream is a 400 Status with details', async () => {
    const answer = await rawUpgrade(cluster.url, '/api/v1/namespaces', 'GET', {
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    expect(answer.status).toBe(400);
    const status = answer.json();
    expect(status).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(status.message).toBe(
      'the server does not upgrade connections at /api/v1/namespaces (Upgrade: websocket): only pods/exec, pods/attach and pods/portforward stream',
    );
    expect(status.details.causes).toHaveLength(3);
  });

  it('a request that does not upgrade is checked, then told an upgrade is required', async () => {
    const plain = await request(`${cluster.url}${execPath('web', ['echo'])}`, { method: 'POST' });
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'Upgrade request required' });
    const missing = await request(`${cluster.url}${PODS}/ghost/portforward?ports=80`);
    expect(missing.body).toMatchObject({ code: 404, message: 'pods "ghost" not found' });
  });

  it('a missing pod, a missing container and an unbound pod get kube-apiserver’s errors', async () => {
    const missing = await refusalOf(cluster.url, execPath('ghost', ['echo']), ['v5.channel.k8s.io']);
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ reason: 'NotFound', message: 'pods "ghost" not found', details: { name: 'ghost', kind: 'pods' } });
    const container = await refusalOf(cluster.url, `${execPath('web', ['echo'])}&container=sidecar`, ['v5.channel.k8s.io']);
    expect(container.json()).toMatchObject({ code: 400, reason: 'BadRequest', message: 'container sidecar is not valid for pod web' });
    await pods().create(podObject('pending', { nodeName: null }) as never);
    const unbound = await refusalOf(cluster.url, execPath('pending', ['echo']), ['v5.channel.k8s.io']);
    expect(unbound.json()).toMatchObject({ code: 400, reason: 'BadRequest', message: 'pod pending does not have a host assigned' });
  });

  it('exec into a container that is no longer running gets the kubelet’s answer', async () => {
    await create(podObject('finished', { annotations: { 'kubesim.io/run-seconds': '0' } }), 'Succeeded');
    const refusal = await refusalOf(cluster.url, execPath('finished', ['echo']), ['v5.channel.k8s.io']);
    expect(refusal).toMatchObject({ status: 500, contentType: 'text/plain; charset=utf-8', body: 'container not found ("app")' });
  });
});

describe('sessions end with their pod', () => {
  const cluster = useTestCluster({ lifetime: 'file', nodes: 1, kubelet: { userland: testUserland } });

  it('an exec waiting on stdin and a port-forward both close when the pod is deleted', async () => {
    const pods = cluster.client.resource(KINDS.pod);
    await pods.create(podObject('doomed', { ports: [8080] }) as never);
    await eventually(async () => expect((await pods.get('default', 'doomed')).status?.phase).toBe('Running'), { timeoutMs: 20_000 });
    const exec = await openStream(cluster.url, execPath('doomed', ['cat'], 'stdin=true&stdout=true'), ['v5.channel.k8s.io']);
    const forward = await openStream(cluster.url, `${PODS}/doomed/portforward?ports=8080`, ['v4.channel.k8s.io']);
    await pods.delete('default', 'doomed', { gracePeriodSeconds: 0 });
    expect(await exec.closed).toBe(1000);
    expect(await forward.closed).toBe(1000);
  });
});
