/// <reference types="mocha" />
// Session "subfolder": a window on src/ of the repository (no .git in the folder itself). The
// extension still activates at startup (review on save and the status bar work), and reviews.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, review, waitFor } from './host-helpers.ts';

suite('A folder inside a repository', () => {
  test('activates at startup, shows the status bar item, and reviews the repository', async () => {
    await waitFor('activation at startup', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 10_000);
    assert.equal(api().status().visible, true, 'in a git repository: the item shows');
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
  });
});
