// Secrets: tokens and keys recognised by secretlint's recommended preset and by the engine's own
// credential formats (secrets/formats.ts: one rule id, `secret`), private-key blocks, and .env
// files. Messages name the kind of secret, never its value. Templates are not read (their values
// are examples); in documentation only credentials with a shape of their own are looked for, and
// placeholders (xxxx, <token>, EXAMPLE) are not secrets anywhere.
//
// Not reported: URLs whose credentials are placeholders (https://user:token@host), and in tests
// and fixtures, secrets that are test data: source code quoted in a string
// ('aws_secret_access_key = "..."' as a test's input) or a value whose name says it is fake.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { isFixture, isTestFile } from './files.ts';
import { commentSyntaxOf, lexLine } from './lexer.ts';
import type { ScanFinding, ScanRule } from './rule.ts';
import { githubOrNpmChecksum } from './secrets/checksums.ts';
import {
  credentialFormats,
  failedChecksumMessage,
  SECRET_HELP,
  SECRET_RULE_ID,
  SECRET_SUMMARY,
  secretMessage,
} from './secrets/credential-rule.ts';
import { kubeconfigUserCredential, pgpassPassword } from './secrets/credential-file-rules.ts';
import { isGitCredentials } from './secrets/credential-files.ts';
import { noEnvFile } from './secrets/env-file.ts';
import { kubernetesSecretData } from './secrets/kubernetes-secret.ts';
import {
  fakeNameEnd,
  isDocumentation,
  isDocumentedSample,
  isPlaceholderCredential,
  isPlaceholderSecret,
  isQuotedSource,
  isReference,
  isTemplate,
  shannonEntropy,
} from './secrets/placeholders.ts';
import {
  AWS_RULE_ID,
  keywordOf,
  LINE_TESTS,
  NEEDLES,
  presetEntropy,
  presetKind,
  tokenBody,
} from './secrets/preset-needles.ts';
import { noPrivateKey } from './secrets/private-key.ts';
import { lineIndexAt } from '../line-starts.ts';

export { PRESET_NEEDLES, UNKNOWN_PRESET_RULES } from './secrets/preset-needles.ts';

// secretlint's profiler is on by default: every lintSource call leaves ~60 performance marks in
// the thread's performance timeline, which nothing clears (a leak in a long-lived worker) and
// which cost more than the scan. We do not read its measurements.
secretLintProfiler.setEnabled(false);

const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: recommendedPreset.meta.id,
      rule: recommendedPreset,
      // The preset only reports AWS secret access keys by default; an access key id (AKIA...)
      // assigned in code is a leak too. Account ids are not secrets (AWS says so): not reported.
      rules: [{ id: AWS_RULE_ID, options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] }],
    },
  ],
};

export const secret: ScanRule = {
  kind: 'scan',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  // secretlint's preset knows credentials by their shape (and AWS's secret by its own name): read in documentation too
  files: (path) => !isTemplate(path),
  // Empty (no pre-filter: every added line) when the preset has a rule the table does not know.
  keywords: [...new Set(NEEDLES.map(keywordOf))],
  accepts(text, found) {
    if (NEEDLES.length === 0) return true;
    for (const keyword of found) {
      const lineTests = LINE_TESTS.get(keyword);
      if (lineTests === undefined || lineTests.some((test) => test.test(text))) return true;
    }
    return false;
  },
  async scan(lines) {
    // One secretlint run per file: some of its rules look at the file's name (.npmrc, package.json).
    const byPath = new Map<string, number[]>();
    lines.forEach((line, index) => {
      const indexes = byPath.get(line.path);
      if (indexes) indexes.push(index);
      else byPath.set(line.path, [index]);
    });
    const runs = await Promise.all(
      [...byPath].map(([path, indexes]) =>
        scanFile(
          path,
          indexes.map((index) => lines[index]!.text),
        ),
      ),
    );
    return [...byPath.values()].flatMap((indexes, run) =>
      runs[run]!.map((finding) => ({ ...finding, index: indexes[finding.index]! })),
    );
  },
};

