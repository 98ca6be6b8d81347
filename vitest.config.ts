import { defineConfig } from 'vitest/config';

// One run covers unit tests (next to the code) and integration tests (test/).
// Integration tests start real servers on port 0; forks keep their handles apart.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
