/**
 * The store test clusters run on. The default project runs every suite on SQLite; the `etcd`
 * project (vitest.config.ts) runs the API semantics and kubectl suites again with
 * KUBESIM_TEST_STORE=etcd. There every test file gets an etcd of its own (etcd-file-setup.ts
 * starts it before the file and stops it after): etcd's revision is global, so clusters of
 * files running side by side on one etcd would move each other's resourceVersions, and the
 * suites check that a refused write moves nothing.
 */
import type { StoreSpec } from '../../apiserver/store-spec.js';

/** testStoreIsEtcd: this run puts its clusters on etcd. */
export const testStoreIsEtcd = process.env['KUBESIM_TEST_STORE'] === 'etcd';

let fileEtcdEndpoints: string[] | undefined;
let clusters = 0;

/** useFileEtcd records the client URLs of this file's etcd (undefined once it stopped). */
export function useFileEtcd(endpoints: string[] | undefined): void {
  fileEtcdEndpoints = endpoints;
}

/** testStoreSpec is the store for a new test cluster: undefined (the server's default, SQLite)
 * unless this run is on etcd, where each cluster of the file gets a prefix of its own. */
export function testStoreSpec(): StoreSpec | undefined {
  if (!testStoreIsEtcd) return undefined;
  if (!fileEtcdEndpoints) throw new Error('KUBESIM_TEST_STORE=etcd needs test/support/etcd-file-setup.ts as a setup file (vitest.config.ts)');
  return { kind: 'etcd', endpoints: fileEtcdEndpoints, prefix: `/kubesim-test/${++clusters}` };
}

/** testStoreFlags are the `kubesim up` arguments for the run's store: none on SQLite; on etcd,
 * an etcd that `kubesim up` starts and stops itself (as a user would run it). */
export function testStoreFlags(): string[] {
  return testStoreIsEtcd ? ['--store', 'etcd'] : [];
}
