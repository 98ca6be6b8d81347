import { defineConfig } from 'vitest/config';

// One run covers unit tests (next to the code) and integration tests (test/).
// Integration tests start real servers on port 0; forks keep their handles apart.
export default defineConfig({
  // `import { startCluster } from 'kubesim'` in tests and examples resolves to the source, as the
  // package's own "exports" does to dist/ for users.
  resolve: { alias: { kubesim: new URL('./cli/cluster/index.ts', import.meta.url).pathname } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    pool: 'forks',
    testTimeout: 30_000,
    // Hooks start whole clusters (`kubesim up` waits for its nodes): a busy machine needs the margin.
    hookTimeout: 90_000,
  },
});
