// A .diff-review.yml the review cannot read: its error as a diagnostic on its line, in that file
// (a collection of its own), and a failure that offers to open it. Cleared when the file is fixed:
// it is checked again whenever it changes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { parseProjectConfig } from '../../service/project-config/load-config.ts';
import type { FailureReport } from './failure-report.ts';
import type { RepositoryConfigError } from './review-runner.ts';

const SOURCE = 'Diff Review';

/** `.diff-review.yml:2: unknown rule "x". …` → the file, its 0-based line and the problem. */
export function parseConfigError(message: string): { file: string; line: number; problem: string } | undefined {
  const match = /^(?:--config )?(.+?):(?:(\d+):)? (.*)$/s.exec(message);
  if (!match) return undefined;
  return { file: match[1]!, line: match[2] ? Number(match[2]) - 1 : 0, problem: match[3]! };
}

export class ConfigDiagnostics implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('diff-review-config');
  #watched: { file: string; watcher: vscode.FileSystemWatcher } | undefined;

  /** Shows the error in its file; the failure to report says so and offers to open the file. */
  show(error: RepositoryConfigError): FailureReport {
    const parsed = parseConfigError(error.message);
    const file = parsed ? path.resolve(error.root, parsed.file) : undefined;
    if (parsed && file) {
      this.#place(file, parsed);
      this.#watch(file);
    }
    return {
      kind: 'config',
      message: `${error.message} Fix it, then review again.`,
      actions: file ? ['Open .diff-review.yml', 'Show Log'] : ['Show Log'],
      ...(file ? { file } : {}),
    };
  }

  clear(): void {
    this.#collection.clear();
    this.#watched?.watcher.dispose();
    this.#watched = undefined;
  }

  dispose(): void {
    this.clear();
    this.#collection.dispose();
  }

  /** Checks the file again on every change (saved or not: an open editor's text is what the user sees). */
  #watch(file: string): void {
    if (this.#watched?.file === file) return;
    this.#watched?.watcher.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)),
    );
    const recheck = () => void this.#recheck(file);
    watcher.onDidChange(recheck);
    watcher.onDidCreate(recheck);
    watcher.onDidDelete(() => this.clear());
    this.#watched = { file, watcher };
  }

  async #recheck(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return this.clear();
    }
    try {
      await parseProjectConfig(text, path.basename(file));
      this.clear();
    } catch (error) {
      const parsed = parseConfigError(error instanceof Error ? error.message : String(error));
      if (parsed) this.#place(file, parsed);
    }
  }

  #place(file: string, parsed: { line: number; problem: string }): void {
    const diagnostic = new vscode.Diagnostic(
      new vscode.Range(parsed.line, 0, parsed.line, Number.MAX_SAFE_INTEGER),
      parsed.problem,
      vscode.DiagnosticSeverity.Error,
    );
    diagnostic.source = SOURCE;
    this.#collection.set(vscode.Uri.file(file), [diagnostic]);
  }
}
