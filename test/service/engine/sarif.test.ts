import { readFileSync } from 'node:fs';
import { RULE_DOCS } from '../../../service/engine/rules/rule-docs.ts';
import { describe, expect, it } from 'vitest';
import { RULES, severityToSarifLevel, toSarif } from '../../../service/engine/index.ts';
import type { Finding } from '../../../service/engine/index.ts';

const finding: Finding = {
  rule_id: 'no-debugger',
  severity: 'warning',
  file_path: 'src/my file.js',
  line: 12,
  message: 'no-debugger: Remove the debugger statement before merging.',
  start_column: 3,
  end_column: 11,
  fingerprint: '0123456789abcdef0123456789abcdef',
};

/** A SARIF log as these tests read it (the schema check is in test/service/cli/formats.test.ts). */
interface SarifLog {
  version: string;
  $schema: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: {
          id: string;
          shortDescription: { text: string };
          help: { text: string; markdown?: string };
          defaultConfiguration: { level: string };
        }[];
      };
    };
    results: { ruleIndex: number; level: string; locations: { physicalLocation: { region: object } }[] }[];
    versionControlProvenance?: object[];
    properties?: Record<string, string>;
  }[];
}
const sarifOf = (input: Parameters<typeof toSarif>[0]) => toSarif(input) as SarifLog;

describe('toSarif', () => {
  it('maps severities to SARIF levels', () => {
    expect([severityToSarifLevel('error'), severityToSarifLevel('warning'), severityToSarifLevel('info')]).toEqual([
      'error',
      'warning',
      'note',
    ]);
  });

  it('writes a SARIF 2.1.0 log with rules, results, regions and fingerprints', () => {
    const log = sarifOf({
      findings: [
        finding,
        {
          ...finding,
          rule_id: 'todo-without-issue',
          severity: 'info',
          line: 3,
          start_column: undefined,
          end_column: undefined,
        },
      ],
      reviewId: 'rev_01',
      repository: 'github.com/acme/app',
      baseCommit: 'abc1234',
      toolVersion: '0.1.0',
    });
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('diff-review');
    expect(run.tool.driver.version).toBe('0.1.0');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    const rule = run.tool.driver.rules.find((r) => r.id === 'no-debugger')!;
    expect(rule.shortDescription.text).toBeTruthy();
    expect(rule.help.text).toBeTruthy();
    // the rule's documentation page, as code scanning shows it beside a result
    expect(rule.help.markdown).toBe(readFileSync('docs/rules/no-debugger.md', 'utf8'));
    expect(rule.help.text).toContain(RULE_DOCS['no-debugger']!.why);
    expect(rule.help.text).toContain(`How to fix it: ${RULES.find((r) => r.id === 'no-debugger')!.help}`);
    expect(rule.defaultConfiguration.level).toBe('warning');
    const [first, second] = [run.results[0]!, run.results[1]!];
    expect(first).toMatchObject({
      ruleId: 'no-debugger',
      level: 'warning',
      message: { text: finding.message },
      partialFingerprints: { 'diffReview/v1': finding.fingerprint, primaryLocationLineHash: finding.fingerprint },
    });
    expect(first.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'src/my%20file.js', uriBaseId: '%SRCROOT%' },
      region: { startLine: 12, startColumn: 3, endColumn: 11 },
    });
    expect(run.tool.driver.rules[first.ruleIndex]!.id).toBe('no-debugger');
    expect(second.level).toBe('note');
    expect(second.locations[0]!.physicalLocation.region).toEqual({ startLine: 3 });
    // SARIF's repositoryUri must be an absolute URI (the schema says so: test/service/cli/formats.test.ts).
    expect(run.versionControlProvenance).toEqual([
      { repositoryUri: 'https://github.com/acme/app', revisionId: 'abc1234' },
    ]);
  });

  it('keeps a repository name that is not a URI out of versionControlProvenance, in a property bag', () => {
    const run = sarifOf({
      findings: [finding],
      reviewId: 'rev_03',
      repository: 'my-folder',
      baseCommit: 'abc1234',
      toolVersion: '0.1.0',
    }).runs[0]!;
    expect(run.versionControlProvenance).toBeUndefined();
    expect(run.properties).toEqual({ repository: 'my-folder', baseCommit: 'abc1234' });
    const url = sarifOf({
      findings: [finding],
      reviewId: 'rev_04',
      repository: 'ssh://git.example.com/app',
      toolVersion: '0.1.0',
    }).runs[0]!;
    expect(url.versionControlProvenance).toEqual([{ repositoryUri: 'ssh://git.example.com/app' }]);
  });

  it('still describes a rule id it does not know', () => {
    const log = sarifOf({
      findings: [{ ...finding, rule_id: 'retired-rule' }],
      reviewId: 'rev_02',
      toolVersion: '0.1.0',
    });
    const run = log.runs[0]!;
    expect(run.tool.driver.rules[run.results[0]!.ruleIndex]!.id).toBe('retired-rule');
    expect(run.versionControlProvenance).toBeUndefined();
  });
});
