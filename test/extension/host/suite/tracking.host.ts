/// <reference types="mocha" />
// Findings follow the code they are about: through edits and undo, and through changes on disk
// (a branch switch) in files that are not open. The status bar counts what is shown.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import {
  api,
  appJs,
  appJsState,
  configPy,
  editApp,
  openApp,
  lineOf,
  ours,
  review,
  revertAndCloseAll,
  root,
  screenshot,
  waitFor,
} from './host-helpers.ts';
import { ReviewDiagnostics } from '../../../../extension/src/review-diagnostics.ts';
import { ReviewMemory } from '../../../../extension/src/review-memory.ts';
import { APP_JS, DEBUGGER_LINE, SECRET_LINE } from '../fixture.mjs';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd: root(),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
const findings = () => {
  const state = api().status().state;
  return state.kind === 'done' ? state.findings : undefined;
};

/**
 * A trip to branch main: the fixture's uncommitted work (its deleted src/old.js) stashed, `onMain`
 * run there, then back on feature with the stash, whatever happened on main; and the findings back
 * on their lines.
 */
async function onMainAndBack(onMain: () => Promise<void>) {
  git('stash', '--include-untracked');
  git('checkout', '-q', 'main');
  try {
    await onMain();
  } finally {
    git('checkout', '-q', 'feature');
    git('stash', 'pop', '-q');
  }
  await waitFor(
    'the findings back on feature',
    () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE && lineOf(configPy(), 'secret') === SECRET_LINE,
    8000,
  );
}

