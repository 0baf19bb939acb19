/// <reference types="mocha" />
// Session "no-folder": a window with no folder. Reviewing is no failure: it says to open a folder,
// with the button that does.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, review, waitFor } from './host-helpers.ts';

suite('No folder', () => {
  test('Review Changes offers Open Folder; the status bar item hides', async () => {
    await waitFor('activation at startup', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 10_000);
    assert.equal(vscode.workspace.workspaceFolders, undefined);
    const result = await review();
    assert.equal(result.outcome, 'no-folder', JSON.stringify(result));
    assert.deepEqual(result.actions, ['Open Folder']);
    assert.equal(api().status().visible, false);
  });
});
