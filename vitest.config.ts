import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresAvailable } from './test/support/postgres.ts';

export default defineConfig({
  test: {
    // Real servers, worker threads and git: generous, but a hang still fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for real UIs and services: 1 s (vitest's default) is too short on a busy 2-core machine.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most of a file's time
    // is spent waiting on servers, browsers and child processes, not computing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'default', include: ['test/**/*.test.ts'], globalSetup: ['test/support/build-global-setup.ts'] },
      },
      // The whole API suite again (and the job runner's, on pg-boss), in PostgreSQL mode (test/support/test-service.ts reads the
      // variable). Where the server binaries are missing it is left out, except in CI, where
      // postgresAvailable() fails the run instead.
      ...(postgresAvailable()
        ? [
            {
              extends: true as const,
              test: {
                name: 'api-on-postgres',
                include: [
                  'test/service/http/**/*.test.ts',
                  'test/service/{jobs,lifecycle,retention}.test.ts',
                  'test/service/faults/hostile-input.test.ts',
                  'test/service/cli/service-review.test.ts',
                ],
                // a `diff-review serve` child of its own, on lowdb: the same in either run, once is enough
                exclude: ['test/service/http/hardening-early-413-serve.test.ts'],
                env: { DIFF_REVIEW_TEST_STORE: 'postgres' },
                globalSetup: ['test/support/build-global-setup.ts', 'test/support/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
