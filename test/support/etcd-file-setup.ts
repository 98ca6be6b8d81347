/**
 * Setup file of the `etcd` test project: an etcd for the test file, started before its own
 * hooks and stopped after them (see test-store.ts for why not one for the whole run).
 */
import { afterAll, beforeAll } from 'vitest';
import { type RunningEtcd, startEtcd } from './etcd.js';
import { useFileEtcd } from './test-store.js';

let etcd: RunningEtcd | undefined;

beforeAll(async () => {
  etcd = await startEtcd();
  useFileEtcd(etcd.endpoints);
});

afterAll(async () => {
  useFileEtcd(undefined);
  await etcd?.stop();
});
