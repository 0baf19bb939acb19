// Findings as SARIF 2.1.0, for tools that want more than the four comment fields
// (GET /v1/reviews/{id}/sarif): rules with help text, ranges, fingerprints.
import { justificationOf } from '../api/sarif-suppression.ts';
import type { Severity } from '../api/schemas.ts';
import { ruleDocOf, ruleHelpText, rulePage } from './rule-pages.ts';
import type { Finding, RuleInfo, SuppressedFinding } from './types.ts';

export type SarifLevel = 'error' | 'warning' | 'note';

export function severityToSarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

export interface SarifInput {
  findings: Finding[];
  /** Findings an inline comment suppressed: results with `suppressions` (kind inSource), which code scanning shows as dismissed. */
  suppressed?: SuppressedFinding[];
  reviewId: string;
  repository?: string;
  baseCommit?: string;
  toolVersion: string;
}

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Percent-encodes what a URI reference may not contain raw, keeping the path's slashes. */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The repository as the absolute URI SARIF's versionControlProvenance needs: a URL as it is,
 * `github.com/acme/app` (the form the git module normalises remotes to) as https; else undefined.
 */
function repositoryUriOf(repository: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) && URL.canParse(repository)) return repository;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/\S+$/i.test(repository) && URL.canParse(`https://${repository}`))
    return `https://${repository}`;
  return undefined;
}

export function buildSarif(input: SarifInput, rules: readonly RuleInfo[]): object {
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const extraRules: RuleInfo[] = [];
  const suppressed = input.suppressed ?? [];
  for (const finding of [...input.findings, ...suppressed]) {
    if (!ruleIndex.has(finding.rule_id)) {
      // A rule this engine version does not list (e.g. a stored review from another version).
      ruleIndex.set(finding.rule_id, rules.length + extraRules.length);
      extraRules.push({ id: finding.rule_id, severity: finding.severity, summary: finding.rule_id, help: '' });
    }
  }
  const driverRules = [...rules, ...extraRules].map((rule) => {
    // help: the rule's documentation (docs/rules/<id>.md), as code scanning shows it beside a result
    const doc = ruleDocOf(rule.id);
    return {
      id: rule.id,
      name: rule.id,
      shortDescription: { text: rule.summary },
      fullDescription: { text: rule.summary },
      help: doc ? { text: ruleHelpText(doc), markdown: rulePage(doc) } : { text: rule.help || rule.summary },
      defaultConfiguration: { level: severityToSarifLevel(rule.severity) },
    };
  });

  const resultOf = (finding: Finding) => {
    const region: Record<string, number> = { startLine: finding.line };
    if (finding.start_column !== undefined) region['startColumn'] = finding.start_column;
    if (finding.end_column !== undefined) region['endColumn'] = finding.end_column;
    return {
      ruleId: finding.rule_id,
      ruleIndex: ruleIndex.get(finding.rule_id)!,
      level: severityToSarifLevel(finding.severity),
      message: { text: finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: pathToUri(finding.file_path), uriBaseId: '%SRCROOT%' },
            region,
          },
        },
      ],
      // primaryLocationLineHash: the key GitHub code scanning tracks a result by across pushes;
      // given, it is used as is (the engine's is line-independent, so a moved finding stays the same).
      partialFingerprints: { 'diffReview/v1': finding.fingerprint, primaryLocationLineHash: finding.fingerprint },
    };
  };
  const results: object[] = input.findings.map(resultOf);
  for (const finding of suppressed) {
    const { by, reason } = finding.suppressed;
    results.push({
      ...resultOf(finding),
      suppressions: [
        { kind: 'inSource', justification: justificationOf(by, reason), properties: { suppressedBy: by } },
      ],
    });
  }

  const run: Record<string, unknown> = {
    tool: {
      driver: {
        name: 'diff-review',
        version: input.toolVersion,
        semanticVersion: input.toolVersion,
        informationUri: 'https://github.com/diff-review/diff-review',
        rules: driverRules,
      },
    },
    automationDetails: { id: `diff-review/${input.reviewId}` },
    columnKind: 'utf16CodeUnits',
    results,
  };
  const repositoryUri = input.repository === undefined ? undefined : repositoryUriOf(input.repository);
  if (repositoryUri !== undefined) {
    const provenance: Record<string, string> = { repositoryUri };
    if (input.baseCommit !== undefined) provenance['revisionId'] = input.baseCommit;
    run['versionControlProvenance'] = [provenance];
  } else if (input.repository !== undefined) {
    // Not a URI (a folder name): SARIF's repositoryUri must be an absolute URI, so it goes in a property bag.
    run['properties'] = {
      repository: input.repository,
      ...(input.baseCommit !== undefined ? { baseCommit: input.baseCommit } : {}),
    };
  }
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] };
}
