import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers, worker threads and git: generous, but a hang still fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
