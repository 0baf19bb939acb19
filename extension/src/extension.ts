// Entry point: wires the parts together and nothing else. Activated by its commands only.
import path from 'node:path';
import * as vscode from 'vscode';
import { BundledService } from './bundled-service.ts';
import { COMMANDS } from './command-ids.ts';
import { ReviewController } from './review-controller.ts';
import { ReviewDiagnostics } from './review-diagnostics.ts';
import { reviewOnSave } from './review-on-save.ts';
import { ServiceSession } from './session.ts';
import { readSettings } from './settings.ts';
import { ReviewStatusBar } from './status-bar.ts';

let bundled: BundledService | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Diff Review', { log: true });
  bundled = new BundledService(path.join(context.globalStorageUri.fsPath, 'service'), log);
  const diagnostics = new ReviewDiagnostics(() => readSettings().editedLineBehavior);
  const statusBar = new ReviewStatusBar();
  const controller = new ReviewController({ session: new ServiceSession(context.secrets, bundled, log), diagnostics, statusBar, log });

  context.subscriptions.push(
    log,
    diagnostics,
    statusBar,
    controller,
    vscode.commands.registerCommand(COMMANDS.review, () => controller.review()),
    vscode.commands.registerCommand(COMMANDS.clear, () => controller.clear()),
    vscode.commands.registerCommand(COMMANDS.setToken, (token?: unknown) => controller.setToken(token)),
    vscode.commands.registerCommand(COMMANDS.signOut, () => controller.signOut()),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    reviewOnSave(() => controller.review({ quiet: true })),
  );
  log.info(`Activated in ${(performance.now() - started).toFixed(1)} ms.`);
}

/** Stops the bundled service (running reviews get its grace period), after the subscriptions are disposed. */
export async function deactivate(): Promise<void> {
  const service = bundled;
  bundled = undefined;
  await service?.dispose();
}

// For the bundle's own test under Node (test/extension/bundle.test.ts): the embedded service, as built.
export { BundledService } from './bundled-service.ts';
