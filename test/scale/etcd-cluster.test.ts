/**
 * The 3-member etcd cluster (test/support/etcd.ts) the multi-API-server e2e test stands on: it starts,
 * replicates, and keeps serving reads and writes after one member is killed with SIGKILL
 * (a quorum of two remains), through the etcd3 client given every member's endpoint.
 */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEtcd, startEtcd, stopMember } from '../support/etcd.js';
import { eventually } from '../support/eventually.js';

describe('a 3-member etcd cluster', () => {
  let cluster: RunningEtcd;
  let client: Etcd3;

  beforeAll(async () => {
    cluster = await startEtcd({ members: 3 });
    client = new Etcd3({ hosts: cluster.endpoints });
  });
  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('has three members, each answering with the same data', async () => {
    const members = await client.cluster.memberList({});
    expect(members.members.map((m) => m.name).sort()).toEqual(['m0', 'm1', 'm2']);
    await client.put('/kubesim-test/before').value('written with three members');
    for (const member of cluster.members) {
      const one = new Etcd3({ hosts: member.clientUrl });
      try {
        expect(await one.get('/kubesim-test/before').string()).toBe('written with three members');
      } finally {
        one.close();
      }
    }
  });

  it('keeps serving writes and reads after one member is killed -9', async () => {
    const leaderId = (await client.maintenance.status({})).leader;
    const { members } = await client.cluster.memberList({});
    // Kill the leader: the harder case (the others must elect a new one before writing).
    const leaderName = members.find((m) => m.ID === leaderId)?.name;
    const victim = cluster.members.find((m) => m.name === leaderName) ?? cluster.members[0]!;
    await stopMember(victim);
    const survivors = new Etcd3({ hosts: cluster.members.filter((m) => m !== victim).map((m) => m.clientUrl) });
    try {
      await eventually(() => survivors.put('/kubesim-test/after').value('written with two members'), { timeoutMs: 15_000, intervalMs: 200 });
      expect(await survivors.get('/kubesim-test/after').string()).toBe('written with two members');
      expect(await survivors.get('/kubesim-test/before').string()).toBe('written with three members');
    } finally {
      survivors.close();
    }
  });
});
