/**
 * Components spread over processes, each given a list of API servers (`--server a,b`): the
 * loops, the scheduler and a kubelet-sim as real processes. One cluster has one API server
 * here (SQLite), so the "other servers" are stand-ins in front of it: a dead URL, and a TCP
 * forwarder cut mid-run while the components watch through it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { eventually } from '../support/eventually.js';
import { deployment } from '../support/objects.js';
import { freePort } from '../support/ports.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { startTcpForwarder, type TcpForwarder } from '../support/tcp-forwarder.js';
import { useTestCluster } from '../support/use-test-cluster.js';

describe('components given several API servers', () => {
  // Over HTTPS, as `kubesim up` serves: each server of the list is checked against the CA.
  const cluster = useTestCluster({ userAgent: 'spread-failover-test', tls: true });
  let forwarder: TcpForwarder | undefined;

  afterEach(async () => {
    await stopAllKubesim();
    await forwarder?.kill();
    forwarder = undefined;
  });

  /** startComponents runs the Deployment and ReplicaSet loops, the scheduler and two nodes,
   * each as a process given `servers`. */
  function startComponents(servers: string[]): KubesimProcess[] {
    const common = ['--kubeconfig', cluster.kubeconfigPath, '--server', servers.join(','), '--log-level', 'info'];
    return [
      spawnKubesim(['controller', 'deployment,replicaset', ...common]),
      spawnKubesim(['scheduler', ...common]),
      spawnKubesim(['kubelet', '--nodes', '2', '--node-prefix', 'spread-', ...common]),
    ];
  }

  async function createDeployment(name: string, replicas: number): Promise<void> {
    const object = deployment(name, replicas);
    await cluster.client.resource(deploymentDefinition).create({ ...object, metadata: { ...object.metadata, namespace: 'default' } });
  }

  /** untilRunning waits until app `name` has exactly `replicas` pods, all Running with an IP. */
  async function untilRunning(name: string, replicas: number): Promise<Pod[]> {
    return eventually(
      async () => {
        const pods = (await cluster.client.resource(podDefinition).list({ namespace: 'default', labelSelector: `app=${name}` })).items;
        expect(pods.map((pod) => [pod.status?.phase, Boolean(pod.status?.podIP)])).toEqual(Array(replicas).fill(['Running', true]));
        return pods;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  it('skips a dead first server: every component works through the second', async () => {
    const dead = `${new URL(cluster.url).protocol}//127.0.0.1:${await freePort()}`;
    const components = startComponents([dead, cluster.url]);
    await createDeployment('web', 3);
    await untilRunning('web', 3);
    for (const component of components) {
      expect(component.output()).toContain(`apiserver ${dead} unreachable (ECONNREFUSED); using ${cluster.url}`);
    }
  }, 90_000);

  it('moves to the next server when the first goes away mid-watch, missing no event', async () => {
    forwarder = await startTcpForwarder(cluster.url);
    const components = startComponents([forwarder.url, cluster.url]);
    await createDeployment('api', 2);
    await untilRunning('api', 2);
    // Everything so far went through the forwarder: no component had moved on yet.
    for (const component of components) expect(component.output()).not.toContain('unreachable');
    expect(forwarder.connections()).toBeGreaterThan(0);

    await forwarder.kill();
    // Known only through the watches resumed on the second server: the scale-up, the new pods
    // to bind, the bound pods to run.
    await cluster.client.resource(deploymentDefinition).patch('default', 'api', { spec: { replicas: 5 } }, { type: 'merge' });
    await untilRunning('api', 5);
    const moved = new RegExp(`apiserver ${forwarder.url} unreachable \\((ECONNREFUSED|ECONNRESET)\\); using ${cluster.url}`);
    for (const component of components) {
      expect(component.output()).toMatch(moved);
      // The watches resumed from their resourceVersion: none had to re-list.
      expect(component.output()).not.toContain('expired; re-listing');
      expect(component.output()).not.toContain('unhandled rejection');
    }
  }, 90_000);
});
