import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Probe } from '../../apiserver/api/core/probe.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import type { Lister } from '../../controllers/runtime/types.js';
import { objectReader, podObject, run, START_MS } from '../../test/support/userland.js';
import { createPodUserlands } from '../streaming/pod-userlands.js';
import { createUserlandFactory } from '../userland/index.js';
import { runProbe } from './run-probe.js';
import { createProbeTargets } from './targets.js';

const POD_IP = '10.244.1.5';
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** setup: one running pod on a kubelet's userlands, and a probe runner against it. */
function setup(image: string, container: Record<string, unknown> = {}) {
  const pod = podObject('web', { image, container: { ports: [{ name: 'http', containerPort: 80 }], ...container } }) as Pod;
  pod.status = {
    phase: 'Running',
    podIP: POD_IP,
    containerStatuses: [
      {
        name: 'main',
        ready: true,
        restartCount: 0,
        image,
        imageID: '',
        containerID: 'containerd://1',
        state: { running: { startedAt: new Date(START_MS).toISOString() } },
      },
    ],
  };
  const clock = new FakeClock(START_MS);
  const lister = { get: (_ns: string, name: string) => (name === 'web' ? pod : undefined) } as unknown as Lister<Pod>;
  const userlands = createPodUserlands({ lister, isLocalNode: () => true, factory: createUserlandFactory(), cluster: objectReader([]), clock });
  const targets = createProbeTargets(userlands, clock);
  const probe = (spec: Probe) => runProbe({ pod, container: pod.spec.containers[0]!, probe: spec, podIP: POD_IP }, targets, clock);
  const shell = () => {
    const found = userlands.container('default', 'web', 'main');
    if (!found.found) throw new Error(found.message);
    return found.userland;
  };
  return { probe, clock, shell };
}

describe('runProbe', () => {
  it('httpGet: 2xx succeeds, a missing page fails with its status, a closed port is refused', async () => {
    const { probe } = setup('nginx:1.27');
    expect(await probe({ httpGet: { path: '/', port: 'http' } })).toEqual({ result: 'success', output: '' });
    expect(await probe({ httpGet: { path: '/healthz', port: 80 } })).toMatchObject({
      result: 'failure',
      output: 'HTTP probe failed with statuscode: 404',
      stopExitCode: 0,
    });
    expect(await probe({ httpGet: { path: '/', port: 8080 } })).toMatchObject({
      result: 'failure',
      output: `Get "http://${POD_IP}:8080/": dial tcp ${POD_IP}:8080: connect: connection refused`,
    });
    expect((await probe({ httpGet: { path: '/', port: 'metrics' } })).output).toBe("couldn't find port: metrics in container main");
    expect((await probe({ httpGet: { path: '/', port: 80, scheme: 'HTTPS' } })).output).toBe(
      `Get "https://${POD_IP}:80/": http: server gave HTTP response to HTTPS client`,
    );
  });

  it('httpGet sees the files of a container someone exec’d into: no index.html is nginx’s 403', async () => {
    const { probe, shell } = setup('nginx:1.27');
    expect((await run(shell(), ['rm', '/usr/share/nginx/html/index.html'])).status).toBe(0);
    expect(await probe({ httpGet: { path: '/', port: 80 } })).toMatchObject({ result: 'failure', output: 'HTTP probe failed with statuscode: 403' });
  });

  it('tcpSocket connects where the image listens', async () => {
    const { probe } = setup('redis:7');
    expect((await probe({ tcpSocket: { port: 6379 } })).result).toBe('success');
    expect(await probe({ tcpSocket: { port: 6380 } })).toMatchObject({
      result: 'failure',
      output: `dial tcp ${POD_IP}:6380: connect: connection refused`,
      stopExitCode: 0,
    });
  });

  it('exec: exit 0 succeeds, otherwise the output is the message; a slow command times out in cluster time', async () => {
    const { probe, clock } = setup('busybox:1.36', { command: ['sleep', '3600'] });
    expect(await probe({ exec: { command: ['cat', '/tmp/healthy'] } })).toEqual({
      result: 'failure',
      output: "cat: can't open '/tmp/healthy': No such file or directory\n",
      stopExitCode: 137,
    });
    expect((await probe({ exec: { command: ['touch', '/tmp/healthy'] } })).result).toBe('success');
    expect((await probe({ exec: { command: ['cat', '/tmp/healthy'] } })).result).toBe('success');
    const slow = probe({ exec: { command: ['sleep', '5'] }, timeoutSeconds: 2 });
    await flush();
    clock.advance(2000);
    expect(await slow).toMatchObject({ result: 'failure', output: 'command "sleep 5" timed out' });
  });

  it('an application kubesim does not model answers its probes; its missing health tool does not fail it', async () => {
    const { probe } = setup('ghcr.io/acme/api:1.2', { ports: [{ name: 'http', containerPort: 8080 }] });
    expect(await probe({ httpGet: { path: '/healthz', port: 'http' } })).toEqual({ result: 'success', output: '' });
    expect((await probe({ tcpSocket: { port: 9000 } })).result).toBe('success');
    expect(await probe({ grpc: { port: 9090 } })).toEqual({ result: 'success', output: 'service healthy' });
    expect((await probe({ exec: { command: ['/app/healthcheck'] } })).result).toBe('success');
    // Its simulated files still count: a command that runs and fails is a failure.
    expect(await probe({ exec: { command: ['cat', '/tmp/healthy'] } })).toMatchObject({
      result: 'failure',
      output: "cat: can't open '/tmp/healthy': No such file or directory\n",
    });
  });

  it('grpc: an image serving the health protocol is SERVING; anything else times out dialling', async () => {
    const etcd = setup('registry.k8s.io/etcd:3.5.21-0');
    expect(await etcd.probe({ grpc: { port: 2379 } })).toEqual({ result: 'success', output: 'service healthy' });
    const web = setup('nginx:1.27');
    const dial = web.probe({ grpc: { port: 80 }, timeoutSeconds: 1 });
    await flush();
    web.clock.advance(1000);
    expect((await dial).output).toBe(`timeout: failed to connect service "${POD_IP}:80" within 1s: context deadline exceeded`);
  });
});
