/// <reference types="mocha" />
// Session "reload-before": the first window on a fresh repository and profile reviews branch
// feature (a cold review: this window starts the service; then a warm one), turns review on save
// on, then checks out main and reviews it: nothing to review there. run.mjs then checks feature
// out again, changes src/app.js on disk and opens the same window again (reload-after), where
// feature's findings must come back although the window's last review was main's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { ReviewTimings } from '../../../../extension/src/review-runner.ts';
import { figures } from './figures.ts';
import { api, EXTENSION_ID, review, root, setSetting, sleep, waitFor } from './host-helpers.ts';

/** A review's phases as figures (`cold.gitMs`, …), saved with the results. */
function recordTimings(prefix: string, timings: ReviewTimings | undefined) {
  for (const [phase, ms] of Object.entries(timings ?? {})) if (ms !== undefined) figures[`${prefix}.${phase}`] = ms;
}

suite('Before a reload', () => {
  test('a cold review (this window starts the service), then a warm one: the time from the command to the diagnostics, phase by phase', async () => {
    await waitFor('activation', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 10_000);
    const started = performance.now();
    const result = await review();
    figures.coldCommandToDiagnosticsMs = Math.round(performance.now() - started);
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(result.shown, 2);
    assert.ok(
      result.timings?.serviceStartMs !== undefined,
      `this review started the service: ${JSON.stringify(result)}`,
    );
    recordTimings('cold', result.timings);
    // Warm: the service runs, the extension's token is made.
    const again = performance.now();
    const warm = await review();
    figures.warmCommandToDiagnosticsMs = Math.round(performance.now() - again);
    assert.equal(warm.outcome, 'completed', JSON.stringify(warm));
    assert.equal(warm.timings?.serviceStartMs, undefined, 'the service was started once');
    recordTimings('warm', warm.timings);
    console.log(
      `command to diagnostics: cold ${figures.coldCommandToDiagnosticsMs} ms, warm ${figures.warmCommandToDiagnosticsMs} ms; ${JSON.stringify(figures)}`,
    );
  });

  test("feature's findings are kept while main, checked out and reviewed, has nothing to review", async () => {
    await setSetting('reviewOnSave', true); // a user setting: the next session has it too
    await waitFor('the findings kept in the workspace state', () => api().savedReview()?.kept === 2, 5000);
    execFileSync('git', ['checkout', '-q', 'main'], { cwd: root(), stdio: 'ignore' });
    await waitFor('the findings hidden on main', () => api().findingsMessage() !== undefined, 8000);
    const onMain = await review();
    assert.equal(onMain.outcome, 'nothing-to-review', JSON.stringify(onMain));
    assert.equal(api().savedReview(), undefined, "the window's last review (main's) had none");
    // The web workbench writes its state to the browser's storage shortly after: let it, before the window closes.
    await sleep(2000);
  });
});
