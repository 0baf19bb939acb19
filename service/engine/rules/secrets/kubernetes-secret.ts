// A Kubernetes Secret manifest's `data:` values are base64 of the secrets themselves, under any
// key (DATABASE_URL, stripe-key), so no name says what they are: each value is decoded and
// reported when it holds a credential (a chosen password, a random key, a URL with a password,
// a private key); `stringData:` values are read as they are. Part of the `secret` rule. The
// manifest is read parsed (structure/yaml-documents.ts): a hunk that shows `kind: Secret` in any
// YAML file, the values of that document's data blocks, block or flow, quoted or not.
import { isYaml } from '../files.ts';
import type { YamlDocument, YamlFound, YamlNode } from '../../structure/yaml-tree.ts';
import { valueUnder } from '../../structure/yaml-tree.ts';
import type { LineRule } from '../rule.ts';
import { holdsUserPassword, isChosenSecret } from './credential-files.ts';
import { SECRET_HELP, SECRET_RULE_ID, SECRET_SUMMARY, secretMessage } from './credential-rule.ts';
import { looksLikePassword, looksLikeRandomKey } from './named-values.ts';
import { isTemplateOrDoc } from './placeholders.ts';

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

/** A base64 value of a data block: what it decodes to. */
const BASE64 = /^[A-Za-z0-9+/\s]{12,}={0,2}$/;

/** The credentials among the values of each `kind: Secret` document's data and stringData. */
function secretDataValues(documents: readonly YamlDocument[]): YamlFound[] {
  const found: YamlFound[] = [];
  for (const document of documents) {
    const kind = valueUnder(document.root, 'kind');
    if (kind?.kind !== 'scalar' || kind.value !== 'Secret') continue;
    const values = (under: string): (YamlNode & { kind: 'scalar' })[] => {
      const block = valueUnder(document.root, under);
      if (block?.kind !== 'map') return [];
      return block.entries.flatMap(({ value }) => (value?.kind === 'scalar' ? [value] : []));
    };
    const report = (value: YamlNode, what: string | null) => {
      if (what !== null)
        found.push({
          document,
          start: value.range[0],
          end: value.range[1],
          message: secretMessage(what),
          secret: true,
        });
    };
    for (const value of [...values('data'), ...values('binaryData')])
      if (BASE64.test(value.value)) report(value, credentialIn(Buffer.from(value.value, 'base64').toString('utf8')));
    for (const value of values('stringData')) report(value, credentialIn(value.value));
  }
  return found;
}

export const kubernetesSecretData: LineRule = {
  kind: 'line',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  message: secretMessage('credential in a Kubernetes Secret'),
  files: (path) => isYaml(path) && !isTemplateOrDoc(path),
  keywords: ['Secret'],
  // Read parsed only: a hunk whose text says `Secret` (its kind, as far as the hunk shows).
  syntax: { keywords: ['Secret'], languages: { yaml: { yaml: secretDataValues } } },
  reads: 'text',
  check: () => null,
};
