import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // One server and one Chromium per file; files run one after another (2 cores in CI).
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // A failed step must fail the run, never be retried into green.
    retry: 0,
  },
});
