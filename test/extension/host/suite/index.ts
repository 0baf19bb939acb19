// The extension tests' entry point, as VS Code's test protocol wants it: `run()` resolves when every
// test passed. Runs inside the extension host (code-server's here, VS Code's through
// @vscode/test-electron); built by ../run.mjs. Writes a JSON summary to $DIFF_REVIEW_HOST_RESULTS.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { figures } from './figures.ts';

/** The test files (./<name>.host.ts), in the order they run. */
const HOST_TEST_FILES = [
  'start.host',
  'review.host',
  'configured-service.host',
  'settings.host',
  'folders.host',
  'tracking.host',
  'tokens.host',
  'last.host',
];

export interface HostTestResults {
  passed: number;
  failed: number;
  tests: { title: string; state: 'passed' | 'failed'; durationMs: number; error?: string }[];
  figures: Record<string, number>;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  // In this order: start.host needs a window without a service yet; last.host deactivates.
  for (const file of HOST_TEST_FILES) mocha.addFile(path.join(__dirname, `${file}.js`));
  const results: HostTestResults = { passed: 0, failed: 0, tests: [], figures };
  const save = () => {
    const file = process.env.DIFF_REVIEW_HOST_RESULTS;
    if (file) writeFileSync(file, JSON.stringify(results, null, 2));
  };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      save();
      if (failures > 0) reject(new Error(`${failures} extension test(s) failed.`));
      else resolve();
    });
    runner.on('pass', (test) => {
      results.passed++;
      results.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
    });
    runner.on('fail', (test, error: Error) => {
      results.failed++;
      results.tests.push({
        title: test.fullTitle(),
        state: 'failed',
        durationMs: test.duration ?? 0,
        error: error?.stack ?? String(error),
      });
    });
  });
}
