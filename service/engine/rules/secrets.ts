// Secrets: tokens and keys recognised by secretlint's recommended preset and by the engine's own
// credential formats (secrets/formats.ts: one rule id, `secret`), private-key blocks, and .env
// files. Messages name the kind of secret, never its value. Templates and documentation are not
// read (their values are examples), and placeholders (xxxx, <token>, EXAMPLE) are not secrets.
//
// Not reported: URLs whose credentials are placeholders (https://user:token@host), and in tests
// and fixtures, secrets that are test data: source code quoted in a string
// ('aws_secret_access_key = "..."' as a test's input) or a value whose name says it is fake.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { anyFile, baseName, isFixture, isTestFile } from './files.ts';
import { commentSyntaxOf, lexLine } from './lexer.ts';
import type { AddedLine, LineRule, ScanFinding, ScanRule } from './rule.ts';
import { spanOf } from './rule.ts';
import { credentialFormats, SECRET_HELP, SECRET_RULE_ID, SECRET_SUMMARY } from './secrets/credential-rule.ts';
import {
  fakeNameEnd,
  isPlaceholderSecret,
  isQuotedSource,
  isReference,
  isTemplateOrDoc,
} from './secrets/placeholders.ts';

// secretlint's profiler is on by default: every lintSource call leaves ~60 performance marks in
// the thread's performance timeline, which nothing clears (a leak in a long-lived worker) and
// which cost more than the scan. We do not read its measurements.
secretLintProfiler.setEnabled(false);

const AWS_RULE_ID = '@secretlint/secretlint-rule-aws';

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

/**
 * A literal that every secret of a preset rule contains, and optionally a test the line must also
 * pass (for "://", which most URLs have: only URLs with credentials or a Slack webhook count).
 */
type Needle = string | { keyword: string; line: RegExp };

/** user:password@ after "://" (basic-auth URLs and database connection strings report only those). */
const URL_CREDENTIALS: Needle = { keyword: '://', line: /:\/\/[^:/\s]+:[^@/\s]+@/ };

/** Every spelling of the AWS secret access key's name the preset accepts, from "ECRET" on (its first letter's case varies). */
const AWS_SECRET_KEY_NAMES = ['ECRET', 'ecret'].flatMap((secret) =>
  ['', '_'].flatMap((s1) =>
    ['ACCESS', 'access', 'Access'].flatMap((access) =>
      ['', '_'].flatMap((s2) => ['KEY', 'key', 'Key'].map((key) => `${secret}${s1}${access}${s2}${key}`)),
    ),
  ),
);

/**
 * For each rule of @secretlint/secretlint-rule-preset-recommend: the literals its patterns
 * require (token prefixes, key names), read off the preset's patterns, like gitleaks' keywords.
 * Only lines with one of them are handed to secretlint. `null`: the rule is not a line scanner
 * here (it needs the whole file) and another rule covers what it finds.
 * The preset's rule list is checked against this table when the module loads: a rule of a newer
 * preset that is missing here turns the pre-filter off (every added line goes to secretlint),
 * so a preset update can make the review slower but never blind. test/service/engine/rules/
 * secrets.test.ts runs one real sample per rule and fails on a missing rule.
 */
