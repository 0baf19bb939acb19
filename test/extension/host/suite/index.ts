// The extension tests' entry point, as VS Code's test protocol wants it: `run()` resolves when every
// test passed. Runs inside the extension host (code-server's here, VS Code's through
// @vscode/test-electron); built by ../run.mjs. Writes a JSON summary to $DIFF_REVIEW_HOST_RESULTS.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';
import { figures } from './figures.ts';

/** The test files (./<name>.host.ts) of each session (a launch of the window), in the order they run. */
const SESSIONS: Record<string, string[]> = {
  // One window, most of the tests.
  main: [
    'start.host',
    'review.host',
    'findings.host',
    'configured-service.host',
    'settings.host',
    'folders.host',
    'tracking.host',
    'tokens.host',
    'last.host',
  ],
  // A review, then the same window again (a reload: the same profile and workspace).
  'reload-before': ['reload-before.host'],
  'reload-after': ['reload-after.host'],
  // A window on a folder inside the repository, and one with no folder.
  subfolder: ['subfolder.host'],
  'no-folder': ['no-folder.host'],
  // The packaged .vsix (run.mjs --vsix): activation, one review, the findings view.
  smoke: ['smoke.host'],
};

export interface HostTestResults {
  passed: number;
  failed: number;
  tests: { title: string; state: 'passed' | 'failed'; durationMs: number; error?: string }[];
  figures: Record<string, number>;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  // In this order: start.host needs a window without a service yet; last.host deactivates.
  const session = process.env.DIFF_REVIEW_HOST_SESSION || 'main';
  const files = SESSIONS[session];
  if (!files) throw new Error(`no host test session ${session}; there are ${Object.keys(SESSIONS).join(', ')}`);
  for (const file of files) mocha.addFile(path.join(__dirname, `${file}.js`));
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
