// Follows HEAD of the repository whose findings are shown: a checkout (branch switch) fires
// onDidChange, read again from git when HEAD's file changes, when the window gets the focus, or
// when asked (files the findings are on changed on disk).
import * as vscode from 'vscode';
import { type GitHead, readHead } from './git-head.ts';
import { gitPath } from './settings.ts';

/** HEAD's file changes in a burst during a checkout: read once it settles. */
const SETTLE_MS = 150;

export class HeadWatcher implements vscode.Disposable {
  #head: GitHead | undefined;
  #watcher: vscode.FileSystemWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #changed = new vscode.EventEmitter<GitHead>();
  /** HEAD moved: another branch or another commit. */
  readonly onDidChange = this.#changed.event;
  readonly #subscriptions: vscode.Disposable[];

  constructor() {
    this.#subscriptions = [
      this.#changed,
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.checkSoon();
      }),
    ];
  }

  /** HEAD as last read. */
  get current(): GitHead | undefined {
    return this.#head;
  }

  /** Follows the repository around `cwd` from now on; resolves with its HEAD (an event when it moved). */
  async follow(cwd: string): Promise<GitHead | undefined> {
    const head = await readHead(cwd, { git: gitPath() });
    if (!head) return undefined;
    if (head.gitDir !== this.#head?.gitDir) {
      this.#watcher?.dispose();
      this.#watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(head.gitDir), 'HEAD'),
      );
      this.#watcher.onDidChange(() => this.checkSoon());
      this.#watcher.onDidCreate(() => this.checkSoon());
    }
    this.#update(head);
    return head;
  }

  /** Reads HEAD again shortly (once for a burst of calls). */
  checkSoon(): void {
    if (!this.#head) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const root = this.#head?.root;
      if (root) void readHead(root, { git: gitPath() }).then((head) => head && this.#update(head));
    }, SETTLE_MS);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#watcher?.dispose();
    for (const subscription of this.#subscriptions) subscription.dispose();
  }

  #update(head: GitHead): void {
    const before = this.#head;
    this.#head = head;
    if (before?.root === head.root && (before.branch !== head.branch || before.commit !== head.commit))
      this.#changed.fire(head);
  }
}
