/// <reference types="mocha" />
// Diff Review in a real extension host: a real git repository (../run.mjs made it), the real
// bundled service, the real diagnostics API.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { figures } from './figures.ts';
import {
  api,
  appJs,
  appJsState,
  closedPort,
  codeOf,
  configPy,
  EXTENSION_ID,
  lineOf,
  openApp,
  ours,
  revertAndCloseAll,
  review,
  root,
  screenshot,
  setSetting,
  shared,
  sleep,
  waitFor,
} from './host-helpers.ts';
import { APP_JS, CONFIG_PY, DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';

suite('Diff Review in a real extension host', () => {
  test('Review Changes shows the comments as diagnostics: file, line, severity, code, source', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.deepEqual(
      result.notShown,
      ['src/old.js:1 (the file no longer exists)'],
      `the comment on the deleted src/old.js goes to the log: ${JSON.stringify(result)}`,
    );

    const debuggerDiagnostic = ours(appJs()).find((d) => codeOf(d) === 'no-debugger');
    assert.ok(debuggerDiagnostic, `no-debugger on src/app.js; got ${JSON.stringify(ours(appJs()))}`);
    assert.equal(debuggerDiagnostic.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(debuggerDiagnostic.range.start.line, DEBUGGER_LINE);
    assert.equal(debuggerDiagnostic.range.end.line, DEBUGGER_LINE);
    assert.deepEqual(
      [debuggerDiagnostic.range.start.character, debuggerDiagnostic.range.end.character],
      [2, 10],
      'covers `debugger`',
    );
    assert.match(debuggerDiagnostic.message, /^Remove the debugger statement/);

    const secretDiagnostic = ours(configPy()).find((d) => codeOf(d) === 'secret');
    assert.ok(secretDiagnostic, `secret on config.py; got ${JSON.stringify(ours(configPy()))}`);
    assert.equal(secretDiagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(secretDiagnostic.range.start.line, SECRET_LINE);
    assert.doesNotMatch(secretDiagnostic.message, /Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u/);

    assert.equal(ours(vscode.Uri.file(path.join(root(), 'src', 'old.js'))).length, 0);
    assert.deepEqual(
      api().status().state,
      {
        kind: 'done',
        findings: 2,
        bySeverity: { error: 1, warning: 1, info: 0 },
        hidden: 0,
        reviewedOn: 'feature',
        checkedOut: 'feature',
      },
      'the status bar counts the findings shown, of the review of branch feature',
    );
    // The product's name, the icon of the worst severity, and the count by severity in the tooltip.
    assert.equal(api().status().text, '$(error) Diff Review: 2');
    assert.match(
      api().status().tooltip,
      /\| \$\(error\) Errors \| 1 \|\n\| \$\(warning\) Warnings \| 1 \|\n\| \$\(info\) Info \| 0 \|/,
    );
    assert.equal(api().status().command, 'diffReview.findings.focus', 'a click opens the findings');
    assert.match(result.serviceUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'the bundled service, on loopback');
    assert.equal(result.serviceUrl, shared.bundledUrl, 'the bundled service this window started');
  });

  test('underlines the flagged code, not the whole line (the columns the engine reports, from its SARIF)', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const found = ours(appJs()).find((d) => codeOf(d) === 'no-debugger');
    assert.ok(found, JSON.stringify(ours(appJs())));
    const line = APP_JS.split('\n')[DEBUGGER_LINE]!;
    // The line's text would be `debugger;`; the rule flags the keyword.
    assert.equal(line.slice(found.range.start.character, found.range.end.character), 'debugger');
  });

  test('a new review replaces the previous diagnostics; a warm review is fast', async () => {
    const before = ours(appJs()).length + ours(configPy()).length;
    const started = performance.now();
    const result = await review();
    figures.commandToDiagnosticsMs = Math.round(performance.now() - started);
    assert.equal(result.outcome, 'completed');
    assert.equal(ours(appJs()).length + ours(configPy()).length, before, 'replaced, not added');
    console.log(`command to diagnostics: ${figures.commandToDiagnosticsMs} ms`);
  });

  test('the Problems panel shows the review (screenshot)', async () => {
    const editor = await openApp();
    editor.selection = new vscode.Selection(DEBUGGER_LINE, 2, DEBUGGER_LINE, 2);
    editor.revealRange(new vscode.Range(DEBUGGER_LINE, 0, DEBUGGER_LINE, 0));
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar'); // room for the messages
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await screenshot('problems-panel');
  });

  test('a diagnostic moves with lines inserted and deleted above it', async () => {
    const editor = await openApp();
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// one\n// two\n')));
    await waitFor('the diagnostic to move down 2 lines', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 2);
    assert.ok(await editor.edit((edit) => edit.delete(new vscode.Range(0, 0, 1, 0))));
    await waitFor('the diagnostic to move up 1 line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 1);
    assert.equal(ours(appJs()).find((d) => codeOf(d) === 'no-debugger')?.range.start.character, 2);
  });

  test('closing the file without saving puts it back on its line; reopening keeps it there', async () => {
    await openApp();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(
      'the diagnostic back on its saved line',
      () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE,
    ).catch((error: Error) => {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === appJs().toString());
      throw new Error(
        `${error.message} Diagnostics: ${JSON.stringify(ours(appJs()))}; document open: ${open !== undefined}, dirty: ${open?.isDirty}, active: ${vscode.window.activeTextEditor?.document.uri.toString()}`,
      );
    });
    await openApp();
    await sleep(200);
    assert.equal(lineOf(appJs(), 'no-debugger'), DEBUGGER_LINE);
  });

  test('editing the commented line itself drops its diagnostic', async () => {
    const editor = await openApp();
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(DEBUGGER_LINE, 2), '// ')));
    await waitFor('the diagnostic to go', () => lineOf(appJs(), 'no-debugger') === undefined);
    assert.equal(lineOf(configPy(), 'secret'), SECRET_LINE, 'other files keep theirs');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a refused token fails with a "Set Token" action; Sign Out makes the extension use its own again', async () => {
    await vscode.commands.executeCommand('diffReview.setToken', `drv_${'x'.repeat(38)}`);
    const refused = await review();
    assert.equal(refused.outcome, 'error', JSON.stringify(refused));
    assert.equal(refused.failure?.kind, 'unauthorized');
    assert.ok(refused.failure?.actions.includes('Set Token'), JSON.stringify(refused.failure));
    assert.match(refused.failure?.message ?? '', /refused the API token \(401 unauthorized\)/);

    await vscode.commands.executeCommand('diffReview.signOut');
    const again = await review();
    assert.equal(again.outcome, 'completed', JSON.stringify(again));
    assert.equal(lineOf(appJs(), 'no-debugger'), DEBUGGER_LINE);
  });

  test('the manifest puts Review Changes in the Source Control title bar; its menu argument is accepted', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    assert.deepEqual(manifest.contributes.menus['scm/title'], [
      { command: 'diffReview.reviewChanges', group: 'navigation@50', when: 'scmProvider == git' },
    ]);
    const registered = await vscode.commands.getCommands(true);
    for (const command of ['reviewChanges', 'clearComments', 'setToken', 'signOut', 'showLog'])
      assert.ok(registered.includes(`diffReview.${command}`), command);
    // The SCM menu calls the command with its SourceControl.
    const result = await review({ id: 'git', label: 'Git', rootUri: vscode.Uri.file(root()) });
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
  });

  test('the minimum severity setting hides the less severe comments', async () => {
    await setSetting('minimumSeverity', 'error');
    try {
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      assert.equal(result.shown, 1);
      assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'the warning is hidden');
      assert.equal(lineOf(configPy(), 'secret'), SECRET_LINE, 'the error is shown');
      // Hidden: the warning on src/app.js and the one on the deleted src/old.js.
      assert.deepEqual(api().status().state, {
        kind: 'done',
        findings: 1,
        bySeverity: { error: 1, warning: 0, info: 0 },
        hidden: 2,
        reviewedOn: 'feature',
        checkedOut: 'feature',
      });
      assert.match(api().status().tooltip, /2 more are below the minimum severity/);
    } finally {
      await setSetting('minimumSeverity', undefined);
    }
  });

  test('uncommitted and unsaved edits: comments on HEAD land on the lines where that text is now', async () => {
    const appFile = appJs().fsPath;
    const configFile = configPy().fsPath;
    // Not committed: two lines above the debugger statement, and the secret's own line rewritten.
    writeFileSync(appFile, `// uncommitted 1\n// uncommitted 2\n${APP_JS}`);
    writeFileSync(
      configFile,
      CONFIG_PY.replace(/aws_secret_access_key = .*/, 'aws_secret_access_key = os.environ["AWS_SECRET_ACCESS_KEY"]'),
    );
    try {
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      // (An editor's document of src/app.js may still catch up with the disk: then it moves there.)
      const debuggerAt = () => ours(appJs()).find((d) => codeOf(d) === 'no-debugger')?.range;
      await waitFor(
        'the diagnostic on the shifted line',
        () => debuggerAt()?.start.line === DEBUGGER_LINE + 2,
        3000,
      ).catch(() => {});
      assert.deepEqual(
        [debuggerAt()?.start.line, debuggerAt()?.start.character],
        [DEBUGGER_LINE + 2, 2],
        'shifted by the two uncommitted lines',
      );
      assert.equal(lineOf(configPy(), 'secret'), undefined, 'its line was rewritten: dropped');
      assert.ok(
        result.notShown?.includes(`config.py:${SECRET_LINE + 1} (its line has changed since the reviewed commit)`),
        JSON.stringify(result.notShown),
      );

      // An open editor with an unsaved line above: placed on the editor's text.
      const editor = await openApp();
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// unsaved\n')));
      assert.ok(editor.document.isDirty);
      const again = await review();
      assert.equal(again.outcome, 'completed', JSON.stringify(again));
      assert.equal(
        lineOf(appJs(), 'no-debugger'),
        DEBUGGER_LINE + 3,
        'shifted by the uncommitted and the unsaved lines',
      );

      // editedLineBehavior "stale": the rewritten line keeps its comment, marked.
      await setSetting('editedLineBehavior', 'stale');
      const stale = await review();
      const secret = ours(configPy()).find((d) => codeOf(d) === 'secret');
      assert.equal(secret?.range.start.line, SECRET_LINE, JSON.stringify(stale));
      assert.match(secret?.message ?? '', /has changed since the reviewed version/);
    } finally {
      await setSetting('editedLineBehavior', undefined);
      await revertAndCloseAll(); // the active editor may not be src/app.js by now
      writeFileSync(appFile, APP_JS);
      writeFileSync(configFile, CONFIG_PY);
    }
    const clean = await review();
    assert.equal(clean.outcome, 'completed');
    await waitFor(
      'the diagnostic back on its committed line',
      () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE,
      3000,
    ).catch((error: Error) => {
      throw new Error(`${error.message} ${appJsState()}; review: ${JSON.stringify(clean)}`);
    });
  });

  test('review on save (when enabled) reviews again after a save', async () => {
    await vscode.commands.executeCommand('diffReview.clearComments');
    await setSetting('reviewOnSave', true);
    try {
      const editor = await openApp();
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), ' ')));
      assert.ok(await editor.document.save());
      await waitFor('a review after the save', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE, 6000).catch(
        (error: Error) => {
          throw new Error(`${error.message} ${appJsState()}; status: ${JSON.stringify(api().status())}`);
        },
      );
      assert.equal(api().status().state.kind, 'done');
    } finally {
      await setSetting('reviewOnSave', undefined);
      writeFileSync(appJs().fsPath, APP_JS);
      await revertAndCloseAll();
    }
  });

  test('a service nobody answers at: a clear network error naming the URL, quickly', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await setSetting('serviceUrl', url);
    try {
      await vscode.commands.executeCommand('diffReview.setToken', `drv_${'n'.repeat(38)}`);
      const started = performance.now();
      const result = await review();
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.equal(result.failure?.kind, 'network', JSON.stringify(result.failure));
      assert.ok(
        result.failure?.message.includes(`Could not reach the Diff Review service at ${url} (ECONNREFUSED)`),
        result.failure?.message,
      );
      assert.ok(performance.now() - started < 10_000, 'no hang');
      assert.equal(api().status().state.kind, 'failed');
      assert.equal(api().status().text, '$(error) Review failed');
    } finally {
      await vscode.commands.executeCommand('diffReview.signOut');
      await setSetting('serviceUrl', undefined);
    }
  });
});
