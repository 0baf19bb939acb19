// A Kubernetes Secret manifest's `data:` values are base64 of the secrets themselves, under any
// key (DATABASE_URL, stripe-key), so no name says what they are: each value is decoded and
// reported when it holds a credential (a chosen password, a random key, a URL with a password,
// a private key). Part of the `secret` rule. What lies around the line is read from the hunk
// (the diff's context included): the `data:` block it is in, and `kind: Secret` in its document.
// Read in YAML files whose path says secret: the rule reads every line, which turns the keyword
// pre-filter off for the file (reading every YAML file so made 1 MB YAML diffs far slower).
import { isYaml } from '../files.ts';
import type { AddedLine, LineMatch, LineRule } from '../rule.ts';
import { holdsUserPassword, isChosenSecret } from './credential-files.ts';
import { SECRET_HELP, SECRET_RULE_ID, SECRET_SUMMARY, secretMessage } from './credential-rule.ts';
import { looksLikePassword, looksLikeRandomKey } from './named-values.ts';
import { isTemplateOrDoc } from './placeholders.ts';

/** `  key: base64` (quoted or not): a value of a data block. */
const DATA_ENTRY =
  /^(?<indent>[ \t]+)[\w.-]{1,253}:[ \t]*(?<q>["']?)(?<value>[A-Za-z0-9+/]{12,4096}={0,2})\k<q>[ \t]*$/d;
const DATA_KEY = /^([ \t]*)(?:data|binaryData):[ \t]*$/;
const SECRET_KIND = /^kind:[ \t]*["']?Secret["']?[ \t]*$/;
/** How far the rule looks from a line for its block and its document's kind. */
const REACH = 200;

const indentOf = (text: string): number => text.length - text.trimStart().length;

/** The line is a value of the `data:` block of a `kind: Secret` document (as far as the hunk shows). */
function inSecretData(line: AddedLine, indent: number): boolean {
  let dataAt: number | null = null;
  for (let offset = -1; offset >= -REACH; offset--) {
    const above = line.lineAt(offset);
    if (above === undefined || above.text.startsWith('---')) return false;
    if (above.text.trim() === '' || indentOf(above.text) >= indent) continue;
    const data = DATA_KEY.exec(above.text);
    if (!data) return false;
    dataAt = offset;
    break;
  }
  if (dataAt === null) return false;
  for (const direction of [-1, 1]) {
    for (let step = 1; step <= REACH; step++) {
      const other = line.lineAt(dataAt + direction * step);
      if (other === undefined || other.text.startsWith('---')) break;
      if (SECRET_KIND.test(other.text)) return true;
    }
  }
  return false;
}

/** A .dockerconfigjson's registries: `auth` (base64 user:password) or `password` with a value worth reporting. */
function holdsDockerCredential(decoded: string): boolean {
  let config: unknown;
  try {
    config = JSON.parse(decoded);
  } catch {
    return false;
  }
  const auths = (config as { auths?: unknown } | null)?.auths;
  if (typeof auths !== 'object' || auths === null) return false;
  return Object.values(auths).some((entry: unknown) => {
    const { auth, password } = (entry ?? {}) as { auth?: unknown; password?: unknown };
    return (
      (typeof auth === 'string' && holdsUserPassword(auth)) ||
      (typeof password === 'string' && isChosenSecret(password))
    );
  });
}

/** What a decoded value is, if it is a credential. */
function credentialIn(decoded: string): string | null {
  if (/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY/.test(decoded)) return 'private key in a Kubernetes Secret';
  if (decoded.includes('"auths"'))
    return holdsDockerCredential(decoded) ? 'Docker registry credential in a Kubernetes Secret' : null;
  if (/[\s\u0000-\u001f]/.test(decoded) || /[^\x20-\x7e]/.test(decoded)) return null;
  if (/:\/\/[^:@/\s]{0,64}:[^@/\s]{3,128}@/.test(decoded)) {
    const password = /:\/\/[^:@/\s]{0,64}:([^@/\s]{3,128})@/.exec(decoded)![1]!;
    return looksLikePassword(password) ? 'connection URL with a password in a Kubernetes Secret' : null;
  }
  return looksLikePassword(decoded) || looksLikeRandomKey(decoded) ? 'credential in a Kubernetes Secret' : null;
}

export const kubernetesSecretData: LineRule = {
  kind: 'line',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  message: secretMessage('credential in a Kubernetes Secret'),
  // A data value has no word of its own, so every added line is read, which turns the keyword
  // pre-filter off for the file: only YAML files named as secrets (k8s/db-secret.yaml, secrets.yml).
  files: (path) => isYaml(path) && /secret/i.test(path) && !isTemplateOrDoc(path),
  keywords: [],
  reads: 'text',
  check(line): LineMatch | null {
    const m = DATA_ENTRY.exec(line.text);
    const span = m?.indices?.groups?.['value'];
    if (!m || !span) return null;
    if (!inSecretData(line, m.groups!['indent']!.length)) return null;
    const kind = credentialIn(Buffer.from(m.groups!['value']!, 'base64').toString('utf8'));
    if (kind === null) return null;
    return {
      column: span[0] + 1,
      endColumn: span[1] + 1,
      message: secretMessage(kind),
      secret: { start: span[0], end: span[1] },
    };
  },
};
