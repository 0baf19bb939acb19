/// <reference types="mocha" />
// What the user does with the findings: the findings view, the quick fixes (ignore, turn off, rule
// description), the repository's .diff-review.yml (honoured, and its errors shown in it), the
// user's own rule settings, and the manifest's settings and walkthrough.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import { APP_JS, CONFIG_PY, DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';
import {
  api,
  appJs,
  clearNotifications,
  codeOf,
  configPy,
  EXTENSION_ID,
  lineOf,
  openApp,
  ours,
  pressNotificationButtonUntil,
  revertAndCloseAll,
  review,
  root,
  screenshot,
  setSetting,
  waitFor,
} from './host-helpers.ts';

const configFile = () => path.join(root(), '.diff-review.yml');
/** The quick fixes for the whole of a line (its document is opened: the provider needs it). */
const codeActions = async (uri: vscode.Uri, line: number) =>
  vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    uri,
    (await vscode.workspace.openTextDocument(uri)).lineAt(line).range,
    vscode.CodeActionKind.QuickFix.value,
  );
const ourActions = async (uri: vscode.Uri, line: number) =>
  (await codeActions(uri, line)).filter((action) => action.command?.command.startsWith('diffReview.'));
/** Runs one step of a test, naming it in its error. */
async function step<T>(name: string, work: () => Thenable<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
const run = (action: vscode.CodeAction) =>
  vscode.commands.executeCommand(action.command!.command, ...(action.command!.arguments ?? []));

suite('What the user does with the findings', () => {
  teardown(async () => {
    await revertAndCloseAll();
    rmSync(configFile(), { force: true });
    writeFileSync(appJs().fsPath, APP_JS);
    writeFileSync(configPy().fsPath, CONFIG_PY);
    await setSetting('rules', undefined);
  });

  test('the findings view: grouped by file, rule or severity, with counts; the status bar opens it', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    await vscode.commands.executeCommand('diffReview.groupFindingsBy', 'file');
    assert.deepEqual(api().findingsTree(), [
      {
        label: 'config.py',
        description: '1',
        children: [{ label: ours(configPy())[0]!.message, description: `secret · Ln ${SECRET_LINE + 1}` }],
      },
      {
        label: 'src/app.js',
        description: '1',
        children: [{ label: ours(appJs())[0]!.message, description: `no-debugger · Ln ${DEBUGGER_LINE + 1}` }],
      },
    ]);
    await vscode.commands.executeCommand('diffReview.groupFindingsBy', 'severity');
    assert.deepEqual(
      api()
        .findingsTree()
        .map((group) => [group.label, group.description]),
      [
        ['Errors', '1'],
        ['Warnings', '1'],
      ],
    );
    await vscode.commands.executeCommand('diffReview.groupFindingsBy', 'rule');
    assert.deepEqual(
      api()
        .findingsTree()
        .map((group) => [group.label, group.description, group.children?.[0]?.description]),
      [
        ['no-debugger', '1', `src/app.js:${DEBUGGER_LINE + 1}`],
        ['secret', '1', `config.py:${SECRET_LINE + 1}`],
      ],
    );
    // The status bar's click: VS Code's own command for the view.
    await vscode.commands.executeCommand('diffReview.groupFindingsBy', 'file');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const editor = await openApp();
    editor.selection = new vscode.Selection(DEBUGGER_LINE, 2, DEBUGGER_LINE, 10);
    await vscode.commands.executeCommand(api().status().command!);
    await screenshot('findings-view');
    await screenshot('status-bar', '[id$="diffReview.status"]');
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  test("quick fixes: ignore, turn off, rule description; ignore writes the comment in the file's syntax", async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const titles = (await ourActions(appJs(), DEBUGGER_LINE)).map((action) => action.title);
    assert.deepEqual(titles, [
      'Ignore this finding',
      'Suppress with a reason…',
      'Turn off no-debugger for this repository',
      'Show rule description: no-debugger',
    ]);
    const editor = await openApp();
    editor.selection = new vscode.Selection(DEBUGGER_LINE, 4, DEBUGGER_LINE, 4);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await step('open the quick fix menu', () => vscode.commands.executeCommand('editor.action.quickFix'));
    await screenshot('quick-fixes');

    const ignore = await step('the actions again', () => ourActions(appJs(), DEBUGGER_LINE));
    await step('ignore', () => run(ignore[0]!));
    const document = editor.document;
    assert.equal(document.lineAt(DEBUGGER_LINE).text, '  // diff-review-ignore no-debugger', 'above, indented');
    assert.equal(document.lineAt(DEBUGGER_LINE + 1).text, '  debugger;');
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'hidden at once');

    const python = await vscode.workspace.openTextDocument(configPy());
    const ignoreSecret = await step('the actions on config.py', () => ourActions(configPy(), SECRET_LINE));
    await step('ignore the secret', () => run(ignoreSecret[0]!));
    assert.equal(python.lineAt(SECRET_LINE).text, '# diff-review-ignore secret');
    assert.equal(lineOf(configPy(), 'secret'), undefined);
  });

  test('suppress with a reason: the comment carries it, the finding goes, and the next review keeps it suppressed', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const actions = await ourActions(appJs(), DEBUGGER_LINE);
    const suppress = actions.find((action) => action.title === 'Suppress with a reason…');
    assert.ok(suppress, JSON.stringify(actions.map((action) => action.title)));
    // The reason as the command's second argument: what the prompt would have answered.
    const reason = 'stepping through the checkout on staging';
    const written = await step('suppress', () =>
      vscode.commands.executeCommand(suppress.command!.command, ...(suppress.command!.arguments ?? []), reason),
    );
    assert.equal(written, true);
    const document = (await openApp()).document;
    assert.equal(document.lineAt(DEBUGGER_LINE).text, `  // diff-review-ignore no-debugger (${reason})`);
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'hidden at once');
    // a reason that would break out of the comment is refused, and nothing is written
    const refused = await vscode.commands.executeCommand(
      'diffReview.suppressWithReason',
      { uri: configPy(), diagnostic: ours(configPy())[0] },
      'because ) */ reasons',
    );
    assert.equal(refused, false);
    assert.doesNotMatch((await vscode.workspace.openTextDocument(configPy())).getText(), /diff-review-ignore/);
    await document.save();
    const again = await review({ includeUncommitted: true });
    assert.equal(again.outcome, 'completed', JSON.stringify(again));
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'the service honours the comment');
    // The comment taken out through the editor and saved, so that the open document and the file
    // agree before the next test (a write behind the editor's back reaches it only later).
    const undo = new vscode.WorkspaceEdit();
    undo.delete(document.uri, new vscode.Range(DEBUGGER_LINE, 0, DEBUGGER_LINE + 1, 0));
    assert.equal(await vscode.workspace.applyEdit(undo), true);
    await document.save();
    assert.equal(readFileSync(appJs().fsPath, 'utf8'), APP_JS);
  });

  test('where the repository requires reasons, "Ignore this finding" asks for one', async () => {
    writeFileSync(configFile(), 'suppressions:\n  require_reason: true\n');
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const ignore = (await ourActions(appJs(), DEBUGGER_LINE)).find((action) => action.title === 'Ignore this finding');
    assert.ok(ignore);
    // The reason as the command's second argument: what the prompt would have answered.
    const reason = 'the team asks why';
    const written = await vscode.commands.executeCommand(
      ignore.command!.command,
      ...(ignore.command!.arguments ?? []),
      reason,
    );
    assert.equal(written, true);
    const document = (await openApp()).document;
    assert.equal(document.lineAt(DEBUGGER_LINE).text, `  // diff-review-ignore no-debugger (${reason})`);
  });

  test('turn off a rule: .diff-review.yml gets it (comments kept), the finding goes, the next review agrees', async () => {
    writeFileSync(configFile(), "# the team's settings\nignore:\n  - vendor/**\n");
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const turnOff = (await ourActions(appJs(), DEBUGGER_LINE)).find((a) => a.title.startsWith('Turn off'));
    await run(turnOff!);
    const text = readFileSync(configFile(), 'utf8');
    assert.match(text, /^# the team's settings\n/, 'the comment is kept');
    assert.deepEqual(parse(text), { ignore: ['vendor/**'], rules: { 'no-debugger': 'off' } });
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'gone at once');
    assert.equal(lineOf(configPy(), 'secret'), SECRET_LINE, 'other rules stay');
    const again = await review();
    assert.equal(again.outcome, 'completed', JSON.stringify(again));
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'the review honours it');
  });

  test('rule help: the code links to the rule\'s page; "Show rule description" opens its Markdown', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const code = ours(appJs()).find((d) => codeOf(d) === 'no-debugger')!.code as { value: string; target: vscode.Uri };
    assert.equal(
      code.target.toString(true),
      'https://github.com/diff-review/diff-review/blob/main/docs/rules/no-debugger.md',
    );
    const editor = await openApp();
    editor.selection = new vscode.Selection(DEBUGGER_LINE, 4, DEBUGGER_LINE, 4);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshot('hover');
    const show = (await ourActions(appJs(), DEBUGGER_LINE)).find((a) => a.title.startsWith('Show rule'));
    await run(show!);
    const page = await waitFor('the rule description', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'diff-review-rule'),
    );
    assert.match(page.getText(), /^# no-debugger\n/);
    assert.match(page.getText(), /## How to suppress it/);
    await screenshot('rule-description');
  });

  test('.diff-review.yml: a rule off and a path ignored are honoured; a broken one is shown on its line', async () => {
    writeFileSync(configFile(), 'rules:\n  no-debugger: off\nignore:\n  - config.py\n');
    const honoured = await review();
    assert.equal(honoured.outcome, 'completed', JSON.stringify(honoured));
    assert.equal(ours(appJs()).length + ours(configPy()).length, 0, 'nothing left');

    writeFileSync(configFile(), 'rules:\n  no-debuger: off\n');
    await clearNotifications();
    const broken = await review();
    assert.equal(broken.outcome, 'error', JSON.stringify(broken));
    assert.equal(broken.failure?.kind, 'config');
    assert.deepEqual(broken.failure?.actions, ['Open .diff-review.yml', 'Show Log']);
    assert.doesNotMatch(broken.failure?.message ?? '', /Diff Review failed/);
    const configUri = vscode.Uri.file(configFile());
    const [diagnostic] = vscode.languages.getDiagnostics(configUri);
    assert.ok(diagnostic, 'a diagnostic in .diff-review.yml');
    assert.equal(diagnostic.range.start.line, 1, 'on the line of the unknown rule');
    assert.match(diagnostic.message, /unknown rule "no-debuger"/);
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    await pressNotificationButtonUntil(
      'the file in the editor (Open .diff-review.yml)',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === configFile(),
    );

    writeFileSync(configFile(), 'rules:\n  no-debugger: off\n');
    await waitFor(
      'the diagnostic to go once the file is fixed',
      () => vscode.languages.getDiagnostics(configUri).length === 0,
      5000,
    );
  });

  test("the user's rule settings (diffReview.rules) apply, under the repository's", async () => {
    await setSetting('rules', { 'no-debugger': 'off', secret: 'warning' });
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined, 'off');
    assert.equal(ours(configPy())[0]?.severity, vscode.DiagnosticSeverity.Warning, 'secret graded as a warning');
    writeFileSync(configFile(), 'rules:\n  no-debugger: error\n');
    const repository = await review();
    assert.equal(repository.outcome, 'completed', JSON.stringify(repository));
    const debuggerFinding = ours(appJs()).find((d) => codeOf(d) === 'no-debugger');
    assert.equal(debuggerFinding?.severity, vscode.DiagnosticSeverity.Error, "the repository's setting wins");
  });

  test("the manifest: settings ordered in titled categories, the view's buttons, the walkthrough (which opens)", async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes;
    const categories = manifest.configuration as { title: string; properties: Record<string, { order: number }> }[];
    assert.deepEqual(
      categories.map((category) => [
        category.title,
        Object.entries(category.properties)
          .sort(([, a], [, b]) => a.order - b.order)
          .map(([key]) => key.replace('diffReview.', '')),
      ]),
      [
        ['Service', ['serviceUrl', 'requestTimeout', 'pollInterval']],
        ['What Is Reviewed', ['baseBranch', 'includeUncommittedChanges', 'reviewOnSave', 'rules']],
        ['Findings', ['minimumSeverity', 'editedLineBehavior']],
      ],
    );
    // The findings view's buttons: title bar, each finding's (inline and context menu), welcome texts.
    const menus = manifest.menus as Record<string, { command: string; when: string; group: string }[]>;
    assert.deepEqual(
      menus['view/title']!.map((entry) => entry.command),
      ['diffReview.reviewChanges', 'diffReview.groupFindingsBy', 'diffReview.clearComments'],
    );
    assert.deepEqual(
      menus['view/item/context']!.filter((entry) => entry.group.startsWith('inline')).map((entry) => entry.command),
      ['diffReview.ignoreFinding', 'diffReview.showRuleDescription'],
    );
    assert.ok(
      menus['view/item/context']!.some(
        (entry) => entry.command === 'diffReview.turnOffRule' && entry.when.includes('finding-configurable'),
      ),
      'Turn off only for rules a config may name',
    );
    const welcome = manifest.viewsWelcome as { contents: string; when: string }[];
    assert.ok(welcome.some((entry) => entry.contents.includes('(command:diffReview.reviewChanges)')));
    assert.ok(
      welcome.some((entry) => entry.when === 'diffReview.state == outside' && /openFolder/.test(entry.contents)),
    );
    const steps = manifest.walkthroughs[0].steps as { id: string; media: { markdown: string } }[];
    assert.deepEqual(
      steps.map((step) => step.id),
      ['whatIsReviewed', 'baseBranch', 'sharedService', 'suppress'],
    );
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    for (const step of steps) assert.ok(existsSync(path.join(extensionPath, step.media.markdown)), step.media.markdown);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#diffReview.start`, false);
    await waitFor(
      'the walkthrough editor',
      () =>
        vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => /Walkthrough|Get started|Welcome/i.test(tab.label)),
        ),
      5000,
    );
  });
});
