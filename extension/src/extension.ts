// Entry point: wires the parts together and nothing else. Activated in a git workspace (cheap: the
// bundled service starts with the first review) or by its commands.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { BranchReviews } from './branch-reviews.ts';
import { BundledService } from './bundled-service.ts';
import { COMMANDS } from './command-ids.ts';
import { ConfigDiagnostics } from './config-diagnostics.ts';
import { FindingActions, findingOf } from './finding-actions.ts';
import { FindingsView, groupByCommand, type TreeSnapshot } from './findings-view.ts';
import { HeadWatcher } from './head-watcher.ts';
import { ReviewQuickFixes } from './quick-fixes.ts';
import { ReviewController } from './review-controller.ts';
import { ruleIdOf } from './finding-diagnostic.ts';
import { ReviewDiagnostics } from './review-diagnostics.ts';
import { ReviewMemory } from './review-memory.ts';
import { reviewOnSave } from './review-on-save.ts';
import { reviewOptionsOf } from './review-options.ts';
import { RULE_SCHEME, RuleHelp } from './rule-help.ts';
import { ServiceSession } from './session.ts';
import { readSettings } from './settings.ts';
import { ReviewStatusBar, type StatusSnapshot } from './status-bar.ts';
import { registerTokenCommands } from './token-commands.ts';

let bundled: BundledService | undefined;

/** What the extension exports (`vscode.extensions.getExtension('diff-review.diff-review').exports`). */
export interface DiffReviewApi {
  /** The state of the last review, as the status bar item shows it. */
  status(): StatusSnapshot;
  /** The findings view's tree, as it is now. */
  findingsTree(): TreeSnapshot[];
  /** The text the findings view shows above its tree (the review's findings hidden on this branch), if any. */
  findingsMessage(): string | undefined;
  /** What the workspace state keeps for the next session: the findings shown then, and all it keeps (hidden ones too). */
  savedReview(): { shown: number; kept: number } | undefined;
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
  const ruleHelp = new RuleHelp(log);
  const configDiagnostics = new ConfigDiagnostics();
  const memory = new ReviewMemory(context.workspaceState);
  const head = new HeadWatcher();
  const reviews = new BranchReviews({ memory, diagnostics, statusBar, head });
  const controller = new ReviewController({
    session,
    diagnostics,
    statusBar,
    log,
    ruleHelp,
    configDiagnostics,
    reviews,
  });
  const findings = new FindingsView(diagnostics, statusBar, context.workspaceState);
  const actions = new FindingActions(diagnostics, ruleHelp, log);
  // A finding (quick fix, findings view) or a rule id (scripts).
  const ruleOf = (argument: unknown): string | undefined => {
    const finding = findingOf(argument);
    return typeof argument === 'string' ? argument : finding && ruleIdOf(finding.diagnostic);
  };

  context.subscriptions.push(
    log,
    diagnostics,
    statusBar,
    controller,
    configDiagnostics,
    findings,
    vscode.commands.registerCommand(COMMANDS.review, (argument?: unknown) =>
      controller.review(reviewOptionsOf(argument)),
    ),
    vscode.commands.registerCommand(COMMANDS.clear, () => controller.clear()),
    vscode.commands.registerCommand(COMMANDS.chooseBaseBranch, (folder?: vscode.Uri) =>
      controller.chooseBaseBranch(folder instanceof vscode.Uri ? folder : undefined),
    ),
    ...registerTokenCommands(session),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    vscode.workspace.registerTextDocumentContentProvider(RULE_SCHEME, ruleHelp),
    vscode.languages.registerCodeActionsProvider(
      { scheme: 'file' },
      new ReviewQuickFixes(actions),
      ReviewQuickFixes.metadata(),
    ),
    vscode.commands.registerCommand(COMMANDS.ignoreFinding, (argument?: unknown, reason?: unknown) => {
      const finding = findingOf(argument);
      return finding ? actions.ignoreAsConfigured(finding, typeof reason === 'string' ? reason : undefined) : false;
    }),
    // A reason as the second argument skips the prompt (a keybinding's args, or a test).
    vscode.commands.registerCommand(COMMANDS.suppressWithReason, (argument?: unknown, reason?: unknown) => {
      const finding = findingOf(argument);
      return finding ? actions.suppressWithReason(finding, typeof reason === 'string' ? reason : undefined) : false;
    }),
    vscode.commands.registerCommand(COMMANDS.turnOffRule, (argument?: unknown) => {
      const ruleId = ruleOf(argument);
      return ruleId ? actions.turnOff(ruleId, findingOf(argument)?.uri) : undefined;
    }),
    vscode.commands.registerCommand(COMMANDS.showRuleDescription, (argument?: unknown) => {
      const ruleId = ruleOf(argument);
      return ruleId ? actions.showDescription(ruleId) : undefined;
    }),
    groupByCommand(findings),
    reviewOnSave(() => controller.review({ quiet: true })),
    head,
    reviews,
  );
  // The last review comes back (then the one of the branch checked out, when that is another).
  reviews.start(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  return {
    status: () => statusBar.snapshot(),
    findingsTree: () => findings.snapshot(),
    findingsMessage: () => findings.message,
    savedReview: () => {
      const saved = memory.load();
      return (
        saved && {
          shown: saved.state.findings,
          kept: saved.files.reduce((sum, [, planned]) => sum + planned.length, 0),
        }
      );
    },
    bundledServiceDataDir: bundled.dataDir,
    activationMs,
  };
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
