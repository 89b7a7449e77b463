import { defineConfig } from 'vitest/config';
import LongestFirst from './support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Two files at a time, one per core: each file starts its own server on a free port with its own
    // temporary database, its own Chromium (a fresh profile) and its own download folder, and every
    // screenshot name is used by one file only, so nothing two files do can collide.
    fileParallelism: true,
    pool: 'forks',
    maxWorkers: 2,
    // Longest first (timings.json), so both workers finish together.
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // A failed step must fail the run, never be retried into green.
    retry: 0,
  },
});
