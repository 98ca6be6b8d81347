/**
 * The store test clusters run on. The default project runs every suite on SQLite; the `etcd`
 * project (vitest.config.ts) runs the API semantics and kubectl suites again with
 * KUBESIM_TEST_STORE=etcd, on one etcd its global set-up starts (etcd-global-setup.ts), each
 * cluster under a key prefix of its own — as kube-apiserver's --etcd-prefix lets clusters share
 * an etcd.
 */
import { inject } from 'vitest';
import type { StoreSpec } from '../../apiserver/store-spec.js';
import { ETCD_ENDPOINTS_KEY } from './etcd-global-setup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kubesimEtcdEndpoints: string[];
  }
}

/** testStoreIsEtcd: this run puts its clusters on etcd. */
export const testStoreIsEtcd = process.env['KUBESIM_TEST_STORE'] === 'etcd';

let clusters = 0;

/** testStoreSpec is the store for a new test cluster: undefined (the server's default, SQLite)
 * unless this run is on etcd, where each cluster gets a prefix no other cluster uses. */
export function testStoreSpec(): StoreSpec | undefined {
  if (!testStoreIsEtcd) return undefined;
  const endpoints = inject(ETCD_ENDPOINTS_KEY);
  return { kind: 'etcd', endpoints, prefix: `/kubesim-test/${process.pid}-${++clusters}` };
}

/** testStoreFlags are the `kubesim up` arguments for the run's store: none on SQLite; on etcd,
 * an etcd that `kubesim up` starts and stops itself (as a user would run it). */
export function testStoreFlags(): string[] {
  return testStoreIsEtcd ? ['--store', 'etcd'] : [];
}
