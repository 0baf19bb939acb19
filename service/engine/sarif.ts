// Findings as SARIF 2.1.0, for tools that want more than the four comment fields
// (GET /v1/reviews/{id}/sarif): rules with help text, ranges, fingerprints.
import type { Severity } from '../api/schemas.ts';
import type { Finding, RuleInfo } from './types.ts';

export type SarifLevel = 'error' | 'warning' | 'note';

export function severityToSarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

export interface SarifInput {
  findings: Finding[];
  reviewId: string;
  repository?: string;
  baseCommit?: string;
  toolVersion: string;
}

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Percent-encodes what a URI reference may not contain raw, keeping the path's slashes. */
function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function buildSarif(input: SarifInput, rules: readonly RuleInfo[]): object {
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const extraRules: RuleInfo[] = [];
  for (const finding of input.findings) {
    if (!ruleIndex.has(finding.rule_id)) {
      // A rule this engine version does not list (e.g. a stored review from another version).
      ruleIndex.set(finding.rule_id, rules.length + extraRules.length);
      extraRules.push({ id: finding.rule_id, severity: finding.severity, summary: finding.rule_id, help: '' });
    }
  }
  const driverRules = [...rules, ...extraRules].map((rule) => ({
    id: rule.id,
    name: rule.id,
    shortDescription: { text: rule.summary },
    fullDescription: { text: rule.summary },
    help: { text: rule.help || rule.summary },
    defaultConfiguration: { level: severityToSarifLevel(rule.severity) },
  }));

  const results = input.findings.map((finding) => {
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
      partialFingerprints: { 'diffReview/v1': finding.fingerprint },
    };
  });

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
  if (input.repository !== undefined) {
    const provenance: Record<string, string> = { repositoryUri: input.repository };
    if (input.baseCommit !== undefined) provenance['revisionId'] = input.baseCommit;
    run['versionControlProvenance'] = [provenance];
  }
  return { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] };
}
