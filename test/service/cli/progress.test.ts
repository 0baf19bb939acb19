// Progress on stderr when a review takes more than a moment, while stdout carries only the format.
// The engine works synchronously (no timer fires while it runs), so the line comes from inside the
// review, through the engine's control hook; a timer covers the waits on git and stdin.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewOffline } from '../../../service/cli/offline-review.ts';
import { Progress, progressAfterMs } from '../../../service/cli/progress.ts';
import { buildCli, FAKE_GITHUB_TOKEN, makeRepo, runCli, type TestRepo } from './review-cli.ts';

const repos: TestRepo[] = [];
beforeAll(buildCli, 60_000);
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

const diffOf = (files: number) =>
  Array.from(
    { length: files },
    (_, i) => `diff --git a/f${i}.js b/f${i}.js\n--- /dev/null\n+++ b/f${i}.js\n@@ -0,0 +1,2 @@\n+debugger;\n+x();\n`,
  ).join('');

describe('Progress', () => {
  it('says the stage from inside the engine once the threshold passes there, and only once', async () => {
    // A clock that moves only when read: after the stage begins, only the engine's hook reads it,
    // so a line written at all was written from inside the review (its timer is set for days).
    let reads = 0;
    const lines: string[] = [];
    const progress = new Progress({ afterMs: 4e8, now: () => reads++ * 1e8, write: (line) => lines.push(line) });
    progress.stage('reviewing stdin (1 KB)');
    expect(lines).toEqual([]);
    const result = await reviewOffline(diffOf(5), 'stdin', {}, { stopped: progress.tick });
    progress.end();
    expect(result.findings).toHaveLength(5); // the hook never stops the review
    expect(reads).toBeGreaterThan(4);
    expect(lines).toEqual(['diff-review: reviewing stdin (1 KB)…\n']);
  });

  it('a stage begun after the threshold is said at once', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = new Progress({ afterMs: 1000, now: () => now, write: (line) => lines.push(line) });
    progress.stage('reading the diff from git');
    now = 1500;
    progress.tick();
    progress.stage('reviewing main...HEAD (3 KB)');
    progress.end();
    expect(lines).toEqual([
      'diff-review: reading the diff from git…\n',
      'diff-review: reviewing main...HEAD (3 KB)…\n',
    ]);
  });
});

describe('diff-review review: the progress line (threshold from DIFF_REVIEW_PROGRESS_AFTER_MS)', () => {
  const now = { DIFF_REVIEW_PROGRESS_AFTER_MS: '0' };

  it('--diff -: on stderr, and stdout still parses as the chosen format', async () => {
    const diff = diffOf(20);
    const run = await runCli(['review', '--diff', '-', '--format', 'json'], {
      cwd: process.cwd(),
      input: diff,
      env: now,
    });
    expect(run.stderr).toBe(
      `diff-review: reading stdin…\ndiff-review: reviewing stdin (${Math.round(Buffer.byteLength(diff) / 1024)} KB)…\n`,
    );
    expect(JSON.parse(run.stdout).findings).toHaveLength(20);
  });

  it('from git: the time git takes is covered too', async () => {
    const r = makeRepo();
    repos.push(r);
    r.write('src/config.js', `export const token = "${FAKE_GITHUB_TOKEN}";\n`);
    r.commit('work');
    const run = await runCli(['review', '--format', 'sarif'], { cwd: r.dir, env: now });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^diff-review: reading the diff from git…\ndiff-review: reviewing main\.\.\.HEAD \(\d+ KB\)…\n$/,
    );
    expect(JSON.parse(run.stdout).runs[0].results).toHaveLength(1);
  });

  it('the threshold is a second unless DIFF_REVIEW_PROGRESS_AFTER_MS gives a number of milliseconds', () => {
    expect(progressAfterMs({})).toBe(1000);
    expect(progressAfterMs({ DIFF_REVIEW_PROGRESS_AFTER_MS: '' })).toBe(1000);
    expect(progressAfterMs({ DIFF_REVIEW_PROGRESS_AFTER_MS: '-5' })).toBe(1000);
    expect(progressAfterMs({ DIFF_REVIEW_PROGRESS_AFTER_MS: 'soon' })).toBe(1000);
    expect(progressAfterMs({ DIFF_REVIEW_PROGRESS_AFTER_MS: '0' })).toBe(0);
    expect(progressAfterMs({ DIFF_REVIEW_PROGRESS_AFTER_MS: '250' })).toBe(250);
  });
});
