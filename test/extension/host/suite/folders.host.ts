/// <reference types="mocha" />
// Expected states are not failures: a folder outside git, a repository without a base branch.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  api,
  appJs,
  clearNotifications,
  codeOf,
  config,
  ours,
  pressNotificationButtonUntil,
  review,
  setSetting,
  sleep,
  waitFor,
} from './host-helpers.ts';
import { APP_JS } from '../fixture.mjs';

/** A temp folder: plain, or a git repository on `trunk` (no origin) with a branch `feature` that adds a file. */
function makeFolder(kind: 'plain' | 'repository-without-origin'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-folder-'));
  writeFileSync(path.join(dir, 'notes.js'), 'const a = 1;\n');
  if (kind === 'repository-without-origin') {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
        cwd: dir,
        stdio: 'ignore',
      });
    git('init', '-q', '-b', 'trunk');
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    git('checkout', '-q', '-b', 'feature');
    writeFileSync(path.join(dir, 'feature.js'), 'export function f() {\n  debugger;\n}\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'feature');
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The SCM title bar's argument: the repository the button belongs to. */
const sourceControl = (dir: string) => ({ id: 'git', label: 'Git', rootUri: vscode.Uri.file(dir) });

suite('Folders and repositories', () => {
  test('a folder outside git: no failure, and the status bar item hides', async () => {
    const folder = makeFolder('plain');
    try {
      const result = await review(sourceControl(folder.dir));
      assert.equal(result.outcome, 'not-a-repository', JSON.stringify(result));
      assert.equal(result.failure, undefined);
      assert.equal(api().status().visible, false, JSON.stringify(api().status()));
      assert.notEqual(api().status().text, '$(error) Review failed');
    } finally {
      folder.remove();
    }
    const back = await review();
    assert.equal(back.outcome, 'completed', JSON.stringify(back));
    assert.equal(api().status().visible, true);
  });

  test('no origin and no main: offers a base branch picker, not advice about git remote set-head', async () => {
    const repository = makeFolder('repository-without-origin');
    try {
      const result = await review(sourceControl(repository.dir));
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.equal(result.failure?.kind, 'no_base_branch');
      assert.deepEqual(result.failure?.actions, ['Choose Base Branch', 'Show Log']);
      assert.doesNotMatch(result.failure?.message ?? '', /set-head/);

      // The picker lists the repository's branches; accepting the first (trunk) sets it and reviews.
      const picked = vscode.commands.executeCommand<{ baseBranch?: string; review?: { outcome: string } }>(
        'diffReview.chooseBaseBranch',
        vscode.Uri.file(repository.dir),
      );
      await sleep(500);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const chosen = await picked;
      assert.equal(chosen?.baseBranch, 'trunk', JSON.stringify(chosen));
      assert.equal(chosen?.review?.outcome, 'completed', JSON.stringify(chosen));
    } finally {
      await setSetting('baseBranch', undefined);
      repository.remove();
    }
  });

  test('nothing committed to review, but uncommitted changes: offers to review them', async () => {
    await setSetting('baseBranch', 'feature'); // HEAD itself: no committed change
    // Not committed: a debugger statement added at the end of src/app.js.
    writeFileSync(appJs().fsPath, `${APP_JS}debugger;\n`);
    const addedLine = APP_JS.split('\n').length - 1;
    try {
      await clearNotifications();
      const result = await review();
      assert.equal(result.outcome, 'nothing-to-review', JSON.stringify(result));
      assert.deepEqual(result.actions, ['Review Including Uncommitted Changes'], JSON.stringify(result));
      // The button: the same review, once, with the working tree (pressed until the review starts).
      const found = () => ours(appJs()).some((d) => codeOf(d) === 'no-debugger' && d.range.start.line === addedLine);
      await pressNotificationButtonUntil(
        'the review of the working tree to start, after the button',
        () => /Reviewing|Queued/.test(api().status().text) || found(),
      );
      await waitFor('the review of the working tree, after the button', found, 15_000).catch((error: Error) => {
        throw new Error(`${error.message} ${JSON.stringify(ours(appJs()))}; status ${api().status().text}`);
      });
      assert.equal(config().get('includeUncommittedChanges'), false, 'the setting is left as it is');
    } finally {
      await setSetting('baseBranch', undefined);
      writeFileSync(appJs().fsPath, APP_JS);
    }
  });
});
