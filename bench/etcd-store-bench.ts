/**
 * etcd-store-bench compares the etcd store with the SQLite store in one run: creates, gets and a
 * list of 1000 with 2 KiB Pod-like objects, next to raw etcd puts of the same bodies through the
 * same client library (sequential awaits: what one caller gets from etcd), so the ratios show
 * what the store adds (the transaction's compare and change record, the synchronous bridge,
 * waiting for its own watch event).
 *
 * Run: npm run bench:etcd-store (starts a throwaway etcd from /usr/bin/etcd). Prints figures only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Etcd3 } from 'etcd3';
import { type ObjectRef, openEtcdStore, openSqliteStore, type Store, type StoredObject } from '../store/index.js';
import { startEtcd } from '../test/support/etcd.js';
import { podManifest } from './support/pod-manifest.js';

const ObjectCount = 2_000;
const GetCount = 5_000;
const ListRuns = 5;

const podRef = (index: number): ObjectRef => ({ resource: 'pods', namespace: `ns-${index % 10}`, name: `web-${index}` });
const makePod = (ref: ObjectRef, index: number) => podManifest({ ...ref, index }) as StoredObject;

interface Figures {
  store: string;
  createsPerSec: number;
  getsPerSec: number;
  list1000Ms: number;
}

function perSecond(count: number, run: () => void): number {
  const start = performance.now();
  run();
  return count / ((performance.now() - start) / 1000);
}

function measure(name: string, store: Store): Figures {
  const refs = Array.from({ length: ObjectCount }, (_, i) => podRef(i));
  const createsPerSec = perSecond(ObjectCount, () => refs.forEach((ref, i) => store.create(ref, makePod(ref, i))));
  const getsPerSec = perSecond(GetCount, () => {
    for (let i = 0; i < GetCount; i++) store.get(refs[(i * 7919) % ObjectCount]!);
  });
  const start = performance.now();
  for (let run = 0; run < ListRuns; run++) {
    if (store.list({ resource: 'pods', limit: 1000 }).items.length !== 1000) throw new Error('short list');
  }
  const list1000Ms = (performance.now() - start) / ListRuns;
  console.log(`[${name}] ${Math.round(createsPerSec)} creates/s, ${Math.round(getsPerSec)} gets/s, list of 1000 ${list1000Ms.toFixed(1)} ms`);
  return { store: name, createsPerSec, getsPerSec, list1000Ms };
}

// The same client library with sequential awaits: what one caller gets from etcd itself.
async function rawRates(endpoints: string[]): Promise<{ puts: number; gets: number }> {
  const client = new Etcd3({ hosts: endpoints });
  try {
    const bodies = Array.from({ length: ObjectCount }, (_, i) => JSON.stringify(makePod(podRef(i), i)));
    let start = performance.now();
    for (const [i, body] of bodies.entries()) await client.put(`/raw/pods/${i}`).value(body);
    const puts = ObjectCount / ((performance.now() - start) / 1000);
    start = performance.now();
    for (let i = 0; i < GetCount; i++) await client.get(`/raw/pods/${(i * 7919) % ObjectCount}`).string();
    const gets = GetCount / ((performance.now() - start) / 1000);
    return { puts, gets };
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-bench-'));
  const etcd = await startEtcd();
  try {
    const raw = await rawRates(etcd.endpoints);
    console.log(`[raw etcd] ${Math.round(raw.puts)} puts/s, ${Math.round(raw.gets)} gets/s`);
    const rows: Figures[] = [];
    for (const [name, open] of [
      ['sqlite (memory)', () => openSqliteStore()],
      ['sqlite (file)', () => openSqliteStore({ path: join(dir, 'store.db') })],
      ['etcd', () => openEtcdStore({ endpoints: etcd.endpoints, prefix: '/registry' })],
    ] as const) {
      const store = open();
      try {
        rows.push(measure(name, store));
      } finally {
        store.close();
      }
    }
    const etcdRow = rows.find((r) => r.store === 'etcd')!;
    const format = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(`\netcd store bench: ${ObjectCount} Pods of ~2 KiB JSON; raw etcd3 client: ${format(raw.puts)} puts/s, ${format(raw.gets)} gets/s`);
    console.table(
      rows.map((r) => ({
        store: r.store,
        'creates/s': format(r.createsPerSec),
        'gets/s': format(r.getsPerSec),
        'list 1000 (ms)': r.list1000Ms.toFixed(1),
        'etcd creates vs this': (etcdRow.createsPerSec / r.createsPerSec).toFixed(3),
        'etcd gets vs this': (etcdRow.getsPerSec / r.getsPerSec).toFixed(3),
      })),
    );
    console.log(
      `etcd store vs raw etcd3 client: creates/puts ${(etcdRow.createsPerSec / raw.puts).toFixed(2)}, gets/gets ${(etcdRow.getsPerSec / raw.gets).toFixed(2)}`,
    );
  } finally {
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
