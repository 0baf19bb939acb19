// Secrets: tokens and keys recognised by secretlint's recommended preset, private-key blocks,
// and .env files. Messages name the kind of secret, never its value.
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { anyFile, baseName } from './files.ts';
import type { FileRule, LineRule, ScanFinding, ScanRule } from './rule.ts';

const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }],
};

/**
 * Words that every secret the preset recognises contains (its prefixes and key names), like
 * gitleaks' keywords: secretlint only reads the lines that have one. Kept in step with the
 * patterns of @secretlint/secretlint-rule-preset-recommend (test/service/review/rules/secrets.test.ts
 * has one sample per rule of the preset).
 */
const SECRETLINT_KEYWORDS = new RegExp(
  [
    'AKIA|A3T[A-Z0-9]|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA', // AWS access key ids
    '[Ss]ecret|SECRET|[Aa]ccount|ACCOUNT', // AWS secret access key, account id
    'x-oauth-basic|_authToken|npm_', // GitHub basic auth, npm
    'xox[bparo]-|xapp-|hooks\\.slack\\.com', // Slack
    ':\\/\\/[^\\s/:@]{1,256}:[^\\s/@]{1,256}@', // user:password@ in URLs (basic auth, databases)
    'sk-|gsk_|hf_|lin_api_|ntn_|SG\\.', // OpenAI, Anthropic, Groq, Hugging Face, Linear, Notion, SendGrid
    'shp(?:pa|ca|at|ss)_|[rs]k_(?:live|test)_', // Shopify, Stripe
    'gh[pousr]_|github_pat_|glpat-|glc_|glsa_', // GitHub, GitLab, Grafana
    'ops_ey|hv[sbr]\\.|vc[pickr]_|dapi|dckr_pat_|figd_|cf(?:k|ut|at)_|tskey-', // 1Password, Vault, Vercel, Databricks, Docker, Figma, Cloudflare, Tailscale
    '[Mm]ongo[Dd][Bb]|mongodb|mysql|MYSQL|postgres|POSTGRES', // connection strings
  ].join('|'),
);

/** "@secretlint/secretlint-rule-github" + "GITHUB_TOKEN" → "github GITHUB_TOKEN": what kind of secret, without its value. */
function describeSecret(ruleId: string, messageId: string): string {
  const family = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return `${family} ${messageId}`;
}

export const secret: ScanRule = {
  kind: 'scan',
  id: 'secret',
  severity: 'error',
  summary: 'A credential (API token, access key, password in a URL, ...) recognised by secretlint\'s recommended preset.',
  help: 'Remove the secret from the change and rotate it: it is exposed to everyone who can read the repository. Load secrets from the environment or a secret store.',
  files: anyFile,
  prefilter: SECRETLINT_KEYWORDS,
  async scan(path, lines) {
    const starts: number[] = [];
    let offset = 0;
    for (const line of lines) {
      starts.push(offset);
      offset += line.text.length + 1;
    }
    const content = lines.map((line) => line.text).join('\n');
    const result = await lintSource({
      source: { content, filePath: path, ext: path.slice(path.lastIndexOf('.')), contentType: 'text' },
      options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
    });
    const findings: ScanFinding[] = [];
    for (const message of result.messages) {
      const [from, to] = message.range;
      const index = lineIndexAt(starts, from);
      const line = lines[index]!;
      const start = starts[index]!;
      findings.push({
        line: line.newLine,
        column: from - start + 1,
        endColumn: Math.min(to, start + line.text.length) - start + 1,
        message: `A secret was added (${describeSecret(message.ruleId, message.messageId)}); remove it, rotate it, and load it from the environment or a secret store.`,
      });
    }
    return findings;
  },
};

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
const BASE64_BODY = /^\s*[A-Za-z0-9+/=]{40,}\s*$/;
const INLINE_BODY = /-----(?:\\r)?\\n[A-Za-z0-9+/]{40}/;

/** A private-key block: the BEGIN line followed by key material (the next line, or `\n` + base64 in a string). */
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
    const next = line.hunk[line.index + 1];
    const hasBody = INLINE_BODY.test(line.text.slice(m.index)) || (next !== undefined && next.kind === '+' && BASE64_BODY.test(next.text));
    return hasBody ? { column: m.index + 1, endColumn: m.index + 1 + m[0].length } : null;
  },
};

/** `.env`, `.env.local`, `.env.production`, ... but not the documented templates. */
const isDotEnv = (path: string): boolean => {
  const name = baseName(path);
  return /^\.env(\.[\w-]+)?$/.test(name) && !/\.(example|sample|template|dist|defaults?|schema|tpl)$/.test(name);
};

export const noEnvFile: FileRule = {
  kind: 'file',
  id: 'no-env-file',
  severity: 'error',
  summary: 'A .env file (environment secrets) was added to the repository.',
  help: 'Remove the file from the change, add it to .gitignore, and commit a .env.example without values instead. Rotate any secret it held.',
  message: 'A .env file was added; remove it from the change, add it to .gitignore and commit a .env.example without values instead.',
  check(file) {
    if (file.status !== 'added' || file.newPath === null || !isDotEnv(file.newPath)) return null;
    const first = file.hunks[0]?.lines.find((line) => line.kind === '+');
    return first ? { line: first.newLine } : null;
  },
};

export const secretRules = [secret, noPrivateKey, noEnvFile];
