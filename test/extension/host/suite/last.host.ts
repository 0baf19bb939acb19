/// <reference types="mocha" />
// Last in the run: the log of everything before, clearing, and deactivation (which stops the service).
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { appJs, configPy, EXTENSION_ID, ours, review, shared, waitFor } from './host-helpers.ts';

suite('last: the log, clearing, deactivation', () => {
  test('Open Review Log shows the log: what happened, no token, no diff', async () => {
    await vscode.commands.executeCommand('diffReview.showLog');
    const find = () =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'output' && /Diff Review/.test(decodeURIComponent(d.uri.toString())),
      );
    const log = await waitFor(
      'the log in the output panel',
      () => find()?.getText().includes('Submitted review') && find(),
      5000,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message} Documents: ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`,
      );
    });
    const text = log.getText();
    assert.match(text, /Started the bundled service at http:\/\/127\.0\.0\.1:\d+/);
    assert.match(text, /Review rev_\w+: \d+ comment\(s\), \d+ shown/);
    assert.match(
      text,
      /Not shown: src\/old\.js:1 \(the file no longer exists\)/,
      'comments on deleted files are reported',
    );
    assert.doesNotMatch(text, /drv_[A-Za-z0-9]{20,}/, 'no token');
    assert.doesNotMatch(text, /Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u|\+\s*debugger;/, 'no diff');
  });

  test('Clear Review Comments removes them all', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed');
    await vscode.commands.executeCommand('diffReview.clearComments');
    assert.equal(ours(appJs()).length + ours(configPy()).length, 0);
  });

  test('deactivate() stops the bundled service (its port stops answering)', async () => {
    assert.ok(shared.bundledUrl, 'the first review gave the bundled service URL');
    assert.equal((await fetch(`${shared.bundledUrl}/v1/openapi.json`)).status, 200, 'it answers before');
    // The module VS Code loaded (Node's module cache): the very deactivate() it calls on shutdown.
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const main = require(path.join(extension.extensionPath, extension.packageJSON.main)) as {
      deactivate(): Promise<void>;
    };
    await main.deactivate();
    await assert.rejects(fetch(`${shared.bundledUrl}/v1/openapi.json`), /fetch failed/, 'nothing listens any more');
  });
});
