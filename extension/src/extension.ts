// Entry point: wires the parts together and nothing else. Activated in a git workspace (cheap: the
// bundled service starts with the first review) or by its commands.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { BundledService } from './bundled-service.ts';
import { COMMANDS } from './command-ids.ts';
import { ReviewController, reviewOptionsOf } from './review-controller.ts';
import { ReviewDiagnostics } from './review-diagnostics.ts';
import { keepLastReview, ReviewMemory } from './review-memory.ts';
import { reviewOnSave } from './review-on-save.ts';
import { ServiceSession } from './session.ts';
import { readSettings } from './settings.ts';
import { ReviewStatusBar, type StatusSnapshot } from './status-bar.ts';
import { registerTokenCommands } from './token-commands.ts';

let bundled: BundledService | undefined;

/** What the extension exports (`vscode.extensions.getExtension('diff-review.diff-review').exports`). */
export interface DiffReviewApi {
  /** The state of the last review, as the status bar item shows it. */
  status(): StatusSnapshot;
  /** Where the bundled service keeps its data (shared by every window of this VS Code). */
  bundledServiceDataDir: string;
  /** How long activate() took (ms). */
  activationMs: number;
}

export function activate(context: vscode.ExtensionContext): DiffReviewApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Diff Review', { log: true });
  bundled = new BundledService(path.join(context.globalStorageUri.fsPath, 'service'), log);
  const diagnostics = new ReviewDiagnostics(() => readSettings().editedLineBehavior);
  const statusBar = new ReviewStatusBar(
    vscode.workspace.workspaceFolders?.some((folder) => inGitRepository(folder.uri.fsPath)) ?? false,
  );
  const session = new ServiceSession(context.secrets, bundled, log);
  const controller = new ReviewController({ session, diagnostics, statusBar, log });

  context.subscriptions.push(
    log,
    diagnostics,
    statusBar,
    controller,
    vscode.commands.registerCommand(COMMANDS.review, (argument?: unknown) =>
      controller.review(reviewOptionsOf(argument)),
    ),
    vscode.commands.registerCommand(COMMANDS.clear, () => controller.clear()),
    vscode.commands.registerCommand(COMMANDS.chooseBaseBranch, (folder?: vscode.Uri) =>
      controller.chooseBaseBranch(folder instanceof vscode.Uri ? folder : undefined),
    ),
    ...registerTokenCommands(session),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    reviewOnSave(() => controller.review({ quiet: true })),
    keepLastReview(new ReviewMemory(context.workspaceState), diagnostics, statusBar),
  );
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  return { status: () => statusBar.snapshot(), bundledServiceDataDir: bundled.dataDir, activationMs };
}

/** Whether `folder` is inside a git working tree: it or a parent holds `.git` (cheap: no git process at activation). */
function inGitRepository(folder: string): boolean {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/** Stops the bundled service (running reviews get its grace period), after the subscriptions are disposed. */
export async function deactivate(): Promise<void> {
  const service = bundled;
  bundled = undefined;
  await service?.dispose();
}

// For the bundle's own test under Node (test/extension/bundle.test.ts): the embedded service, as built.
export { BundledService } from './bundled-service.ts';
