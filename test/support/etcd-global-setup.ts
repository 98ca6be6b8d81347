/**
 * Global set-up of the `etcd` test project: one etcd for the whole run, its client URLs
 * provided to every test file (test-store.ts), stopped when the run ends.
 */
import type { TestProject } from 'vitest/node';
import { startEtcd } from './etcd.js';

/** ETCD_ENDPOINTS_KEY is what the set-up provides: the shared etcd's client URLs. */
export const ETCD_ENDPOINTS_KEY = 'kubesimEtcdEndpoints';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const etcd = await startEtcd();
  project.provide(ETCD_ENDPOINTS_KEY, etcd.endpoints);
  return () => etcd.stop();
}