suite('Findings follow their code', () => {
  teardown(revertAndCloseAll);

  test('an edit that drops a finding lowers the count; undo brings both back', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(findings(), 2);
    await editApp((edit) => edit.insert(new vscode.Position(DEBUGGER_LINE, 2), '// '));
    await waitFor('the diagnostic to go', () => lineOf(appJs(), 'no-debugger') === undefined);
    assert.equal(findings(), 1, `the status bar counts what is shown: ${api().status().text}`);
    assert.equal(api().status().text, '$(error) Diff Review: 1', 'the worst left is the secret, an error');

    // Hidden, not forgotten: a reload now keeps it too (its text is looked for again then).
    await waitFor('the review saved as it is now', () => api().savedReview()?.shown === 1, 5000);
    assert.deepEqual(api().savedReview(), { shown: 1, kept: 2 });

    await vscode.commands.executeCommand('undo');
    await waitFor('the diagnostic back after undo', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE);
    assert.equal(findings(), 2);

    // A deleted line, and undo.
    const editor = await editApp((edit) => edit.delete(new vscode.Range(DEBUGGER_LINE, 0, DEBUGGER_LINE + 1, 0)));
    await waitFor('the diagnostic to go with its line', () => lineOf(appJs(), 'no-debugger') === undefined);
    await vscode.commands.executeCommand('undo');
    await waitFor('the diagnostic back with its line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE);
    // Its dirty flag comes in an event of its own, after the text's.
    await waitFor('the document clean again', () => !editor.document.isDirty);
  });

  test('a branch switch clears the findings its files no longer have; switching back brings them back', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    assert.equal(
      findings(),
      2,
      `${appJsState()}; config.py: ${JSON.stringify(ours(configPy()))}; ${JSON.stringify(result)}`,
    );
    await onMainAndBack(async () => {
      // On main, src/app.js has no debugger statement and config.py does not exist.
      await waitFor('no finding left on main', () => ours(appJs()).length + ours(configPy()).length === 0, 8000).catch(
        (error: Error) => {
          throw new Error(
            `${error.message} app.js: ${JSON.stringify(ours(appJs()))}, config.py: ${JSON.stringify(ours(configPy()))}`,
          );
        },
      );
      assert.equal(findings(), 0, api().status().text);
      // Hidden, not absent: no "found nothing", no ✓ and 0 (issue 25, item 1).
      const words =
        '2 findings from the review of feature; none in the files as they are on main. Check out feature to see them, or review main.';
      await waitFor('the words for findings left on feature', () => api().findingsMessage() === words, 8000).catch(
        (error: Error) => {
          throw new Error(`${error.message} Message: ${api().findingsMessage()}; status ${api().status().text}`);
        },
      );
      assert.equal(api().status().text, '$(eye-closed) Diff Review: 2 hidden');
      assert.ok(api().status().tooltip.includes(words), api().status().tooltip);
      assert.ok(!api().status().tooltip.includes('Errors'), `no table of zeros: ${api().status().tooltip}`);
      assert.deepEqual(api().findingsTree(), []);
      await vscode.commands.executeCommand('diffReview.findings.focus');
      await screenshot('findings-hidden-on-main', '[id$="diffReview.status"]');
    });
    assert.equal(findings(), 2);
    assert.equal(api().status().text, '$(error) Diff Review: 2');
    assert.equal(api().findingsMessage(), undefined);
    rmSync(path.join(root(), 'src', 'old.js'), { force: true });
  });

  test("each branch keeps its last review: checking a branch out again shows that branch's findings", async () => {
    const onFeature = await review();
    assert.equal(onFeature.outcome, 'completed', JSON.stringify(onFeature));
    const secondJs = vscode.Uri.file(path.join(root(), 'src', 'second.js'));
    const featureBack = () =>
      waitFor(
        "feature's findings back",
        () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE && lineOf(configPy(), 'secret') === SECRET_LINE,
        8000,
      ).catch((error: Error) => {
        throw new Error(`${error.message} ${appJsState()}; status ${api().status().text}`);
      });
    git('stash', '--include-untracked');
    git('checkout', '-q', '-b', 'second', 'main');
    try {
      // Another branch, with a finding of its own, reviewed there: its review replaces feature's on screen.
      writeFileSync(secondJs.fsPath, 'export const second = 2;\ndebugger;\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'second');
      const onSecond = await review();
      assert.equal(onSecond.outcome, 'completed', JSON.stringify(onSecond));
      assert.equal(onSecond.shown, 1, JSON.stringify(onSecond));
      assert.equal(lineOf(secondJs, 'no-debugger'), 1);

      // Back on feature: feature's findings, from the workspace state (no review run).
      git('checkout', '-q', 'feature');
      await featureBack();
      assert.equal(api().status().text, '$(error) Diff Review: 2');
      assert.equal(ours(secondJs).length, 0);
      // And second's on second.
      git('checkout', '-q', 'second');
      await waitFor("second's finding back", () => lineOf(secondJs, 'no-debugger') === 1, 8000);
      assert.equal(api().status().text, '$(warning) Diff Review: 1');
    } finally {
      git('checkout', '-q', 'feature');
      git('branch', '-q', '-D', 'second');
      git('stash', 'pop', '-q');
    }
    await featureBack();
    rmSync(path.join(root(), 'src', 'old.js'), { force: true });
  });

  test('a branch that moved on since its review: its findings come back, saying which commit they are of', async () => {
    const result = await review();
    assert.equal(result.outcome, 'completed', JSON.stringify(result));
    const reviewed = git('rev-parse', 'HEAD').trim();
    const words = `The review was of feature at ${reviewed.slice(0, 7)}; feature has moved on since: review again to see where its findings stand.`;
    await onMainAndBack(async () => {
      await waitFor('the findings hidden on main', () => api().status().text.includes('hidden'), 8000);
      // feature gets a commit of its own while main is checked out (the same files: the findings still place)
      git('branch', '-f', 'feature', git('commit-tree', 'feature^{tree}', '-p', 'feature', '-m', 'moved on').trim());
    });
    try {
      await waitFor('the words for a branch that moved', () => api().findingsMessage() === words, 8000).catch(
        (error: Error) => {
          throw new Error(`${error.message} Message: ${api().findingsMessage()}; status ${api().status().text}`);
        },
      );
      assert.ok(api().status().tooltip.includes(words), api().status().tooltip);
      assert.equal(api().status().text, '$(error) Diff Review: 2');
    } finally {
      await onMainAndBack(async () => void git('branch', '-f', 'feature', reviewed));
    }
    // At the reviewed commit again: nothing to say.
    await waitFor('no words at the reviewed commit', () => api().findingsMessage() === undefined, 8000);
  });

  test('a branch switch with the files open, in stale mode: findings whose text is gone hide, not shown as edited', async () => {
    await vscode.workspace
      .getConfiguration('diffReview')
      .update('editedLineBehavior', 'stale', vscode.ConfigurationTarget.Global);
    try {
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
      await openApp(); // in an editor
      await vscode.workspace.openTextDocument(configPy()); // loaded, without an editor
      await onMainAndBack(async () => {
        await waitFor(
          'no finding left on main',
          () => ours(appJs()).length + ours(configPy()).length === 0,
          8000,
        ).catch((error: Error) => {
          throw new Error(`${error.message} ${appJsState()}; config.py: ${JSON.stringify(ours(configPy()))}`);
        });
      });
      rmSync(path.join(root(), 'src', 'old.js'), { force: true });
    } finally {
      await vscode.workspace
        .getConfiguration('diffReview')
        .update('editedLineBehavior', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("after a reload, the last review's findings come back, placed on the text as it is now", async () => {
    // A reload is two lives of the extension sharing its workspace state: played here by two
    // ReviewDiagnostics over one Memento (the extension's own are cleared first).
    await vscode.commands.executeCommand('diffReview.clearComments');
    const memento = new MapMemento();
    const before = new ReviewDiagnostics(() => 'drop');
    const lineText = APP_JS.split('\n')[DEBUGGER_LINE]!;
    const planned = {
      line: DEBUGGER_LINE,
      startCharacter: 2,
      endCharacter: 11,
      severity: 'warning' as const,
      code: 'no-debugger',
      message: 'Remove it.',
      lineText,
    };
    before.replace(new Map([[appJs().fsPath, [planned]]]));
    const place = { root: root(), branch: 'feature', headCommit: 'f'.repeat(40) };
    await new ReviewMemory(memento).save(place, before.saved(), {
      kind: 'done',
      findings: 1,
      bySeverity: { error: 0, warning: 1, info: 0 },
      hidden: 0,
    });
    before.dispose();
    assert.equal(lineOf(appJs(), 'no-debugger'), undefined);

    writeFileSync(appJs().fsPath, `// 1\n// 2\n${APP_JS}`); // changed while the window was away
    const after = new ReviewDiagnostics(() => 'drop');
    try {
      const saved = new ReviewMemory(memento).forPlace(place);
      assert.deepEqual(new ReviewMemory(memento).load(), saved);
      assert.deepEqual(saved?.state, {
        kind: 'done',
        findings: 1,
        bySeverity: { error: 0, warning: 1, info: 0 },
        hidden: 0,
      });
      after.restore(new Map(saved!.files));
      await waitFor('the finding on its moved line', () => lineOf(appJs(), 'no-debugger') === DEBUGGER_LINE + 2);
    } finally {
      after.dispose();
      writeFileSync(appJs().fsPath, APP_JS);
    }
  });
});

/** A Memento in memory: the extension's workspace state across a pretend reload. */
class MapMemento implements vscode.Memento {
  readonly #values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.#values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.#values.has(key) ? this.#values.get(key) : defaultValue) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.#values.delete(key);
    else this.#values.set(key, structuredClone(value));
  }
}
