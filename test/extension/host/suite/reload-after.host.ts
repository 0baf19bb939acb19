/// <reference types="mocha" />
// Session "reload-after": the same window again (same profile, same workspace), back on branch
// feature after reload-before ended on main, and src/app.js gained two lines on disk. With no
// command run: feature's findings are back, on their moved lines, and review on save works as the
// very first thing the user does.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';
import { figures } from './figures.ts';
import { api, appJs, configPy, EXTENSION_ID, lineOf, openApp, waitFor } from './host-helpers.ts';

suite('After a reload', () => {
  test('the findings are back at startup, where their text is now', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await waitFor('activation at startup', () => extension.isActive, 10_000);
    figures.reloadActivationMs = Math.round(extension.exports.activationMs);
    await waitFor(
      'the no-debugger finding, two lines down',
      () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 2,
      5000,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message} Kept: ${JSON.stringify(api().savedReview())}; status ${JSON.stringify(api().status().state)}`,
      );
    });
    assert.equal(lineOf(configPy(), 'secret'), SECRET_LINE);
    assert.equal(api().status().text, '$(error) Diff Review: 2');
    console.log(`activation after a reload: ${figures.reloadActivationMs} ms`);
  });

  test('review on save works as the first action of the session', async () => {
    const editor = await openApp();
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// three\n'));
    await editor.document.save();
    await vscode.commands.executeCommand('diffReview.showLog');
    const log = () =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'output' && /Diff Review/.test(decodeURIComponent(d.uri.toString())),
      );
    await waitFor('a review after the save', () => /Submitted review/.test(log()?.getText() ?? ''), 15_000);
    await waitFor('its findings', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 3, 15_000);
  });
});
