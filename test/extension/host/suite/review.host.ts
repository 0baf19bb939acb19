/// <reference types="mocha" />
// Diff Review in a real extension host: a real git repository (../run.mjs made it), the real
// bundled service, the real diagnostics API.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DiffReviewApi } from '../../../../extension/src/extension.ts';
import type { ReviewCommandResult } from '../../../../extension/src/review-controller.ts';
import { startFakeService, type FakeService } from './fake-service.ts';
import { figures } from './figures.ts';
import { APP_JS, CONFIG_PY, DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';

const EXTENSION_ID = 'diff-review.diff-review';
const SOURCE = 'Diff Review';

const root = () => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need the fixture repository open as the workspace folder');
  return folder.uri.fsPath;
};
const appJs = () => vscode.Uri.file(path.join(root(), 'src', 'app.js'));
const configPy = () => vscode.Uri.file(path.join(root(), 'config.py'));
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
const review = (argument?: unknown) => vscode.commands.executeCommand<ReviewCommandResult>('diffReview.reviewChanges', argument);
const api = () => vscode.extensions.getExtension<DiffReviewApi>(EXTENSION_ID)!.exports;
const config = () => vscode.workspace.getConfiguration('diffReview');
const setSetting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);
/** The bundled service's URL, from the first review. */
let bundledUrl: string | undefined;

