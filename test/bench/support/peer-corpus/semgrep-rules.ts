// semgrep/semgrep-rules: each rule `dir/name.yaml` has test files beside it (`dir/name.<ext>`,
// `dir/name.test.yaml`) whose annotation comments label lines for the rule ids the yaml defines.
// Mapped: the rules whose cases are what one of ours claims to find, in any language (the issue's
// structural stage is to cover them); not mapped: rules about a wider or another claim (any use of
// MD5, any math/rand, permissions wider than 0600, CORS "*" without credentials, subprocess with an
// argument list, library sandboxes and template engines).
import { annotationsOf, statementSpan } from './annotations.ts';
import type { MaterialFile, OurRule, PeerCase, PeerMaterial, PeerProject } from './material.ts';
import { diffPathOf, filesUnder, hasPaths, neutralName, readLines, workflowName } from './material.ts';

/** Our rule → the semgrep rules mapped to it, as `folder/rule-id`. */
const MAPPED: Partial<Record<OurRule, readonly string[]>> = {
  'no-sql-string-building': [
    'python/lang/security/audit/formatted-sql-query',
    'python/lang/security/audit/sqli/aiopg-sqli',
    'python/lang/security/audit/sqli/asyncpg-sqli',
    'python/lang/security/audit/sqli/pg8000-sqli',
    'python/lang/security/audit/sqli/psycopg-sqli',
    'python/sqlalchemy/security/sqlalchemy-execute-raw-query',
    'python/flask/security/injection/tainted-sql-string',
    'python/django/security/injection/tainted-sql-string',
    'python/aws-lambda/security/tainted-sql-string',
    'javascript/lang/security/audit/sqli/node-mssql-sqli',
    'javascript/lang/security/audit/sqli/node-postgres-sqli',
    'javascript/express/security/injection/tainted-sql-string',
    'javascript/aws-lambda/security/tainted-sql-string',
    'javascript/sequelize/security/audit/sequelize-raw-query',
    'go/lang/security/audit/database/string-formatted-query',
    'go/lang/security/audit/sqli/gosql-sqli',
    'go/lang/security/audit/sqli/pg-orm-sqli',
    'go/lang/security/audit/sqli/pg-sqli',
    'go/lang/security/audit/sqli/pgx-sqli',
    'go/lang/security/injection/tainted-sql-string',
    'go/aws-lambda/security/tainted-sql-string',
    'java/lang/security/audit/formatted-sql-string',
    'java/lang/security/audit/jdbc-sql-formatted-string',
    'java/lang/security/audit/sqli/hibernate-sqli',
    'java/lang/security/audit/sqli/jdbc-sqli',
    'java/lang/security/audit/sqli/jdo-sqli',
    'java/lang/security/audit/sqli/jpa-sqli',
    'java/lang/security/audit/sqli/turbine-sqli',
    'java/lang/security/audit/sqli/vertx-sqli',
    'java/spring/security/injection/tainted-sql-string',
    'java/jboss/security/find-sql-string-concatenation',
    'java/aws-lambda/security/tainted-sql-string',
    'ruby/rails/security/audit/sqli/ruby-pg-sqli',
    'ruby/rails/security/injection/tainted-sql-string',
    'ruby/rails/security/brakeman/check-sql',
    'ruby/aws-lambda/security/tainted-sql-string',
    'php/lang/security/injection/tainted-sql-string',
    'csharp/lang/security/sqli/csharp-sqli',
    'scala/lang/security/audit/tainted-sql-string',
    'scala/play/security/tainted-sql-from-http-request',
  ],
  'no-eval': [
    'python/lang/security/audit/eval-detected',
    'python/lang/security/audit/exec-detected',
    'python/flask/security/injection/eval-injection',
    'python/flask/security/injection/exec-injection',
    'python/django/security/injection/code/user-eval',
    'python/django/security/injection/code/user-eval-format-string',
    'python/django/security/injection/code/user-exec',
    'python/django/security/injection/code/user-exec-format-string',
    'python/aws-lambda/security/tainted-code-exec',
    'javascript/browser/security/eval-detected',
    'javascript/lang/security/detect-eval-with-expression',
    'javascript/lang/security/audit/code-string-concat',
    'javascript/aws-lambda/security/tainted-eval',
    'javascript/aws-lambda/security/vm-runincontext-injection',
    'javascript/express/security/express-vm-injection',
    'html/security/audit/eval-detected',
    'php/lang/security/eval-use',
    'ruby/lang/security/ruby-eval',
    'scala/lang/security/audit/scalajs-eval',
  ],
  'no-shell-injection': [
    'python/lang/security/audit/subprocess-shell-true',
    'python/lang/security/dangerous-system-call',
    'python/lang/security/audit/dangerous-system-call-audit',
    'python/lang/security/audit/dangerous-system-call-tainted-env-args',
    'python/lang/security/audit/dangerous-asyncio-shell-audit',
    'python/lang/security/audit/dangerous-asyncio-shell-tainted-env-args',
    'python/flask/security/injection/os-system-injection',
    'python/django/security/injection/command/command-injection-os-system',
    'python/aws-lambda/security/dangerous-system-call',
    'python/aws-lambda/security/dangerous-asyncio-shell',
    'javascript/lang/security/audit/spawn-shell-true',
    'javascript/lang/security/audit/dangerous-spawn-shell',
    'javascript/shelljs/security/shelljs-exec-injection',
    'java/lang/security/audit/command-injection-formatted-runtime-call',
    'kotlin/lang/security/command-injection-formatted-runtime-call',
    'php/lang/security/exec-use',
    'php/lang/security/tainted-exec',
    'php/lang/security/injection/tainted-exec',
    'ruby/lang/security/dangerous-subshell',
  ],
  'no-pickle-loads': [
    'python/lang/security/deserialization/avoid-pickle',
    'python/lang/security/deserialization/avoid-cPickle',
    'python/lang/security/deserialization/avoid-dill',
    'python/lang/security/deserialization/avoid-shelve',
    'python/lang/security/audit/marshal-usage',
    'python/django/security/audit/avoid-insecure-deserialization',
    'python/flask/security/insecure-deserialization',
    'python/aws-lambda/security/tainted-pickle-deserialization',
    'ruby/lang/security/bad-deserialization',
    'ruby/lang/security/bad-deserialization-env',
    'ruby/aws-lambda/security/tainted-deserialization',
    'php/lang/security/unserialize-use',
    'csharp/lang/security/insecure-deserialization/insecure-binaryformatter-deserialization',
    'csharp/lang/security/insecure-deserialization/insecure-soapformatter-deserialization',
    'csharp/lang/security/insecure-deserialization/insecure-losformatter-deserialization',
    'csharp/lang/security/insecure-deserialization/insecure-netdatacontract-deserialization',
    'java/lang/security/audit/object-deserialization',
  ],
  'no-unsafe-yaml-load': [
    'python/lang/security/deserialization/avoid-pyyaml-load',
    'python/lang/security/deserialization/avoid-unsafe-ruamel',
  ],
  'no-tls-verify-off': [
    'python/requests/security/disabled-cert-validation',
    'python/lang/security/audit/network/disabled-cert-validation',
    'python/lang/security/unverified-ssl-context',
    'problem-based-packs/insecure-transport/js-node/bypass-tls-verification',
    'javascript/sequelize/security/audit/sequelize-tls-disabled-cert-validation',
    'problem-based-packs/insecure-transport/go-stdlib/bypass-tls-verification',
    'problem-based-packs/insecure-transport/java-stdlib/bypass-tls-verification',
    'problem-based-packs/insecure-transport/java-spring/bypass-tls-verification',
    'java/lang/security/audit/crypto/ssl/insecure-hostname-verifier',
    'java/lang/security/audit/crypto/ssl/insecure-trust-manager',
    'java/lang/security/audit/insecure-smtp-connection',
    'php/lang/security/curl-ssl-verifypeer-off',
    'ruby/lang/security/ssl-mode-no-verify',
    'rust/lang/security/reqwest-accept-invalid',
    'rust/lang/security/rustls-dangerous',
    'rust/lang/security/ssl-verify-none',
    'yaml/kubernetes/security/skip-tls-verify-cluster',
    'yaml/kubernetes/security/skip-tls-verify-service',
  ],
  'no-jwt-verify-off': [
    'python/jwt/security/jwt-python-none-alg',
    'python/jwt/security/unverified-jwt-decode',
    'javascript/jsonwebtoken/security/jwt-none-alg',
    'javascript/jsonwebtoken/security/audit/jwt-decode-without-verify',
    'javascript/jose/security/jwt-none-alg',
    'javascript/jwt-simple/security/jwt-simple-noverify',
    'go/jwt-go/security/jwt-go-none-algorithm',
    'go/jwt-go/security/audit/jwt-go-parse-unverified',
    'java/java-jwt/security/java-jwt-none-alg',
    'java/java-jwt/security/audit/java-jwt-decode-without-verify',
    'java/jjwt/security/jjwt-none-alg',
    'ruby/jwt/security/ruby-jwt-none-alg',
    'ruby/jwt/security/audit/ruby-jwt-decode-without-verify',
    'csharp/lang/security/cryptography/unsigned-security-token',
  ],
  'no-pipe-to-shell': [
    'bash/curl/security/curl-pipe-bash',
    'bash/curl/security/curl-eval',
    'yaml/github-actions/security/curl-eval',
  ],
  'no-actions-script-injection': [
    'yaml/github-actions/security/run-shell-injection',
    'yaml/github-actions/security/github-script-injection',
  ],
  'no-pull-request-target-checkout': ['yaml/github-actions/security/pull-request-target-code-checkout'],
  'no-weak-hash': [
    'python/lang/security/audit/md5-used-as-password',
    'javascript/lang/security/audit/md5-used-as-password',
    'go/lang/security/audit/md5-used-as-password',
    'java/lang/security/audit/md5-used-as-password',
    'php/lang/security/md5-used-as-password',
    'ruby/lang/security/md5-used-as-password',
  ],
  'no-insecure-random': ['csharp/dotnet/security/use_weak_rng_for_keygeneration'],
  'no-inner-html': [
    'javascript/browser/security/insecure-document-method',
    'javascript/browser/security/insecure-innerhtml',
    'typescript/react/security/audit/react-dangerouslysetinnerhtml',
    'html/security/audit/insecure-document-method',
  ],
  'no-debug-in-production': [
    'python/flask/security/audit/debug-enabled',
    'yaml/kubernetes/security/env/flask-debugging-enabled',
    'php/laravel/security/laravel-active-debug-code',
    'csharp/dotnet/security/net-webconfig-debug',
  ],
  'no-privileged-container': [
    'yaml/kubernetes/security/privileged-container',
    'yaml/kubernetes/security/hostnetwork-pod',
    'yaml/kubernetes/security/hostpid-pod',
    'yaml/kubernetes/security/hostipc-pod',
    'yaml/kubernetes/security/allow-privilege-escalation-true',
    'yaml/docker-compose/security/privileged-service',
  ],
};

