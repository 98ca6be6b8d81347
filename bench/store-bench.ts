/**
 * store-bench measures the store with 2 KiB Pod-like objects, in memory and in a temp
 * file, next to a raw better-sqlite3 baseline (the same bodies, pre-serialised, inserted
 * into a bare table with a prepared statement, one transaction per insert, same journal
 * settings) so the printed ratio shows what the store's bookkeeping costs: the revision
 * check, the event row and its indexes, JSON stamping and the copy handed back.
 *
 * Run: npm run bench:store. Prints figures only; it asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { type ObjectRef, openSqliteStore, type Store, type StoredObject } from '../store/index.js';

const ObjectCount = 20_000;
const NamespaceCount = 10;
const GetCount = 50_000;
const ListRuns = 20;
const BodyBytes = 2048;

interface Figures {
  mode: string;
  createsPerSec: number;
  updatesPerSec: number;
  getsPerSec: number;
  list1000Ms: number;
  rawInsertsPerSec: number;
}

function podRef(i: number): ObjectRef {
  return { resource: 'pods', namespace: `ns-${i % NamespaceCount}`, name: `web-${i}` };
}

function makePod(ref: ObjectRef, generation: number): StoredObject {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      uid: `0000-${ref.name}`,
      generation,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '5d8f7c9b4' },
      annotations: { padding: '' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f7c9b4', uid: 'rs-1', controller: true }],
    },
    spec: {
      nodeName: `node-${generation % 50}`,
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [
            { name: 'MODE', value: 'production' },
            { name: 'REPLICA', value: String(generation) },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        },
      ],
    },
    status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  pod.metadata.annotations.padding = 'x'.repeat(Math.max(0, BodyBytes - JSON.stringify(pod).length));
  return pod;
}

function perSecond(count: number, run: () => void): number {
  const start = performance.now();
  run();
  return count / ((performance.now() - start) / 1000);
}

function rawInsertRate(path: string): number {
  const db = new Database(path);
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.exec('CREATE TABLE raw (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO raw (body) VALUES (?)');
  const insertOne = db.transaction((body: string) => insert.run(body));
  const bodies = Array.from({ length: ObjectCount }, (_, i) => JSON.stringify(makePod(podRef(i), 1)));
  try {
    return perSecond(ObjectCount, () => {
      for (const body of bodies) insertOne(body);
    });
  } finally {
    db.close();
  }
}

function measureWrites(store: Store, mode: string): Pick<Figures, 'createsPerSec' | 'updatesPerSec'> {
  const refs = Array.from({ length: ObjectCount }, (_, i) => podRef(i));
  const created = refs.map((ref) => makePod(ref, 1));
  const updated = refs.map((ref) => makePod(ref, 2));
  const createsPerSec = perSecond(ObjectCount, () => {
    refs.forEach((ref, i) => store.create(ref, created[i] as StoredObject));
  });
  progress(mode, `${ObjectCount} creates`, createsPerSec);
  const updatesPerSec = perSecond(ObjectCount, () => {
    refs.forEach((ref, i) => store.update(ref, updated[i] as StoredObject));
  });
  progress(mode, `${ObjectCount} updates`, updatesPerSec);
  return { createsPerSec, updatesPerSec };
}

function measureReads(store: Store, mode: string): Pick<Figures, 'getsPerSec' | 'list1000Ms'> {
  // A fixed stride instead of Math.random keeps runs comparable.
  const getsPerSec = perSecond(GetCount, () => {
    for (let i = 0; i < GetCount; i++) store.get(podRef((i * 7919) % ObjectCount));
  });
  progress(mode, `${GetCount} gets`, getsPerSec);
  const start = performance.now();
  for (let run = 0; run < ListRuns; run++) {
    const page = store.list({ resource: 'pods', namespace: `ns-${run % NamespaceCount}`, limit: 1000 });
    if (page.items.length !== 1000) throw new Error(`list returned ${page.items.length} items`);
  }
  const list1000Ms = (performance.now() - start) / ListRuns;
  console.log(`[${mode}] list of 1000: ${list1000Ms.toFixed(2)} ms (mean of ${ListRuns})`);
  return { getsPerSec, list1000Ms };
}

function measure(mode: string, storePath: string, rawPath: string): Figures {
  console.log(`[${mode}] starting`);
  const rawInsertsPerSec = rawInsertRate(rawPath);
  progress(mode, `${ObjectCount} raw inserts`, rawInsertsPerSec);
  const store = openSqliteStore({ path: storePath });
  try {
    return { mode, ...measureWrites(store, mode), ...measureReads(store, mode), rawInsertsPerSec };
  } finally {
    store.close();
  }
}

function progress(mode: string, what: string, rate: number): void {
  console.log(`[${mode}] ${what}: ${Math.round(rate).toLocaleString('en-US')}/s`);
}

function printTable(rows: Figures[]): void {
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  const table = rows.map((f) => ({
    mode: f.mode,
    'creates/s': format(f.createsPerSec),
    'updates/s': format(f.updatesPerSec),
    'gets/s': format(f.getsPerSec),
    'list 1000 (ms)': f.list1000Ms.toFixed(2),
    'raw inserts/s': format(f.rawInsertsPerSec),
    'create/raw': (f.createsPerSec / f.rawInsertsPerSec).toFixed(2),
    'update/raw': (f.updatesPerSec / f.rawInsertsPerSec).toFixed(2),
  }));
  console.log(`\nstore bench: ${ObjectCount} objects of ~${BodyBytes} B JSON, ${NamespaceCount} namespaces`);
  console.table(table);
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-store-bench-'));
  try {
    const memory = measure('memory', ':memory:', ':memory:');
    const file = measure('file', join(dir, 'store.db'), join(dir, 'raw.db'));
    printTable([memory, file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
