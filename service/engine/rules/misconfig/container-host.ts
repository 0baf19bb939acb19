// Insecure container and host configuration: containers with the host's powers (privileged,
// privilege escalation, the host's network or process namespace), a download piped straight
// into a shell, and files anyone may write.
import { isDockerfile, isGo, isJavaScript, isJson, isPython, isShellContext, isYaml, notTestCode } from '../files.ts';
import { ciScripts } from '../../structure/ci-scripts.ts';
import type { YamlDocument, YamlFound } from '../../structure/yaml-tree.ts';
import { scalarEntries } from '../../structure/yaml-tree.ts';
import type { LineRule } from '../rule.ts';
import { isCodeAt, patternRule, spanOf } from '../rule.ts';

/** Kubernetes' switches that give a container the host's powers, and Compose's namespaces shared with the host. */
const HOST_POWERS = new Set(['privileged', 'allowPrivilegeEscalation', 'hostNetwork', 'hostPID', 'hostIPC']);
const HOST_NAMESPACES = new Set(['network_mode', 'pid']);

/** In YAML (Kubernetes, Compose), read parsed: a key set to true or to host, in any map, block or flow. */
function hostPowers(documents: readonly YamlDocument[]): YamlFound[] {
  return scalarEntries(documents)
    .filter(({ key, value }) =>
      HOST_POWERS.has(key) ? /^true$/i.test(value.value) : HOST_NAMESPACES.has(key) && value.value === 'host',
    )
    .map(({ document, keyRange, value }) => ({ document, start: keyRange[0], end: value.range[1] }));
}

const PRIVILEGED_KEYWORDS = [
  'privileged',
  'allowPrivilegeEscalation',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'network_mode',
  'pid:',
  '--network',
];

export const noPrivilegedContainer: LineRule = {
  ...patternRule({
    id: 'no-privileged-container',
    severity: 'warning',
    summary:
      "A container given the host's powers: privileged, privilege escalation allowed, or the host's network, process or IPC namespace.",
    help: 'Drop it and grant only the capabilities the workload needs (securityContext.capabilities.add, cap_add), with allowPrivilegeEscalation: false.',
    message:
      "This container gets the host's powers (a breakout is a host compromise); grant only the capabilities it needs instead.",
    files: (path) => isYaml(path) || isJson(path) || isShellContext(path) || isDockerfile(path),
    keywords: PRIVILEGED_KEYWORDS,
    in: 'code',
    pattern:
      /^\s*(?:-\s+)?["']?(?:privileged|allowPrivilegeEscalation|hostNetwork|hostPID|hostIPC)["']?\s*:\s*["']?true\b|\{[^}]{0,200}?(?<![\w-])["']?(?:privileged|allowPrivilegeEscalation|hostNetwork|hostPID|hostIPC)["']?\s*:\s*true\b|^\s*(?:-\s+)?(?:network_mode|pid)\s*:\s*["']?host\b|\bdocker\s+(?:container\s+)?(?:run|create)\b[^|;&#\n]{0,300}?\s(?:--privileged\b|--(?:network|net|pid)[= ]host\b)/,
  }),
  // YAML is read parsed; JSON, shell scripts and Dockerfiles by the pattern above.
  syntax: { keywords: PRIVILEGED_KEYWORDS, languages: { yaml: { yaml: hostPowers } } },
};

export const noPipeToShell: LineRule = {
  ...patternRule({
    id: 'no-pipe-to-shell',
    severity: 'warning',
    summary:
      'A download piped straight into a shell (curl … | sh, bash <(curl …), bash -c "$(curl …)", eval "$(curl …)"): whatever the server sends that day runs, unchecked.',
    help: 'Download to a file, check its checksum or signature, then run it; or install from a package manager that verifies what it installs.',
    message:
      'A download is piped into a shell: it runs whatever the server (or anyone between) sends; download, verify a checksum or signature, then run it.',
    files: notTestCode(isShellContext),
    keywords: ['curl', 'wget', 'iwr', 'Invoke-WebRequest', 'irm'],
    in: 'text',
    pattern:
      /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;&#\n]{0,300}?\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:ba|z|k|da)?sh\b|\b(?:curl|wget)\b[^|;&#\n]{0,300}?\|\s*(?:sudo\s+)?(?:python3?|perl|ruby|node)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;&#\n]{0,300}?\|\s*iex\b|\b(?:(?:ba|z|k|da)?sh|source)\s+(?:-\S+\s+){0,5}<\(\s*(?:curl|wget)\b|(?<![\w.])\.\s+<\(\s*(?:curl|wget)\b|\b(?:ba|z|k|da)?sh\s+(?:-\S+\s+){0,5}-c\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b/,
    unless: /^\s*#/,
    continued: true,
  }),
  syntax: {
    // what one line cannot show: a download kept in a variable, run by eval, source or a shell later
    linesToo: true,
    keywords: ['curl', 'wget'],
    languages: {
      // the scripts of CI configuration (a workflow's run:), parsed by the bash grammar too
      yaml: { scripts: ciScripts },
      bash: {
        query: `(command
  name: (command_name) @name (#match? @name "^(eval|source|[.]|(/usr)?(/local)?(/bin/)?(ba|z|k|da)?sh)$")
  argument: (_) @value) @finding`,
        queryDanger: 'download',
      },
    },
  },
};

/** chmod 777 and its spellings: in shell, Dockerfiles and CI, and in code (os.chmod, fs.chmod, os.Chmod). */
export const noWorldWritable: LineRule = {
  kind: 'line',
  id: 'no-world-writable',
  severity: 'warning',
  summary: 'A file or folder made writable by everyone (chmod 777, a+w, 0o777).',
  help: 'Give the owner (and the group, where a service needs it) only what they need: 755 for folders and programs, 644 for files, 600 for secrets.',
  message:
    'Everyone may write here (chmod 777): any local user or process can change what runs or is read; give only the owner (and group) what they need.',
  files: notTestCode((path) => isShellContext(path) || isPython(path) || isJavaScript(path) || isGo(path)),
  keywords: ['chmod', 'Chmod', '777', '0o777', '0777'],
  reads: 'text',
  check(line) {
    if (isShellContext(line.path)) {
      const m = /\bchmod\s+(?:-[A-Za-z]+\s+)*(?:0?777|[augo]{0,4}a[augo]{0,4}\+[rwxX]{0,4}w|o\+[rwxX]{0,4}w)\b/.exec(
        line.text,
      );
      return m && !/^\s*#/.test(line.text) ? spanOf(m) : null;
    }
    const m =
      /\b(?:os\.chmod|fs\.chmod(?:Sync)?|fs\.promises\.chmod|chmod|os\.Chmod|os\.MkdirAll|os\.Mkdir|os\.WriteFile|os\.OpenFile)\s*\([^)]{0,200}?\b0o?777\b/.exec(
        line.text,
      );
    return m && isCodeAt(line, m.index) ? spanOf(m) : null;
  },
};
