/**
 * The --store flag of `kubesim apiserver` and `kubesim up` (apiserver/store-spec.ts says what
 * it accepts). `kubesim up --store etcd` starts etcd itself, beside the API server process it
 * supervises, and hands that process the etcd's address: the API server may be restarted
 * without restarting etcd, and etcd stops when the cluster does.
 */
import { join } from 'node:path';
import { startEtcdProcess } from '../apiserver/etcd-process.js';
import { formatStoreSpec, parseStoreSpec, STORE_FLAG_HELP, type StoreSpec } from '../apiserver/store-spec.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

export const storeFlags: Record<string, FlagSpec> = {
  store: { type: 'string', description: STORE_FLAG_HELP, default: 'sqlite' },
};

/** storeSpecFromFlags reads --store; a bad value is a usage error. */
export function storeSpecFromFlags(flags: Flags): StoreSpec {
  try {
    return parseStoreSpec(String(flags['store'] ?? 'sqlite'));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** ClusterStore is the store `kubesim up` runs for its API server process. */
export interface ClusterStore {
  /** The --store argument for the API server process. */
  args: string[];
  /** Stops what was started for it (an etcd). */
  stop(): Promise<void>;
}

/** startClusterStore starts etcd in <dataDir>/etcd for `--store etcd`; other stores need nothing. */
export async function startClusterStore(spec: StoreSpec, dataDir: string): Promise<ClusterStore> {
  if (spec.kind === 'sqlite') return { args: [], stop: async () => undefined };
  if (spec.kind !== 'managed-etcd') return { args: ['--store', formatStoreSpec(spec)], stop: async () => undefined };
  const etcd = await startEtcdProcess({ dataDir: join(dataDir, 'etcd') });
  return { args: ['--store', formatStoreSpec({ kind: 'etcd', endpoints: etcd.endpoints })], stop: () => etcd.stop() };
}
