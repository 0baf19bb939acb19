// A rule's documentation: a link on each diagnostic's code (its page on the project's site) and
// "Show Rule Description", which opens its page as Markdown in the editor. The page comes from the
// service that made the finding: the review's SARIF, else GET /v1/rules/{id} of a configured
// service, else the bundled engine's own page (offline).
import * as vscode from 'vscode';
import { createClient } from '../../service/client/index.ts';
import { readSettings } from './settings.ts';
import { USER_AGENT } from './session.ts';

export const RULE_SCHEME = 'diff-review-rule';
/** Where the rules' pages are published (docs/rules/ of the repository in the manifest). */
const RULE_DOCS_BASE = 'https://github.com/diff-review/diff-review/blob/main/docs/rules/';

/** A rule's page on the web: the target of a diagnostic's code. */
export const ruleDocsUri = (ruleId: string): vscode.Uri =>
  vscode.Uri.parse(`${RULE_DOCS_BASE}${encodeURIComponent(ruleId)}.md`);

/** The document "Show Rule Description" opens for a rule. */
export const ruleDescriptionUri = (ruleId: string): vscode.Uri =>
  vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${ruleId}.md` });

export class RuleHelp implements vscode.TextDocumentContentProvider {
  #fromReview = new Map<string, string>();
  readonly #log: vscode.LogOutputChannel;

  constructor(log: vscode.LogOutputChannel) {
    this.#log = log;
  }

  /** The rules' pages from the last review's SARIF. */
  remember(help: ReadonlyMap<string, string>): void {
    this.#fromReview = new Map(help);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ruleId = decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
    return (await this.#markdownOf(ruleId)) ?? `# ${ruleId}\n\nNo description of this rule is available.\n`;
  }

  /** Opens a rule's description beside the editor: rendered when VS Code's Markdown preview is there. */
  async show(ruleId: string): Promise<void> {
    const uri = ruleDescriptionUri(ruleId);
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    } catch {
      // No Markdown extension: the text itself.
      await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }
  }

  async #markdownOf(ruleId: string): Promise<string | undefined> {
    const known = this.#fromReview.get(ruleId);
    if (known) return known;
    const { serviceUrl, requestTimeoutMs } = readSettings();
    if (serviceUrl !== '') {
      try {
        const client = createClient({
          baseUrl: serviceUrl,
          timeoutMs: requestTimeoutMs,
          retry: 0,
          userAgent: USER_AGENT,
        });
        return (await client.getRule(ruleId)).markdown;
      } catch (error) {
        this.#log.warn(
          `No description of ${ruleId} from ${serviceUrl} (${error instanceof Error ? error.message : String(error)}); showing this version's.`,
        );
      }
    }
    // The engine this extension bundles (loaded only now: activation stays cheap).
    const { ruleDocOf, rulePage } = await import('../../service/engine/rule-pages.ts');
    const doc = ruleDocOf(ruleId);
    return doc ? rulePage(doc) : undefined;
  }
}