/** secretlint over some lines of one file. A NUL line between them keeps a pattern from spanning two (\s matches a newline, not NUL). */
async function scanFile(path: string, lines: readonly string[]): Promise<ScanFinding[]> {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + LINE_SEPARATOR.length;
  }
  const content = lines.join(LINE_SEPARATOR);
  const result = await lintSource({
    source: {
      content,
      filePath: path,
      ext: path.slice(path.lastIndexOf('.')),
      contentType: 'text',
    },
    options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  const findings: ScanFinding[] = [];
  const testData = isTestFile(path) || isFixture(path);
  // Per line, read once however many secrets it holds: its code view and where a fake name ends.
  const lexed = new Map<number, { code: string; fakeNameEnd: number }>();
  const lineFacts = (index: number) => {
    let facts = lexed.get(index);
    if (!facts)
      lexed.set(
        index,
        (facts = { code: lexLine(lines[index]!, commentSyntaxOf(path)).code, fakeNameEnd: fakeNameEnd(lines[index]!) }),
      );
    return facts;
  };
  // git's credential store is all URLs with passwords: its own format names them better.
  const gitCredentials = isGitCredentials(path);
  for (const message of result.messages) {
    if (gitCredentials && message.messageId === 'BasicAuth') continue;
    const [from, to] = valueRange(message, content);
    const index = lineIndexAt(starts, from);
    const start = starts[index]!;
    const text = lines[index]!;
    const matched = text.slice(from - start, to - start);
    const part = secretPart(matched);
    if (isPlaceholderCredential(matched) || isPlaceholderSecret(part) || isReference(matched)) continue;
    if (isDocumentedSample(part) || isDocumentedSample(matched)) continue;
    // A token's own randomness, after its prefix: ghp_1234…, sk_live_abcdabcd… are placeholders.
    const body = tokenBody(message.ruleId, part);
    if (isPlaceholderSecret(body) || shannonEntropy(body) < presetEntropy(message.ruleId)) continue;
    if (testData) {
      const { code, fakeNameEnd } = lineFacts(index);
      if (isQuotedSource(text, code, from - start, to - start) || fakeNameEnd <= from - start) continue;
    }
    // GitHub's and npm's tokens carry a checksum: one that fails was made up (an example in documentation).
    const checksumHolds = githubOrNpmChecksum(part);
    if (checksumHolds === false && isDocumentation(path)) continue;
    const kind = presetKind(message.ruleId, message.messageId, matched);
    const end = Math.min(to, start + text.length) - start;
    findings.push({
      index,
      column: from - start + 1,
      endColumn: end + 1,
      secret: { start: from - start, end },
      message: checksumHolds === false ? failedChecksumMessage(kind) : secretMessage(kind),
    });
  }
  return findings;
}

/**
 * The reported value's range in the scanned text. secretlint's AWS secret access key rule reports
 * where `aws_secret_access_key = ` starts, with the value's length (1–41 on a line whose key is at
 * 25–65): the value is found again after the name's connector.
 */
function valueRange(
  message: { messageId?: string; range: readonly [number, number] },
  content: string,
): [number, number] {
  const [from, to] = message.range;
  if (message.messageId !== 'AWSSecretAccessKey') return [from, to];
  const value = /(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})/.exec(content.slice(from, from + 200));
  if (!value) return [from, to];
  const start = from + value.index + value[0].length - 40;
  return [start, start + 40];
}

/** The varying part of a match: a URL's password, or the token after its prefix and name. */
function secretPart(matched: string): string {
  const url = /:\/\/[^:/\s@]*:([^@/\s]+)@/.exec(matched);
  if (url) return url[1]!;
  const assigned = /[=:]\s*["']?([^"'\s]+)["']?\s*$/.exec(matched);
  return assigned ? assigned[1]! : matched;
}

const LINE_SEPARATOR = '\n\u0000\n';

export const secretRules = [
  secret,
  credentialFormats,
  kubernetesSecretData,
  kubeconfigUserCredential,
  pgpassPassword,
  noPrivateKey,
  noEnvFile,
];
