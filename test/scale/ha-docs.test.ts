/**
 * docs/ha.md, run as written: etcd, three `kubesim apiserver --store etcd://…` sharing one PKI
 * folder, HAProxy in front (kubeadm's layout), kubectl through it; then one API server is
 * killed -9 and kubectl, still through HAProxy, keeps working, the Deployment written earlier
 * is there, and the dead server drops out of the `kubernetes` endpoints.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type PageBlock, type PageSession, pageBlocks, startPageSession } from './page-runner.js';

const PAGE = resolve(import.meta.dirname, '../../docs/ha.md');
/** The ports the page names, each swapped for a free one. */
const PAGE_PORTS = [2379, 2380, 6443, 6444, 6445, 8443];

describe('docs/ha.md: three API servers behind HAProxy', () => {
  const blocks = pageBlocks(PAGE);
  let session: PageSession;

  beforeAll(async () => {
    session = await startPageSession(PAGE_PORTS);
  });
  afterAll(async () => {
    await session?.stop();
  });

  const endpointPorts = async () => {
    const [result] = await session.run({
      heading: 'check',
      commands: ["kubectl --kubeconfig ha/admin.conf get endpoints kubernetes -o jsonpath='{.subsets[*].ports[*].port}'"],
    });
    return result!.stdout.split(/\s+/).filter(Boolean).map(Number).sort();
  };
  const serverPorts = [6443, 6444, 6445];

  it('has the sections the test follows', () => {
    expect(blocks.map((b) => b.heading)).toEqual([
      'Start etcd',
      'Start three API servers on it',
      'Start three API servers on it',
      'Start three API servers on it',
      'Put HAProxy in front',
      'Put HAProxy in front',
      'Talk to the cluster through it',
      'Lose an API server',
    ]);
    expect(blocks.filter((b) => b.listensOn).map((b) => b.listensOn)).toEqual([2379, 6443, 6444, 6445, 8443]);
  });

  it('serves kubectl through HAProxy, and keeps serving when an API server dies', async () => {
    const [etcd, first, second, third, config, haproxy, talk, lose] = blocks as PageBlock[] as [
      PageBlock,
      PageBlock,
      PageBlock,
      PageBlock,
      PageBlock,
      PageBlock,
      PageBlock,
      PageBlock,
    ];
    for (const block of [etcd, first, second, third, config, haproxy]) await session.run(block);

    const [, readyz, created] = await session.run(talk);
    expect(readyz!.stdout).toBe('ok');
    expect(created!.stdout).toContain('deployment.apps/web created');
    const live = serverPorts.map((p) => session.port(p)).sort();
    await eventually(async () => expect(await endpointPorts()).toEqual(live), { timeoutMs: 20_000, intervalMs: 200 });

    await session.kill(second);
    const [readyzAfter, replicas] = await session.run(lose);
    expect(readyzAfter!.stdout).toBe('ok');
    expect(replicas!.stdout).toBe('3');
    const survivors = [6443, 6445].map((p) => session.port(p)).sort();
    await eventually(async () => expect(await endpointPorts()).toEqual(survivors), { timeoutMs: 45_000, intervalMs: 500 });
  }, 90_000);
});