/** Serialising (`pickle.dumps`) on a line that loads nothing: these rules flag any use, ours the loading. */
const DUMPS_ONLY = /^(?!.*load).*\.dumps?\(/;

/** Cases of a mapped rule about something our rule does not claim, by their labelled line. */
const NOT_OURS: Record<string, RegExp> = {
  // Runtime.loadLibrary loads a library: not a command.
  'java/lang/security/audit/command-injection-formatted-runtime-call': /loadLibrary/,
  'kotlin/lang/security/command-injection-formatted-runtime-call': /loadLibrary/,
  'python/lang/security/deserialization/avoid-pickle': DUMPS_ONLY,
  'python/lang/security/deserialization/avoid-cPickle': DUMPS_ONLY,
  'python/lang/security/deserialization/avoid-dill': DUMPS_ONLY,
  'python/lang/security/audit/marshal-usage': DUMPS_ONLY,
  'python/flask/security/insecure-deserialization': DUMPS_ONLY,
};

const SECRET_FOLDERS = ['generic/secrets/gitleaks', 'generic/secrets/security'];
/** Identifiers, public keys, hashes and account numbers: not credentials, which is what `secret` claims. */
const NOT_A_SECRET = /client-id|access-id|api-id|-id$|pub-key|public-key|account-id|bcrypt|etc-shadow|oauth-url/;

/** Our rule for a semgrep rule id in a folder, if mapped. */
function ourRuleFor(folder: string, id: string): OurRule | undefined {
  const key = `${folder}/${id}`;
  for (const [rule, keys] of Object.entries(MAPPED)) if (keys.includes(key)) return rule as OurRule;
  if (SECRET_FOLDERS.includes(folder) && !NOT_A_SECRET.test(id))
    return /private-key/.test(id) ? 'no-private-key' : 'secret';
  return undefined;
}

/** A test file beside a rule (not the rule, not an autofix's expected output). */
const isTestFile = (path: string): boolean =>
  !path.includes('.fixed.') && (!/\.ya?ml$/.test(path) || /\.test\.ya?ml$/.test(path));

function diffNameOf(path: string): string {
  const name = neutralName(path.slice(path.lastIndexOf('/') + 1));
  return path.startsWith('yaml/github-actions/') ? workflowName(name) : name;
}

function read(dir: string, window: number): PeerMaterial {
  const files: MaterialFile[] = [];
  const cases: PeerCase[] = [];
  const folders = new Set([...Object.values(MAPPED).flat().map(folderOf), ...SECRET_FOLDERS]);
  for (const path of filesUnder(dir)) {
    const folder = folderOf(path);
    if (!folders.has(folder) || !isTestFile(path)) continue;
    const lines = readLines(`${dir}/${path}`);
    const { annotations, commentLines } = annotationsOf(lines);
    const mapped = annotations.flatMap((a) => a.ids.map((id) => ({ ...a, rule: ourRuleFor(folder, id), id })));
    if (!mapped.some((a) => a.rule)) continue;
    const file: MaterialFile = {
      source: path,
      sourceLineOffset: 0,
      diffPath: diffPathOf('semgrep-rules', files.length, diffNameOf(path)),
      lines,
    };
    files.push(file);
    for (const a of mapped) {
      if (!a.rule || NOT_OURS[`${folder}/${a.id}`]?.test(lines[a.target - 1]!)) continue;
      const span = statementSpan(file, a.target, window, commentLines);
      cases.push({ rule: a.rule, peerRule: a.id, kind: a.kind, spans: [span] });
    }
  }
  return { project: 'semgrep-rules', files, cases };
}

const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));

export const semgrepRules: PeerProject = {
  name: 'semgrep-rules',
  recognise: (dir) => hasPaths(dir, 'python/lang/security', 'javascript/lang/security', 'yaml/github-actions'),
  read,
};
