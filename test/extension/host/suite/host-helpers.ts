// What the in-host test files share: the fixture's files, the extension's command and API, waiting.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DiffReviewApi } from '../../../../extension/src/extension.ts';
import type { ReviewCommandResult } from '../../../../extension/src/review-options.ts';

export const EXTENSION_ID = 'diff-review.diff-review';
export const SOURCE = 'Diff Review';

export const root = () => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need the fixture repository open as the workspace folder');
  return folder.uri.fsPath;
};
export const appJs = () => vscode.Uri.file(path.join(root(), 'src', 'app.js'));
export const configPy = () => vscode.Uri.file(path.join(root(), 'config.py'));
export const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
export const review = (argument?: unknown) =>
  vscode.commands.executeCommand<ReviewCommandResult>('diffReview.reviewChanges', argument);
export const api = () => vscode.extensions.getExtension<DiffReviewApi>(EXTENSION_ID)!.exports;
export const config = () => vscode.workspace.getConfiguration('diffReview');
export const setSetting = (key: string, value: unknown) =>
  config().update(key, value, vscode.ConfigurationTarget.Global);
/** A loopback port nobody listens on. */
export const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(50);
  }
}

/** A diagnostic's rule id (its code is `{ value, target }`: the id, linked to its page). */
export const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : d.code);
export const lineOf = (uri: vscode.Uri, code: string) => ours(uri).find((d) => codeOf(d) === code)?.range.start.line;

/** Closes every editor, discarding unsaved edits (closeAllEditors would ask what to do with them). */
export async function revertAndCloseAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function openApp(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(appJs());
  return vscode.window.showTextDocument(document, { preview: false });
}

/**
 * An edit of src/app.js in its editor. TextEditor.edit answers false when the document changed
 * under it (reloaded from disk after a git command of an earlier test): then it is made again
 * on the editor as it is now, a few times at most.
 */
export async function editApp(change: (edit: vscode.TextEditorEdit) => void): Promise<vscode.TextEditor> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const editor = await openApp();
    if (await editor.edit(change)) return editor;
    await sleep(200);
  }
  throw new Error('VS Code refused the edit of src/app.js five times');
}

/**
 * What one test file learns for another: the bundled service's URL, from the first review. On
 * globalThis, as ./figures.ts: each test file is a bundle of its own, with its own copy of this module.
 */
const global = globalThis as { diffReviewShared?: { bundledUrl?: string } };
export const shared: { bundledUrl?: string } = (global.diffReviewShared ??= {});

/** What the extension sees of src/app.js, for failure messages: its diagnostics and its document. */
export function appJsState(): string {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === appJs().toString());
  return `diagnostics on lines ${JSON.stringify(ours(appJs()).map((d) => [codeOf(d), d.range.start.line]))}; document ${document ? `open (dirty: ${document.isDirty}, ${document.lineCount} lines, line 0: ${JSON.stringify(document.lineAt(0).text)})` : 'not open'}`;
}

/**
 * Asks the launcher for a screenshot of the workbench as it is now (test-output/extension/screenshots/<name>.png),
 * hovering over `hover` (a CSS selector) first; waits until it is saved. Nothing under plain @vscode/test-electron.
 */
export async function screenshot(name: string, hover?: string): Promise<void> {
  const folder = process.env.DIFF_REVIEW_SCREENSHOTS;
  if (!folder) return;
  await sleep(1000);
  console.log(`ready-for-screenshot:${name}${hover ? ` hover=${hover}` : ''}`);
  await waitFor(`the screenshot ${name}`, () => existsSync(path.join(folder, `${name}.png`)), 15_000);
}

/** Presses the first button of the newest notification, as a user does (others are cleared first by `clearNotifications`). */
const pressNotificationButton = () => vscode.commands.executeCommand('notification.acceptPrimaryAction');

/**
 * Presses the primary button of the notification a review just showed, until `taken` says the
 * button did its work. review() settles before the workbench has the notification on screen, and
 * a press before that does nothing (seen once in CI under load): pressed again after a while.
 */
export async function pressNotificationButtonUntil(what: string, taken: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!taken()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await pressNotificationButton();
    for (const pressed = Date.now(); !taken() && Date.now() - pressed < 2000; ) await sleep(50);
  }
}
export const clearNotifications = () => vscode.commands.executeCommand('notifications.clearAll');

/** Whether an editor tab with this label is open. */
export const tabOpen = (label: RegExp) =>
  vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => label.test(tab.label)));
