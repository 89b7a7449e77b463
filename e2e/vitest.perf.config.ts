import { defineConfig } from 'vitest/config';

// `npm run perf`: the first-screen timings for docs/performance.md, kept out of the test run
// (a timing on a shared machine is a measurement, not a pass/fail check).
export default defineConfig({
  test: {
    include: ['perf/**/*.perf.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 90_000,
    retry: 0,
  },
});
