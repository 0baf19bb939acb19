/// <reference types="mocha" />
// Session "smoke": what the packaged .vsix must do once unpacked outside the project, where no
// node_modules can stand in for a file the package lacks: activate, start its bundled service and
// review (diagnostics on the right lines), and fill the findings view. The whole behaviour is
// covered by the other sessions, run from source.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';
import { api, appJs, codeOf, configPy, EXTENSION_ID, ours, review, waitFor } from './host-helpers.ts';

suite('The packaged extension', () => {
  test('activates at startup in a git workspace', async () => {
    await waitFor('activation at startup', () => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 10_000);
    assert.deepEqual(api().status().state, { kind: 'idle' });
  });

  test('reviews through the bundled service it starts: diagnostics on their lines', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.match(result.serviceUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'the bundled service, on loopback');
    const debuggerLines = ours(appJs())
      .filter((d) => codeOf(d) === 'no-debugger')
      .map((d) => d.range.start.line);
    assert.deepEqual(debuggerLines, [DEBUGGER_LINE]);
    const secretLines = ours(configPy())
      .filter((d) => codeOf(d) === 'secret')
      .map((d) => d.range.start.line);
    assert.deepEqual(secretLines, [SECRET_LINE]);
  });

  test('the findings view lists them by file', async () => {
    await vscode.commands.executeCommand('diffReview.groupFindingsBy', 'file');
    assert.deepEqual(
      api()
        .findingsTree()
        .map((group) => [group.label, group.description]),
      [
        ['config.py', '1'],
        ['src/app.js', '1'],
      ],
    );
  });
});
