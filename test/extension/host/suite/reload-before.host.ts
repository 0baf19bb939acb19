/// <reference types="mocha" />
// Session "reload-before": the first window on a fresh repository and profile reviews (a cold
// review: this window starts the service), turns review on save on, and closes once the findings
// are kept. run.mjs then changes src/app.js on disk and opens the same window again (reload-after).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { figures } from './figures.ts';
import { api, EXTENSION_ID, review, setSetting, sleep, waitFor } from './host-helpers.ts';

suite('Before a reload', () => {
  test('a cold review (this window starts the service); its findings are kept for the next session', async () => {
    await waitFor('activation', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 10_000);
    const started = performance.now();
    const result = await review();
    figures.coldCommandToDiagnosticsMs = Math.round(performance.now() - started);
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(result.shown, 2);
    await setSetting('reviewOnSave', true); // a user setting: the next session has it too
    await waitFor('the findings kept in the workspace state', () => api().savedReview()?.kept === 2, 5000);
    // The web workbench writes its state to the browser's storage shortly after: let it, before the window closes.
    await sleep(2000);
    console.log(`cold review, command to diagnostics: ${figures.coldCommandToDiagnosticsMs} ms`);
  });
});
