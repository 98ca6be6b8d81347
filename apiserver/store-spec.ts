/**
 * Which store an API server keeps the cluster in (`--store`), parsed in this one place, and how
 * to open it:
 *   sqlite                      the embedded store (the default): <data dir>/kubesim.db, or memory
 *   etcd://host:port[,host:port…] an etcd the user runs (one cluster, several endpoints)
 *   etcd                        an etcd this process starts from the machine's etcd binary, its
 *                               data in <data dir>/etcd (a temporary folder without one), and
 *                               stops when the store closes (etcd-process.ts)
 * A store several API servers can share (etcd) turns on what keeps them one cluster: the
 * per-server Leases behind the `kubernetes` endpoints and the shared kubesim.io state
 * (docs/architecture.md, "Several API servers").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CompactionPolicy, openEtcdStore, openSqliteStore, type Store } from '../store/index.js';
import { type EtcdProcess, startEtcdProcess } from './etcd-process.js';

export type StoreSpec =
  | { kind: 'sqlite' }
  /** An etcd the user runs: its client URLs (http://host:port). */
  | {
      kind: 'etcd';
      endpoints: string[] /** The key prefix (kube-apiserver's --etcd-prefix; default /registry): one
       * etcd can hold several clusters under different prefixes, as the test suite's does. */;
      prefix?: string;
    }
  /** An etcd this process starts and stops. */
  | { kind: 'managed-etcd' }
  /** A store opened by the caller and shared by the servers it is given to (several API servers
   * in one process, as tests run them); the caller closes it. */
  | { kind: 'instance'; store: Store };

export const DEFAULT_STORE_SPEC: StoreSpec = { kind: 'sqlite' };

/** STORE_FLAG_HELP describes --store for every command that takes it. */
export const STORE_FLAG_HELP =
  "where the cluster is kept: sqlite (in --data-dir, or memory), etcd://host:port[,host:port...] (an etcd you run), or etcd (start the machine's etcd with its data in <data-dir>/etcd, stopped on exit)";

/** parseStoreSpec reads a --store value; throws Error saying what is accepted. */
export function parseStoreSpec(text: string): StoreSpec {
  const value = text.trim();
  if (value === 'sqlite') return { kind: 'sqlite' };
  if (value === 'etcd') return { kind: 'managed-etcd' };
  if (value.startsWith('etcd://')) {
    const hosts = value.slice('etcd://'.length).split(',');
    const bad = hosts.find((host) => !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(host));
    if (bad !== undefined) throw new Error(`--store ${value}: ${JSON.stringify(bad)} is not host:port (e.g. etcd://127.0.0.1:2379,10.0.0.2:2379)`);
    return { kind: 'etcd', endpoints: hosts.map((host) => `http://${host}`) };
  }
  throw new Error(`--store must be sqlite, etcd (start one here) or etcd://host:port[,host:port...] (an etcd you run), got ${JSON.stringify(text)}`);
}

/** formatStoreSpec is the --store value that means `spec` (for a child process's arguments). */
export function formatStoreSpec(spec: StoreSpec): string {
  switch (spec.kind) {
    case 'sqlite':
      return 'sqlite';
    case 'managed-etcd':
      return 'etcd';
    case 'etcd':
      return `etcd://${spec.endpoints.map((url) => url.replace(/^https?:\/\//, '')).join(',')}`;
    case 'instance':
      throw new Error('a store instance has no --store spelling');
  }
}

/** isSharedStoreSpec: several API servers may serve one cluster from this store. */
export function isSharedStoreSpec(spec: StoreSpec): boolean {
  return spec.kind !== 'sqlite';
}

/** What every store is opened with, whatever its kind. */
export interface CommonStoreOptions {
  /** <dataDir>/kubesim.db for SQLite, <dataDir>/etcd for an etcd started here; memory (or a
   * temporary folder) when absent. */
  dataDir?: string;
  /** The cluster's time (history ages by it). */
  clock: () => number;
  compaction: CompactionPolicy;
  watchBufferSize?: number;
}

export interface OpenedStore {
  store: Store;
  /** Closes the store and stops what was started for it (an etcd process). */
  close(): Promise<void>;
}

/** openStoreFromSpec opens the store `spec` names. */
export async function openStoreFromSpec(spec: StoreSpec, common: CommonStoreOptions): Promise<OpenedStore> {
  switch (spec.kind) {
    case 'sqlite': {
      const store = openSqliteStore({
        path: common.dataDir ? join(common.dataDir, 'kubesim.db') : ':memory:',
        clock: common.clock,
        compaction: common.compaction,
        watchBufferSize: common.watchBufferSize,
      });
      return { store, close: async () => store.close() };
    }
    case 'instance':
      return { store: spec.store, close: async () => undefined };
    case 'etcd': {
      const store = await openEtcd(spec.endpoints, common, spec.prefix);
      return { store, close: async () => store.close() };
    }
    case 'managed-etcd':
      return openManagedEtcd(common);
  }
}

async function openEtcd(endpoints: string[], common: CommonStoreOptions, prefix?: string): Promise<Store> {
  return openEtcdStore({ endpoints, prefix, clock: common.clock, compaction: common.compaction, watchBufferSize: common.watchBufferSize });
}

/** openManagedEtcd starts etcd in <dataDir>/etcd (or a temporary folder, removed at close) and
 * opens the store on it; the store's close stops etcd. */
async function openManagedEtcd(common: CommonStoreOptions): Promise<OpenedStore> {
  const temporary = common.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'kubesim-etcd-'));
  const removeTemporary = () => temporary && rmSync(temporary, { recursive: true, force: true });
  let etcd: EtcdProcess;
  try {
    etcd = await startEtcdProcess({ dataDir: temporary ?? join(common.dataDir!, 'etcd') });
  } catch (err) {
    removeTemporary();
    throw err;
  }
  const stop = async () => {
    await etcd.stop();
    removeTemporary();
  };
  let store: Store;
  try {
    store = await openEtcd(etcd.endpoints, common);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    store,
    async close() {
      store.close();
      await stop();
    },
  };
}
