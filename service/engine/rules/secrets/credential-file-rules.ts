// Credentials that only the file around them shows: every line of a .pgpass file, and the token
// or password of a kubeconfig user (under `users:`). Part of the `secret` rule.
import { baseName, isFixture, isTestFile, isYaml } from '../files.ts';
import type { AddedLine, LineMatch, LineRule } from '../rule.ts';
import { isBearerToken, isChosenSecret } from './credential-files.ts';
import { SECRET_HELP, SECRET_RULE_ID, SECRET_SUMMARY, secretMessage } from './credential-rule.ts';
import { looksLikePassword } from './named-values.ts';
import { isReference, isTemplateOrDoc } from './placeholders.ts';

/** Where a kubeconfig lives under a name that is not YAML's: ~/.kube/config, admin.kubeconfig, kubeconfig. */
const isKubeconfigName = (path: string): boolean =>
  /(^|\/)\.kube\/config$/.test(path) || /(^|[./_-])kubeconfig$/i.test(baseName(path));

/** `token: value`, `id-token: value` (an auth provider's), `password: value`, bare or quoted. */
const USER_ENTRY =
  /^(?<indent>[ \t]*)(?<name>token|id-token|refresh-token|password)[ \t]*:[ \t]*(?<q>["']?)(?<value>[^\s"'#]{8,8000})\k<q>[ \t]*(?:#.*)?$/d;
/** How far up the rule looks for the `user:` the entry belongs to. */
const REACH = 12;

/** Indentation of a YAML line's key: a list item's `- ` counts as indentation. */
const keyIndent = (text: string): number => /^[ \t]*(?:-[ \t]+)?/.exec(text)![0].length;

/** The entry is inside a kubeconfig's `users:` list: under a `user:` key that is in a list item (`- name:`) or under `users:`. */
function inKubeconfigUser(line: AddedLine, indent: number): boolean {
  let current = indent;
  let userIndent: number | null = null;
  for (let offset = -1; offset >= -REACH; offset--) {
    const above = line.lineAt(offset)?.text;
    if (above === undefined || above.startsWith('---')) return false;
    if (above.trim() === '' || above.trimStart().startsWith('#')) continue;
    const at = keyIndent(above);
    const key = /^[ \t]*(?:-[ \t]+)?([\w.-]+)[ \t]*:/.exec(above)?.[1];
    if (userIndent !== null) {
      // the `user:` key's list item (`- name: admin`) or the `users:` above it
      if (key === 'users' && at < userIndent) return true;
      if (key === 'name' && at === userIndent && /^[ \t]*-[ \t]/.test(above)) return true;
      if (at < userIndent) return false;
      continue;
    }
    if (at >= current) continue;
    if (key === 'user') userIndent = at;
    current = at;
  }
  return false;
}

/** A kubeconfig user's token (a service account's JWT, a static token) or password, with a literal value. */
export const kubeconfigUserCredential: LineRule = {
  kind: 'line',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  message: secretMessage('Kubernetes user credential in a kubeconfig'),
  files: (path) =>
    (isYaml(path) || isKubeconfigName(path)) && !isTemplateOrDoc(path) && !isTestFile(path) && !isFixture(path),
  keywords: ['token:', 'password:'],
  reads: 'text',
  check(line): LineMatch | null {
    const m = USER_ENTRY.exec(line.text);
    const span = m?.indices?.groups?.['value'];
    if (!m || !span) return null;
    const value = m.groups!['value']!;
    const chosen = m.groups!['name'] === 'password' ? looksLikePassword(value) : isBearerToken(value);
    if (!chosen || isReference(value) || !inKubeconfigUser(line, m.groups!['indent']!.length)) return null;
    return { column: span[0] + 1, endColumn: span[1] + 1, secret: { start: span[0], end: span[1] } };
  },
};

/**
 * A .pgpass line: hostname:port:database:username:password, `\:` and `\\` escaped; the password
 * is the rest of the line. The file holds nothing else, so every added line is read.
 */
export const pgpassPassword: LineRule = {
  kind: 'line',
  id: SECRET_RULE_ID,
  severity: 'error',
  summary: SECRET_SUMMARY,
  help: SECRET_HELP,
  message: secretMessage('PostgreSQL password (.pgpass)'),
  files: (path) => /^(?:\.pgpass|pgpass\.conf)$/.test(baseName(path)) && !isTestFile(path) && !isFixture(path),
  keywords: [],
  reads: 'text',
  check(line): LineMatch | null {
    const text = line.text;
    if (/^\s*(?:#|$)/.test(text)) return null;
    let fields = 0;
    let at = 0;
    for (; at < text.length && fields < 4; at++) {
      if (text[at] === '\\') at++;
      else if (text[at] === ':') fields++;
    }
    if (fields < 4) return null;
    const end = text.trimEnd().length;
    const password = text.slice(at, end).replace(/\\(.)/g, '$1');
    if (isReference(password) || !isChosenSecret(password)) return null;
    return { column: at + 1, endColumn: end + 1, secret: { start: at, end } };
  },
};
