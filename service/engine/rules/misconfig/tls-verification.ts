// TLS certificate verification turned off: every connection can then be intercepted. In tests
// it is routine (self-signed test servers): they are not read.
import {
  baseName,
  isGo,
  isJavaScript,
  isJvm,
  isPhp,
  isPython,
  isRuby,
  isRust,
  isShellContext,
  isYaml,
  notTestCode,
} from '../files.ts';
import type { YamlDocument, YamlFound } from '../../structure/yaml-tree.ts';
import { scalarEntries } from '../../structure/yaml-tree.ts';
import type { LineRule } from '../rule.ts';
import { isCodeAt, spanOf } from '../rule.ts';

/** npm's and Yarn 1's configuration files, where strict-ssl turns verification off for every download. */
const isPackageManagerConfig = (path: string): boolean => /^\.(?:npmrc|yarnrc)$/.test(baseName(path));

/** In code: each pattern with the languages it is read in. */
const CODE_PATTERNS: { files: (path: string) => boolean; pattern: RegExp }[] = [
  // An option (rejectUnauthorized: false) or an assignment (https.globalAgent.options.rejectUnauthorized = false).
  // …and node-libcurl's options (curl(url, { SSL_VERIFYPEER: 0 })).
  {
    files: isJavaScript,
    pattern:
      /\brejectUnauthorized\s*[:=]\s*false\b|\bstrictSSL\s*[:=]\s*false\b|\bSSL_VERIFY(?:PEER|HOST)\s*:\s*(?:0|false)\b/,
  },
  {
    files: isJavaScript,
    pattern:
      /\bprocess\.env\.NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["'`]?0\b|\bprocess\.env\[["']NODE_TLS_REJECT_UNAUTHORIZED["']\]\s*=\s*["'`]?0\b/,
  },
  {
    files: isPython,
    pattern:
      /\bverify\s*=\s*False\b|\bssl\._create_unverified_context\b|\bcheck_hostname\s*=\s*False\b|\bverify_mode\s*=\s*(?:ssl\.)?CERT_NONE\b|\bcert_reqs\s*=\s*(?:ssl\.)?CERT_NONE\b|\bcert_reqs\s*=\s*["'](?:CERT_)?NONE["']/,
  },
  // a field in a literal (tls.Config{InsecureSkipVerify: true}) or set later (conf.InsecureSkipVerify = true)
  { files: isGo, pattern: /\bInsecureSkipVerify\s*(?::|=)\s*true\b/ },
  { files: isPhp, pattern: /\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:,|=>)\s*(?:false|0)\b/i },
  {
    files: isRuby,
    pattern: /\bVERIFY_NONE\b|\bverify_ssl\s*(?::|=>)\s*false\b|\bssl_verify_mode\s*(?::|=>)\s*:none\b/,
  },
  {
    files: isRust,
    pattern:
      /\bdanger_accept_invalid_(?:certs|hostnames)\s*\(\s*true\s*\)|\bSslVerifyMode::NONE\b|\bSSL_VERIFY_NONE\b|\.dangerous\(\)\s*\.set_certificate_verifier\b|\bDangerousClientConfig\b|\bClientConfig::dangerous\(/,
  },
  // a package manager's configuration (.npmrc, .yarnrc): every package download unchecked
  { files: isPackageManagerConfig, pattern: /^\s*strict-ssl\s*=\s*false\b/ },
  {
    files: isJvm,
    pattern:
      /\bNoopHostnameVerifier\b|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\bsetHostnameVerifier\s*\(\s*\(\s*\w+\s*,\s*\w+\s*\)\s*->\s*true\b|\bhostnameVerifier\s*\{\s*\w+\s*,\s*\w+\s*->\s*true\s*\}|\bInsecureTrustManagerFactory\b|\btrustAll\w*|\bcheckServerTrusted\s*\([^)]{0,200}\)\s*(?:throws\s+[\w.]+(?:\s*,\s*[\w.]+){0,5}\s*)?\{\s*\}/,
  },
];

/**
 * In shell, Dockerfiles and CI scripts: curl -k, wget --no-check-certificate, kubectl's flag, the
 * environment switches. Bounded: one command's options, linear in the line.
 */
const SHELL_PATTERN =
  /\bcurl\b[^|;&#\n]{0,300}?\s(?:--insecure\b|-[a-zA-Z]{0,10}k[a-zA-Z]{0,10}\b)|\bwget\b[^|;&#\n]{0,300}?\s--no-check-certificate\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*["']?0\b|\bENV\s+NODE_TLS_REJECT_UNAUTHORIZED\s+["']?0\b|\bGIT_SSL_NO_VERIFY\s*[=:]\s*["']?(?:1|true)\b|\bhttp\.sslVerify\s+false\b|\bstrict-ssl\s+false\b|--insecure-skip-tls-verify(?:=true)?(?![\w=-])/;
/** The YAML settings below, written into a shell script (a heredoc); YAML files are read parsed. */
const YAML_LINE = /\binsecureSkipTLSVerify\s*:\s*["']?true\b|\binsecure-skip-tls-verify\s*:\s*["']?true\b/;

/**
 * YAML settings that turn verification off, by what the value must be: an APIService's or Argo
 * CD's insecureSkipTLSVerify, a kubeconfig's insecure-skip-tls-verify, Prometheus' and Traefik's
 * insecure_skip_verify / insecureSkipVerify, Ansible's validate_certs: no, conda's ssl_verify.
 */
const YAML_SWITCHES = new Map<string, RegExp>([
  ['insecureSkipTLSVerify', /^(?:true|yes)$/i],
  ['insecure-skip-tls-verify', /^(?:true|yes)$/i],
  ['insecure_skip_verify', /^(?:true|yes)$/i],
  ['insecureSkipVerify', /^(?:true|yes)$/i],
  ['validate_certs', /^(?:false|no)$/i],
  ['ssl_verify', /^(?:false|no)$/i],
  ['verify_ssl', /^(?:false|no)$/i],
]);

/** A switch above set to its unsafe value, in any map, block or flow; `{{ … }}` templates are not read. */
function tlsOffInYaml(documents: readonly YamlDocument[]): YamlFound[] {
  return scalarEntries(documents)
    .filter(({ key, value }) => YAML_SWITCHES.get(key)?.test(value.value))
    .map(({ document, keyRange, value }) => ({ document, start: keyRange[0], end: value.range[1] }));
}

export const noTlsVerifyOff: LineRule = {
  kind: 'line',
  id: 'no-tls-verify-off',
  severity: 'warning',
  summary:
    'TLS certificate verification turned off (rejectUnauthorized: false, verify=False, InsecureSkipVerify, curl -k, insecureSkipTLSVerify, a trust-all manager).',
  help: 'Keep verification on. For a private CA, give the client its certificate (ca:, verify="/path/ca.pem", RootCAs, a trust store, curl --cacert) instead of trusting everything.',
  message:
    "TLS certificate verification is turned off: anyone on the network path can read and change the traffic; trust the server's CA instead of every certificate.",
  files: notTestCode(
    (path) =>
      isJavaScript(path) ||
      isPython(path) ||
      isGo(path) ||
      isJvm(path) ||
      isPhp(path) ||
      isRuby(path) ||
      isRust(path) ||
      isShellContext(path) ||
      isPackageManagerConfig(path),
  ),
  keywords: [
    'rejectUnauthorized',
    'strictSSL',
    'NODE_TLS_REJECT_UNAUTHORIZED',
    'verify=False',
    'verify = False',
    '_create_unverified_context',
    'check_hostname',
    'CERT_NONE',
    'InsecureSkipVerify',
    'NoopHostnameVerifier',
    'ALLOW_ALL_HOSTNAME_VERIFIER',
    'setHostnameVerifier',
    'InsecureTrustManagerFactory',
    'trustAll',
    'hostnameVerifier',
    'checkServerTrusted',
    'insecureSkipTLSVerify',
    'insecure-skip-tls-verify',
    'curl',
    'wget',
    'GIT_SSL_NO_VERIFY',
    'sslVerify',
    'strict-ssl',
    'CURLOPT_SSL_VERIFY',
    'SSL_VERIFYPEER',
    'SSL_VERIFYHOST',
    'VERIFY_NONE',
    'verify_ssl',
    'ssl_verify_mode',
    'danger_accept_invalid',
    'SslVerifyMode',
    'SSL_VERIFY_NONE',
    'dangerous',
    'DangerousClientConfig',
    'cert_reqs',
  ],
  syntax: {
    // What lines cannot show: a trust manager or hostname verifier whose body checks nothing.
    // Not an empty checkClientTrusted: only a server that checks its clients' certificates asks it,
    // and a client's trust manager routinely leaves it empty.
    linesToo: true,
    keywords: ['checkServerTrusted', 'HostnameVerifier', 'verify(String', 'verify(final String', 'isTrusted('],
    languages: {
      yaml: { keywords: [...YAML_SWITCHES.keys()], yaml: tlsOffInYaml },
      java: {
        query: `
(method_declaration
  name: (identifier) @finding (#eq? @finding "checkServerTrusted")
  body: (block) @body (#match? @body "^[{]([ \\t\\r\\n]|//[^\\n]*|/[*]([^*]|[*][^/])*[*]/)*[}]$"))
(method_declaration
  name: (identifier) @finding (#match? @finding "^(verify|isTrusted)$")
  body: (block . (return_statement (true)) .))`,
        queryMessage:
          'This trust manager or hostname verifier accepts every certificate or host: TLS checks nothing; trust the CA that signed the server certificate instead.',
      },
    },
  },
  reads: 'text',
  check(line) {
    if (isShellContext(line.path)) {
      const m = SHELL_PATTERN.exec(line.text) ?? (isYaml(line.path) ? null : YAML_LINE.exec(line.text));
      // In a shell script a comment is not a command.
      return m && !/^\s*#/.test(line.text) ? spanOf(m) : null;
    }
    for (const { files, pattern } of CODE_PATTERNS) {
      if (!files(line.path)) continue;
      const m = pattern.exec(line.text);
      if (m && isCodeAt(line, m.index)) return spanOf(m);
    }
    return null;
  },
};