export const PRESET_NEEDLES: Readonly<Record<string, readonly Needle[] | null>> = {
  [AWS_RULE_ID]: ['AKIA', 'A3T', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA', ...AWS_SECRET_KEY_NAMES],
  // A service-account key file is JSON read as a whole; its "private_key" is an inline PEM block: no-private-key.
  '@secretlint/secretlint-rule-gcp': null,
  // PEM blocks span lines: no-private-key reads the lines around the BEGIN line.
  '@secretlint/secretlint-rule-privatekey': null,
  '@secretlint/secretlint-rule-npm': ['x-oauth-basic', '_authToken=', 'npm_'],
  '@secretlint/secretlint-rule-basicauth': [URL_CREDENTIALS],
  '@secretlint/secretlint-rule-slack': [
    'xoxb-',
    'xoxp-',
    'xapp-',
    'xoxa-',
    'xoxo-',
    'xoxr-',
    { keyword: '://', line: /:\/\/hooks\.slack\.com\/services\//i },
  ],
  '@secretlint/secretlint-rule-sendgrid': ['SG.'],
  '@secretlint/secretlint-rule-shopify': ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  '@secretlint/secretlint-rule-stripe': ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
  '@secretlint/secretlint-rule-github': ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  '@secretlint/secretlint-rule-gitlab': ['glpat-'],
  '@secretlint/secretlint-rule-grafana': ['glc_', 'glsa_'],
  // Every OpenAI key format carries the base64 of "OpenAI" in the middle.
  '@secretlint/secretlint-rule-openai': ['T3BlbkFJ'],
  '@secretlint/secretlint-rule-anthropic': ['sk-ant-api0'],
  '@secretlint/secretlint-rule-groq': ['gsk_'],
  '@secretlint/secretlint-rule-huggingface': ['hf_'],
  '@secretlint/secretlint-rule-linear': ['lin_api_'],
  '@secretlint/secretlint-rule-notion': ['ntn_'],
  '@secretlint/secretlint-rule-1password': ['ops_ey'],
  '@secretlint/secretlint-rule-database-connection-string': [URL_CREDENTIALS],
  '@secretlint/secretlint-rule-hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  '@secretlint/secretlint-rule-vercel': ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  // "dapi" is in many words (chinacloudapi): the token is 32 hex digits after it.
  '@secretlint/secretlint-rule-databricks': [{ keyword: 'dapi', line: /dapi[A-Fa-f0-9]{32}/ }],
  '@secretlint/secretlint-rule-docker': ['dckr_pat_'],
  '@secretlint/secretlint-rule-figma': ['figd_'],
  '@secretlint/secretlint-rule-cloudflare': ['cfk_', 'cfut_', 'cfat_'],
  '@secretlint/secretlint-rule-tailscale': ['tskey-'],
  // secretlint-disable comments: a filter, not a scanner (and we have diff-review-ignore).
  '@secretlint/secretlint-rule-filter-comments': null,
};

/** Rules of the installed preset that PRESET_NEEDLES does not know. */
export const UNKNOWN_PRESET_RULES: readonly string[] = recommendedPreset.rules
  .map((rule) => rule.meta.id)
  .filter((id) => !(id in PRESET_NEEDLES));

const NEEDLES: readonly Needle[] =
  UNKNOWN_PRESET_RULES.length > 0 ? [] : Object.values(PRESET_NEEDLES).flatMap((needles) => needles ?? []);
const keywordOf = (needle: Needle): string => (typeof needle === 'string' ? needle : needle.keyword);
/** Keywords that count only with a line test (one of which must pass), unless another needle has them plain. */
const LINE_TESTS = new Map<string, RegExp[]>();
for (const needle of NEEDLES)
  if (typeof needle !== 'string')
    LINE_TESTS.set(needle.keyword, [...(LINE_TESTS.get(needle.keyword) ?? []), needle.line]);
for (const needle of NEEDLES) if (typeof needle === 'string') LINE_TESTS.delete(needle);

/** "@secretlint/secretlint-rule-github" + "GITHUB_TOKEN" → "github GITHUB_TOKEN": what kind of secret, without its value. */
function describeSecret(ruleId: string, messageId: string): string {
  const family = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return `${family} ${messageId}`;
}

export const secret: ScanRule = {
  kind: 'scan',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  files: (path) => !isTemplateOrDoc(path),
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
  for (const message of result.messages) {
    const [from, to] = valueRange(message, content);
    const index = lineIndexAt(starts, from);
    const start = starts[index]!;
    const text = lines[index]!;
    const matched = text.slice(from - start, to - start);
    if (isPlaceholderCredential(matched) || isPlaceholderSecret(secretPart(matched)) || isReference(matched)) continue;
    if (testData) {
      const { code, fakeNameEnd } = lineFacts(index);
      if (isQuotedSource(text, code, from - start, to - start) || fakeNameEnd <= from - start) continue;
    }
    const end = Math.min(to, start + text.length) - start;
    findings.push({
      index,
      column: from - start + 1,
      endColumn: end + 1,
      secret: { start: from - start, end },
      message: `A secret was added (${describeSecret(message.ruleId, message.messageId)}); remove it, rotate it, and load it from the environment or a secret store.`,
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

/** Words people put in example URLs (https://user:token@host): not credentials. */
const PLACEHOLDERS = new Set([
  'user',
  'username',
  'name',
  'login',
  'token',
  'pass',
  'password',
  'passwd',
  'pwd',
  'secret',
  'key',
  'apikey',
  'pat',
  'oauth2',
  'x-access-token',
  'foo',
  'bar',
  'baz',
  'alice',
  'bob',
  'example',
  'test',
  'changeme',
  'hunter2',
]);

/** user:password@ in a URL where the user is a placeholder and the password is one too, or too short to be a real one. */
function isPlaceholderCredential(matched: string): boolean {
  const m = /:\/\/([^:/\s@]+):([^@/\s]+)@/.exec(matched);
  if (!m) return false;
  const user = m[1]!.toLowerCase();
  const password = m[2]!.toLowerCase();
  return PLACEHOLDERS.has(user) && (PLACEHOLDERS.has(password) || password.length < 8);
}

const LINE_SEPARATOR = '\n\u0000\n';

function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** A line of key material: base64 only, also quoted and concatenated ("MIIE...\n" +). */
const BASE64_LINE = /^\s*["'`]?[A-Za-z0-9+/]{40,}={0,2}(?:\\n)?["'`]?\s*[+,]?\s*$/;
const INLINE_BODY = /-----(?:\\r)?\\n[A-Za-z0-9+/]{40}/;
/** Lines between the BEGIN line and the key material: blank lines and armour headers (Version:, Proc-Type:, DEK-Info:), also quoted. */
function isArmour(text: string): boolean {
  const bare = text.replace(/\\n|[\s"'`+]/g, '');
  return bare === '' || /^[\w-]+:/.test(bare);
}
/** How many lines below the BEGIN line the key material may start. */
const BODY_REACH = 6;

/** Key material follows the BEGIN line within BODY_REACH added lines, past blank lines and armour headers. */
function hasBodyBelow(line: AddedLine): boolean {
  for (let offset = 1; offset <= BODY_REACH; offset++) {
    const next = line.lineAt(offset);
    if (next === undefined || next.kind !== '+') return false;
    if (BASE64_LINE.test(next.text)) return true;
    if (!isArmour(next.text)) return false;
  }
  return false;
}

/** A private-key block in any armour (PKCS#1/#8, EC, OpenSSH, PGP): the BEGIN line followed by key material. */
export const noPrivateKey: LineRule = {
  kind: 'line',
  id: 'no-private-key',
  severity: 'error',
  summary: 'A private key block (-----BEGIN ... PRIVATE KEY-----) was added.',
  help: 'Remove the key from the change and replace it (it is exposed to everyone who can read the repository); load keys from a file outside the repository or a secret store.',
  message: 'A private key was added; remove it, replace the key pair, and load the key from outside the repository.',
  files: anyFile,
  keywords: ['PRIVATE KEY'],
  check(line) {
    const m = PEM_BEGIN.exec(line.text);
    if (!m) return null;
    // Key material may follow the BEGIN line on the same line (JSON's "\n"-joined PEM).
    const hasBody = INLINE_BODY.test(line.text.slice(m.index)) || hasBodyBelow(line);
    return hasBody ? { ...spanOf(m), secret: { start: m.index, end: line.text.length } } : null;
  },
};

/** `.env`, `.env.local`, `.env.production`, ... but not the documented templates. */
const isDotEnv = (path: string): boolean => {
  const name = baseName(path);
  return /^\.env(\.[\w-]+)?$/.test(name) && !/\.(example|sample|template|dist|defaults?|schema|tpl)$/.test(name);
};

/** NAME=value, export NAME=value: a line of a .env file that holds a value (the value's span in `value`). */
const ENV_ASSIGNMENT = /^[ \t]*(?:export[ \t]+)?[A-Za-z_][\w.-]*[ \t]*=[ \t]*(?<value>\S(?:.*\S)?)?[ \t]*$/d;

/**
 * A .env file in the change: reported on each line that holds a value (so that the reviewer sees
 * what would leak, and the value stays out of the fingerprint), not on the file's first line.
 * Test apps' .env files are test data.
 */
export const noEnvFile: LineRule = {
  kind: 'line',
  id: 'no-env-file',
  severity: 'error',
  summary: 'A .env file (environment secrets) with values was added to the repository.',
  help: 'Remove the file from the change, add it to .gitignore, and commit a .env.example without values instead. Rotate any secret it held.',
  message:
    'A .env file with values was added; remove it from the change, add it to .gitignore and commit a .env.example without values instead.',
  files: (path) => isDotEnv(path) && !isTestFile(path) && !isFixture(path),
  // .env files are short: every added line is read.
  keywords: [],
  reads: 'text',
  check(line) {
    const m = ENV_ASSIGNMENT.exec(line.text);
    const span = m?.indices?.groups?.['value'];
    if (!span) return null;
    const value = line.text.slice(span[0], span[1]).replace(/^(["'])(.*)\1$/, '$2');
    if (value === '' || isReference(value)) return null;
    return { column: span[0] + 1, endColumn: span[1] + 1, secret: { start: span[0], end: span[1] } };
  },
};

export const secretRules = [secret, credentialFormats, noPrivateKey, noEnvFile];
