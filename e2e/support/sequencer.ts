// Runs the test files longest first, from the seconds each took in a full run (timings.json), so
// the two workers end together. vitest's own order needs its cache of past runs, which `npm ci`
// deletes with node_modules: without it, files run largest first by bytes, and the longest file
// (lists-fit, three minutes) ran last, alone, while the other worker sat idle. A file not in
// timings.json runs first, as vitest runs unknown files; a stale figure only costs some balance.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import timings from '../timings.json' with { type: 'json' };

const seconds: Record<string, number> = timings;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const took = (file: TestSpecification) =>
      seconds[relative(file.project.config.root, file.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => took(b) - took(a));
  }
}
