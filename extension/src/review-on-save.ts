// "Review on save" (off by default): a quiet review shortly after a file of the workspace is saved.
import * as vscode from 'vscode';
import { readSettings } from './settings.ts';

const DEBOUNCE_MS = 1500;

export function reviewOnSave(review: () => Promise<unknown>): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const listener = vscode.workspace.onDidSaveTextDocument((document) => {
    if (document.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(document.uri)) return;
    if (!readSettings(document.uri).reviewOnSave) return;
    clearTimeout(timer);
    timer = setTimeout(() => void review(), DEBOUNCE_MS); // several saves at once: one review
  });
  return { dispose: () => (clearTimeout(timer), listener.dispose()) };
}
