/// <reference types="mocha" />
// First in the run: activation, and what happens before this window has a bundled service of its own.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DiffReviewApi } from '../../../../extension/src/extension.ts';
import { readLock } from '../../../../service/store/data-dir-lock.ts';
import { figures } from './figures.ts';
import { api, appJs, EXTENSION_ID, lineOf, review, shared, waitFor } from './host-helpers.ts';
import { DEBUGGER_LINE } from '../fixture.mjs';

/** Starts "window A": another process running the extension's bundled service on the same data dir. */
async function startOtherWindow(dataDir: string): Promise<{ url: string; process: ChildProcess }> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const child = spawn(process.execPath, [path.join(__dirname, 'other-window.js'), extension.extensionPath, dataDir], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, // under VS Code desktop, execPath is Electron
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`the other window's service exited (${code}): ${output}`)));
  });
  return { url, process: child };
}

suite('Starting', () => {
  test('activates at startup in a git workspace, without starting the service', async () => {
    const extension = vscode.extensions.getExtension<DiffReviewApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    // workspaceContains:.git/HEAD: review on save works from the start, and the last findings come back.
    await waitFor('activation at startup', () => extension.isActive, 10_000);
    figures.activationMs = Math.round(extension.exports.activationMs);
    assert.deepEqual(api().status().state, { kind: 'idle' });
    assert.equal(api().status().text, '$(checklist) Diff Review');
    assert.equal(api().status().command, 'diffReview.reviewChanges', 'a click on the status bar item reviews');
    assert.equal(
      existsSync(path.join(api().bundledServiceDataDir, 'service.lock')),
      false,
      'no service until a review',
    );
    console.log(`activation: ${figures.activationMs} ms`);
  });

  test("two windows: this one reviews through the other's bundled service, and takes over when it closes", async () => {
    const other = await startOtherWindow(api().bundledServiceDataDir);
    try {
      let started = performance.now();
      const borrowed = await review();
      figures.firstReviewViaOtherWindowMs = Math.round(performance.now() - started);
      assert.equal(borrowed.outcome, 'completed', JSON.stringify(borrowed));
      assert.equal(borrowed.serviceUrl, other.url, "the other window's service");
      assert.equal(lineOf(appJs(), 'no-debugger'), DEBUGGER_LINE);

      // The other window closes: its service stops.
      const exited = new Promise((resolve) => other.process.once('exit', resolve));
      other.process.kill('SIGTERM');
      await exited;
      // Signed out: connecting must make a new token, on the service that has gone (the take-over
      // must cover connecting too, not only the review).
      await vscode.commands.executeCommand('diffReview.signOut');
      started = performance.now();
      const own = await review();
      figures.takeOverReviewMs = Math.round(performance.now() - started);
      assert.equal(own.outcome, 'completed', `this window starts its own service: ${JSON.stringify(own)}`);
      assert.match(own.serviceUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      // This window's own service now holds the data dir. Its port may well be the one the other
      // window freed (a port of the same range), so the URL alone proves nothing.
      const lock = readLock(api().bundledServiceDataDir);
      assert.equal(lock?.pid, process.pid, 'the data dir is locked by this extension host');
      assert.equal(lock?.url, own.serviceUrl);
      shared.bundledUrl = own.serviceUrl;
      console.log(
        `first review, through the other window's service: ${figures.firstReviewViaOtherWindowMs} ms; take-over (own service start included): ${figures.takeOverReviewMs} ms`,
      );
    } finally {
      other.process.kill('SIGKILL');
    }
  });
});