/** A loopback port nobody listens on. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(50);
  }
}

const lineOf = (uri: vscode.Uri, code: string) => ours(uri).find((d) => d.code === code)?.range.start.line;

async function openApp(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(appJs());
  return vscode.window.showTextDocument(document, { preview: false });
}

suite('Diff Review in a real extension host', () => {
  test('activates lazily, on its command', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    assert.equal(extension.isActive, false, 'not activated at startup');
    const started = performance.now();
    await extension.activate();
    figures.activationMs = Math.round(performance.now() - started);
    assert.deepEqual(api().status().state, { kind: 'idle' });
    assert.equal(api().status().text, '$(checklist) Diff Review');
    assert.equal(api().status().command, 'diffReview.reviewChanges', 'a click on the status bar item reviews');
    console.log(`activation: ${figures.activationMs} ms`);
  });

  test('Review Changes shows the comments as diagnostics: file, line, severity, code, source', async () => {
    const started = performance.now();
    const result = await review();
    figures.firstReviewMs = Math.round(performance.now() - started);
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.deepEqual(result.notShown, ['src/old.js:1 (the file no longer exists)'], `the comment on the deleted src/old.js goes to the log: ${JSON.stringify(result)}`);

    const debuggerDiagnostic = ours(appJs()).find((d) => d.code === 'no-debugger');
    assert.ok(debuggerDiagnostic, `no-debugger on src/app.js; got ${JSON.stringify(ours(appJs()))}`);
    assert.equal(debuggerDiagnostic.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(debuggerDiagnostic.range.start.line, DEBUGGER_LINE);
    assert.equal(debuggerDiagnostic.range.end.line, DEBUGGER_LINE);
    assert.deepEqual([debuggerDiagnostic.range.start.character, debuggerDiagnostic.range.end.character], [2, 11], 'covers `debugger;`');
    assert.match(debuggerDiagnostic.message, /^Remove the debugger statement/);

    const secretDiagnostic = ours(configPy()).find((d) => d.code === 'secret');
    assert.ok(secretDiagnostic, `secret on config.py; got ${JSON.stringify(ours(configPy()))}`);
    assert.equal(secretDiagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(secretDiagnostic.range.start.line, SECRET_LINE);
    assert.doesNotMatch(secretDiagnostic.message, /Zq3rT8vK2mN9pX4wL7yB1cF6hJ0dS5gA2eR8tY3u/);

    assert.equal(ours(vscode.Uri.file(path.join(root(), 'src', 'old.js'))).length, 0);
    assert.deepEqual(api().status().state, { kind: 'done', findings: 2, hidden: 0 }, 'the status bar counts the findings shown');
    assert.equal(api().status().text, '$(warning) 2 findings');
    assert.match(result.serviceUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'the bundled service, on loopback');
    bundledUrl = result.serviceUrl;
    console.log(`first review (bundled service start included): ${figures.firstReviewMs} ms`);
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
    const screenshot = process.env.DIFF_REVIEW_SCREENSHOT;
    if (!screenshot) return; // under plain @vscode/test-electron nobody takes it
    await sleep(1000);
    console.log('ready-for-screenshot');
    await waitFor('the screenshot', () => existsSync(screenshot), 10_000);
  });

  test('a diagnostic moves with lines inserted and deleted above it', async () => {
    const editor = await openApp();
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// one\n// two\n')));
    await waitFor('the diagnostic to move down 2 lines', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 2);
    assert.ok(await editor.edit((edit) => edit.delete(new vscode.Range(0, 0, 1, 0))));
    await waitFor('the diagnostic to move up 1 line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 1);
    assert.equal(ours(appJs()).find((d) => d.code === 'no-debugger')?.range.start.character, 2);
  });

  test('closing the file without saving puts it back on its line; reopening keeps it there', async () => {
    await openApp();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor('the diagnostic back on its saved line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE);
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
    assert.deepEqual(manifest.contributes.menus['scm/title'], [{ command: 'diffReview.reviewChanges', group: 'navigation@50', when: 'scmProvider == git' }]);
    const registered = await vscode.commands.getCommands(true);
    for (const command of ['reviewChanges', 'clearComments', 'setToken', 'signOut', 'showLog']) assert.ok(registered.includes(`diffReview.${command}`), command);
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
      assert.deepEqual(api().status().state, { kind: 'done', findings: 1, hidden: 2 });
      assert.match(api().status().tooltip, /found 1 problem \(2 more below the minimum severity\)/);
    } finally {
      await setSetting('minimumSeverity', undefined);
    }
  });

  test('uncommitted and unsaved edits: comments on HEAD land on the lines where that text is now', async () => {
    const appFile = appJs().fsPath;
    const configFile = configPy().fsPath;
    // Not committed: two lines above the debugger statement, and the secret's own line rewritten.
    writeFileSync(appFile, `// uncommitted 1\n// uncommitted 2\n${APP_JS}`);
    writeFileSync(configFile, CONFIG_PY.replace(/aws_secret_access_key = .*/, 'aws_secret_access_key = os.environ["AWS_SECRET_ACCESS_KEY"]'));
    try {
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      // (An editor's document of src/app.js may still catch up with the disk: then it moves there.)
      const debuggerAt = () => ours(appJs()).find((d) => d.code === 'no-debugger')?.range;
      await waitFor('the diagnostic on the shifted line', () => debuggerAt()?.start.line === DEBUGGER_LINE + 2, 3000).catch(() => {});
      assert.deepEqual([debuggerAt()?.start.line, debuggerAt()?.start.character], [DEBUGGER_LINE + 2, 2], 'shifted by the two uncommitted lines');
      assert.equal(lineOf(configPy(), 'secret'), undefined, 'its line was rewritten: dropped');
      assert.ok(result.notShown?.includes(`config.py:${SECRET_LINE + 1} (its line has changed since the reviewed commit)`), JSON.stringify(result.notShown));

      // An open editor with an unsaved line above: placed on the editor's text.
      const editor = await openApp();
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// unsaved\n')));
      assert.ok(editor.document.isDirty);
      const again = await review();
      assert.equal(again.outcome, 'completed', JSON.stringify(again));
      assert.equal(lineOf(appJs(), 'no-debugger'), DEBUGGER_LINE + 3, 'shifted by the uncommitted and the unsaved lines');

      // editedLineBehavior "stale": the rewritten line keeps its comment, marked.
      await setSetting('editedLineBehavior', 'stale');
      const stale = await review();
      const secret = ours(configPy()).find((d) => d.code === 'secret');
      assert.equal(secret?.range.start.line, SECRET_LINE, JSON.stringify(stale));
      assert.match(secret?.message ?? '', /has changed since the reviewed version/);
    } finally {
      await setSetting('editedLineBehavior', undefined);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      writeFileSync(appFile, APP_JS);
      writeFileSync(configFile, CONFIG_PY);
    }
    const clean = await review();
    assert.equal(clean.outcome, 'completed');
    await waitFor('the diagnostic back on its committed line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE, 3000);
  });

  test('review on save (when enabled) reviews again after a save', async () => {
    await vscode.commands.executeCommand('diffReview.clearComments');
    await setSetting('reviewOnSave', true);
    try {
      const editor = await openApp();
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), ' ')));
      assert.ok(await editor.document.save());
      await waitFor('a review after the save', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE, 6000);
      assert.equal(api().status().state.kind, 'done');
    } finally {
      await setSetting('reviewOnSave', undefined);
      writeFileSync(appJs().fsPath, APP_JS);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
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
      assert.ok(result.failure?.message.includes(`Could not reach the Diff Review service at ${url} (ECONNREFUSED)`), result.failure?.message);
      assert.ok(performance.now() - started < 10_000, 'no hang');
      assert.equal(api().status().state.kind, 'failed');
      assert.equal(api().status().text, '$(error) Review failed');
    } finally {
      await vscode.commands.executeCommand('diffReview.signOut');
      await setSetting('serviceUrl', undefined);
    }
  });

  suite('against a configured service', () => {
    let fake: FakeService;
    suiteSetup(async () => {
      fake = await startFakeService();
      await setSetting('serviceUrl', fake.url);
      await vscode.commands.executeCommand('diffReview.setToken', `drv_${'f'.repeat(38)}`);
    });
    suiteTeardown(async () => {
      await vscode.commands.executeCommand('diffReview.signOut');
      await setSetting('serviceUrl', undefined);
      await fake?.close();
    });

    test('429 with Retry-After: 1 waits a second, then the review goes through', async () => {
      fake.mode = 'complete';
      fake.comments = [{ file_path: 'src/app.js', line: DEBUGGER_LINE + 1, severity: 'info', message: 'fake-rule: From the configured service.' }];
      fake.rateLimits.push('1');
      fake.creates.length = 0;
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      assert.equal(result.serviceUrl, fake.url);
      assert.equal(fake.creates.length, 2, 'refused once, then created');
      const waited = fake.creates[1]! - fake.creates[0]!;
      assert.ok(waited >= 950, `waited ${waited} ms`);
      const diagnostic = ours(appJs()).find((d) => d.code === 'fake-rule');
      assert.equal(diagnostic?.range.start.line, DEBUGGER_LINE);
      assert.equal(diagnostic?.severity, vscode.DiagnosticSeverity.Information);
    });

    test('429 with a long Retry-After fails at once, saying how long to wait', async () => {
      fake.rateLimits.push('120');
      const started = performance.now();
      const result = await review();
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.equal(result.failure?.kind, 'rate_limited');
      assert.match(result.failure?.message ?? '', /is busy \(429 rate_limited\)\. Try again in 120 s/);
      assert.ok(performance.now() - started < 5000, 'did not wait the 120 s');
    });

    test('a failed job shows its error message, with Show Log', async () => {
      fake.mode = 'fail';
      const result = await review();
      assert.equal(result.outcome, 'failed', JSON.stringify(result));
      assert.deepEqual(result.failure, { kind: 'job_invalid_diff', message: 'The review failed (invalid_diff): The diff could not be read.', actions: ['Show Log'] });
      assert.equal(api().status().state.kind, 'failed');
    });

    test('cancelling a running review cancels the job on the service and applies nothing', async () => {
      await vscode.commands.executeCommand('diffReview.clearComments');
      fake.mode = 'hang';
      const cancellation = new vscode.CancellationTokenSource();
      const pending = review({ cancellation: cancellation.token });
      await fake.polled;
      assert.equal(api().status().state.kind, 'running');
      assert.equal(api().status().text, '$(sync~spin) Reviewing…');
      cancellation.cancel();
      const result = await pending;
      assert.equal(result.outcome, 'cancelled', JSON.stringify(result));
      const job = [...fake.jobs.values()].at(-1)!;
      assert.equal(job.status, 'failed');
      assert.equal(job.error?.code, 'cancelled');
      assert.equal(ours(appJs()).length + ours(configPy()).length, 0, 'no diagnostics applied');
      assert.deepEqual(api().status().state, { kind: 'idle' });
    });
  });

  suite('last: the log, clearing, deactivation', () => {
    test('Open Review Log shows the log: what happened, no token, no diff', async () => {
      await vscode.commands.executeCommand('diffReview.showLog');
      const find = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'output' && /Diff Review/.test(decodeURIComponent(d.uri.toString())));
      const log = await waitFor('the log in the output panel', () => find()?.getText().includes('Submitted review') && find(), 5000).catch((error: Error) => {
        throw new Error(`${error.message} Documents: ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`);
      });
      const text = log.getText();
      assert.match(text, /Started the bundled service at http:\/\/127\.0\.0\.1:\d+/);
      assert.match(text, /Review rev_\w+: \d+ comment\(s\), \d+ shown/);
      assert.match(text, /Not shown: src\/old\.js:1 \(the file no longer exists\)/, 'comments on deleted files are reported');
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
      assert.ok(bundledUrl, 'the first review gave the bundled service URL');
      assert.equal((await fetch(`${bundledUrl}/v1/openapi.json`)).status, 200, 'it answers before');
      // The module VS Code loaded (Node's module cache): the very deactivate() it calls on shutdown.
      const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
      const main = require(path.join(extension.extensionPath, extension.packageJSON.main)) as { deactivate(): Promise<void> };
      await main.deactivate();
      await assert.rejects(fetch(`${bundledUrl}/v1/openapi.json`), /fetch failed/, 'nothing listens any more');
    });
  });
});
