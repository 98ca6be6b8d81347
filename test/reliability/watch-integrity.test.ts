/**
 * Watches resumed from the last resourceVersion miss nothing, repeat nothing and reorder
 * nothing: while thousands of creates, updates and deletes land, one watcher cuts its
 * connection at random points and resumes from the last resourceVersion it saw; its events
 * must equal those of a watcher that never disconnected — with and without a label selector.
 */
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const CM = '/api/v1/namespaces/default/configmaps';
// CI's size; WATCH_WRITES scales it up for the long run in docs/reliability.md.
const WRITES = Number(process.env['WATCH_WRITES'] ?? 2_000);

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Seen = string; // `${type} ${name} ${resourceVersion}`

/** The last write of a run: every watch reads until it sees it (it matches every selector). */
const END = 'end-marker';

/** openRawWatch streams a watch with node:http, so closing it destroys the socket at once
 * (an aborted fetch may keep its socket for a while, and the server's watch with it). */
function openRawWatch(url: string): Promise<{ next(): Promise<{ type: string; object: any } | undefined>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      const queue: Array<{ type: string; object: any }> = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let ended = false;
      const wake = () => waiters.splice(0).forEach((w) => w());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 1);
          if (line.trim()) queue.push(JSON.parse(line));
        }
        wake();
      });
      res.on('close', () => {
        ended = true;
        wake();
      });
      resolve({
        async next() {
          while (queue.length === 0 && !ended) await new Promise<void>((w) => waiters.push(w));
          return queue.shift();
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** follow reads a watch until the END object arrives, resuming from the last resourceVersion
 * after each random cut (none with cutChance 0); returns every event in the order received. */
async function follow(url: string, query: string, startRv: string, random: () => number, cutChance: number): Promise<{ seen: Seen[]; cuts: number }> {
  const seen: Seen[] = [];
  let rv = startRv;
  let cuts = 0;
  for (;;) {
    const stream = await openRawWatch(`${url}${CM}?watch=1&resourceVersion=${rv}${query}`);
    try {
      for (;;) {
        const event = await stream.next();
        if (!event) break;
        expect(event.type, JSON.stringify(event.object)).not.toBe('ERROR');
        rv = event.object.metadata.resourceVersion;
        seen.push(`${event.type} ${event.object.metadata.name} ${rv}`);
        if (event.object.metadata.name === END) return { seen, cuts };
        if (random() < cutChance) {
          cuts++;
          break;
        }
      }
    } finally {
      stream.close();
    }
  }
}

describe('watch integrity under random close and resume', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster({ historyRevisions: 100_000 });
  });
  afterAll(() => cluster.stop());

  it.each([
    ['every object', '', 7],
    ['a label selector', '&labelSelector=tier%3Dfront', 11],
  ])(`delivers the same events as an unbroken watch over ${WRITES} writes, for %s`, { timeout: 120_000 }, async (_name, query, seed) => {
    const random = seeded(seed);
    await request(`${cluster.url}${CM}/${END}`, { method: 'DELETE' });
    const startRv = (await request(`${cluster.url}${CM}`)).body.metadata.resourceVersion as string;
    const unbroken = follow(cluster.url, query, startRv, random, 0);
    const resuming = follow(cluster.url, query, startRv, random, 0.02);
    // Objects move in and out of the selector, and are updated and deleted.
    const live = new Set<string>();
    for (let i = 0; i < WRITES; i++) {
      const name = `cm-${seed}-${Math.floor(random() * 60)}`;
      const body = { metadata: { name, labels: { tier: random() < 0.5 ? 'front' : 'back' } }, data: { i: String(i) } };
      if (!live.has(name)) {
        expect((await request(`${cluster.url}${CM}`, { method: 'POST', body })).status).toBe(201);
        live.add(name);
      } else if (random() < 0.2) {
        expect((await request(`${cluster.url}${CM}/${name}`, { method: 'DELETE' })).status).toBe(200);
        live.delete(name);
      } else {
        expect((await request(`${cluster.url}${CM}/${name}`, { method: 'PUT', body })).status).toBe(200);
      }
    }
    await request(`${cluster.url}${CM}`, { method: 'POST', body: { metadata: { name: END, labels: { tier: 'front' } } } });
    const [reference, cut] = await Promise.all([unbroken, resuming]);
    expect(cut.cuts, 'the resuming watch was cut often').toBeGreaterThan(5);
    expect(reference.seen.length).toBeGreaterThan(query ? 300 : WRITES);
    expect(cut.seen).toEqual(reference.seen);
    console.log(`watch integrity${query ? ' (selector)' : ''}: ${WRITES} writes, ${reference.seen.length} events checked, ${cut.cuts} cuts and resumes`);
    // Ordered by resourceVersion, each once.
    const revisions = reference.seen.map((line) => Number(line.split(' ')[2]));
    expect(revisions).toEqual([...new Set(revisions)].sort((a, b) => a - b));
  });
});
