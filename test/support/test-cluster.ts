/**
 * startTestCluster runs a real API server in this process on 127.0.0.1:0 with an in-memory
 * store (or a temp data dir), and returns its URL, a kubeconfig (text and file) and stop().
 * Every integration test uses it; it becomes the public test-target API later, so it stays
 * small. stop() closes the server and removes every file it made.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningApiServer, type StartApiServerOptions, startApiServer } from '../../apiserver/start-api-server.js';
import { serverKubeconfig } from '../../cli/kubeconfig.js';
import { trustKubeconfig } from './http.js';
import { testStoreSpec } from './test-store.js';

export interface TestCluster {
  url: string;
  /** kubeconfig YAML pointing at the cluster. */
  kubeconfig: string;
  /** Path of a file holding `kubeconfig` (for kubectl --kubeconfig / KUBECONFIG). */
  kubeconfigPath: string;
  /** A private directory for this cluster's files (kubectl cache, data dir), removed on stop. */
  dir: string;
  server: RunningApiServer;
  stop(): Promise<void>;
}

export interface TestClusterOptions extends Omit<StartApiServerOptions, 'port' | 'host' | 'dataDir'> {
  /** Keep state in a SQLite file in the cluster's temp dir instead of memory. */
  persistent?: boolean;
}

/** testStoreOptions: the store the options name, else the run's (test-store.ts). A cluster put
 * on etcd by the run is one API server, not one of several (no Lease renewals or shared-state
 * writes of its own): the suites run there check single-server API semantics. */
function testStoreOptions(options: TestClusterOptions): Pick<TestClusterOptions, 'store' | 'shared'> {
  if (options.store) return { store: options.store, shared: options.shared };
  const store = testStoreSpec();
  return store ? { store, shared: options.shared ?? false } : { shared: options.shared };
}

export async function startTestCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-test-'));
  const server = await startApiServer({
    ...options,
    host: '127.0.0.1',
    port: 0,
    dataDir: options.persistent ? join(dir, 'data') : undefined,
    ...testStoreOptions(options),
  });
  const kubeconfig = await serverKubeconfig(server);
  trustKubeconfig(kubeconfig);
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfig);
  return {
    url: server.url,
    kubeconfig,
    kubeconfigPath,
    dir,
    server,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
