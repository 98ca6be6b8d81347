import { defineConfig } from 'vitest/config';

// The suites that run a second time on the etcd store (issue 19): the API semantics suites and
// the kubectl compatibility matrix. The store conformance suite runs on etcd in the default
// project (store/etcd/etcd-store.test.ts).
const onEtcdToo = ['test/integration/api-*.test.ts', 'test/kubectl/compatibility.test.ts', 'test/kubectl/semantics.test.ts'];

// One run covers unit tests (next to the code) and integration tests (test/).
// Integration tests start real servers on port 0; forks keep their handles apart.
export default defineConfig({
  // `import { startCluster } from 'kubesim'` in tests and examples resolves to the source, as the
  // package's own "exports" does to dist/ for users.
  resolve: { alias: { kubesim: new URL('./cli/cluster/index.ts', import.meta.url).pathname } },
  test: {
    exclude: ['node_modules/**', 'dist/**'],
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default leaves one core idle): most
    // integration tests spend their time waiting on processes, clocks and sockets.
    maxWorkers: 2,
    testTimeout: 30_000,
    // Hooks start whole clusters (`kubesim up` waits for its nodes): a busy machine needs the margin.
    hookTimeout: 90_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'etcd',
          include: onEtcdToo,
          env: { KUBESIM_TEST_STORE: 'etcd' },
          setupFiles: ['test/support/etcd-file-setup.ts'],
        },
      },
    ],
  },
});
