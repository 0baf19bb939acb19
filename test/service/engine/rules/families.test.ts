// Every rule, firing and not firing: [rule id, file, added line, fires?].
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../service/engine/index.ts';
import { FAKE_GITHUB_TOKEN, rulesOn } from '../review-helpers.ts';
import type { Case } from './misconfig-cases.ts';
import { MISCONFIG_CASES } from './misconfig-cases.ts';

const CASES: Record<string, Case[]> = {
  ...MISCONFIG_CASES,
  secret: [
    ['src/config.js', `const token = "${FAKE_GITHUB_TOKEN}";`, true],
    ['deploy/settings.py', 'DATABASE_URL = "postgres://admin:s3cr3tPassw0rd@db.internal:5432/app"', true],
    ['src/config.js', 'const token = process.env.GITHUB_TOKEN;', false],
    ['README.md', 'Set the secret in your environment.', false],
  ],
  'no-conflict-marker': [
    ['src/a.ts', '<<<<<<< HEAD', true],
    ['src/a.ts', '>>>>>>> feature/x', true],
    ['src/a.ts', '// <<<<<<< not at line start', false],
    ['docs/title.md', '=======', false],
  ],
  'no-focused-test': [
    ['src/a.test.ts', "it.only('works', () => {});", true],
    ['src/a.test.ts', "describe.only('suite', () => {});", true],
    ['src/a.test.ts', "fit('works', () => {});", true],
    ['src/a.test.ts', "it('works', () => {}); // no .only here", false],
    ['src/a.test.ts', "const profit = (x) => x; profit('a');", false],
  ],
  'no-unexplained-skip': [
    ['tests/test_a.py', '@pytest.mark.skip', true],
    ['tests/test_a.py', '@pytest.mark.skip(reason="flaky on CI, see #12")', false],
    ['tests/test_a.py', '@pytest.mark.skipif(sys.version_info < (3, 8), reason="needs 3.8")', false],
    ['tests/test_a.py', '@pytest.mark.skipif(sys.platform == "win32")', true],
    ['src/a.test.ts', "it.skip('later', () => {});", true],
    ['src/a.test.ts', "it.skip('later', () => {}); // waits for #42", false],
  ],
  'no-debugger': [
    ['src/a.js', '  debugger;', true],
    ['src/a.js', '// the debugger stops here', false],
    ['src/a.js', 'const msg = "open the debugger";', false],
    ['src/a.js', 'const opts = { debugger: true };', false],
    ['lib/a.py', 'import pdb; pdb.set_trace()', true],
    ['lib/a.py', 'breakpoint()', true],
    ['lib/a.py', '# breakpoint() was here', false],
    ['app/models/user.rb', 'binding.pry', true],
    ['app/models/user.rb', 'binding.local_variable_get(:x)', false],
  ],
  'no-dbg-macro': [
    ['src/main.rs', 'let x = dbg!(a + b);', true],
    ['src/main.rs', 'println!("dbg!(x) is a macro");', false],
  ],
  'no-console-log': [
    ['src/server/routes.ts', 'console.log(user);', true],
    ['src/cli.ts', 'console.log(result);', false],
    ['scripts/release.js', 'console.log("done");', false],
    ['src/a.test.ts', 'console.log(x);', false],
    ['src/logger.ts', 'logger.log("x"); // not console.log()', false],
  ],
  'no-print': [
    ['mylib/core.py', 'print(value)', true],
    ['mylib/__main__.py', 'print(value)', false],
    ['scripts/migrate.py', 'print(value)', false],
    ['tests/test_core.py', 'print(value)', false],
    ['mylib/core.py', 'pprint(value)  # not print(', false],
  ],
  'no-blanket-eslint-disable': [
    ['src/a.ts', '// eslint-disable-next-line', true],
    ['src/a.ts', '/* eslint-disable */', true],
    ['src/a.ts', '// eslint-disable-next-line no-console -- CLI output', false],
  ],
  'no-ts-ignore': [
    ['src/a.ts', '// @ts-ignore', true],
    ['src/a.ts', '// @ts-expect-error: the library types are wrong', false],
    ['src/a.ts', 'const s = "@ts-ignore";', false],
  ],
  'no-blanket-type-ignore': [
    ['pkg/a.py', 'x = f()  # type: ignore', true],
    ['pkg/a.py', 'x = f()  # type: ignore[attr-defined]', false],
  ],
  'no-blanket-noqa': [
    ['pkg/a.py', 'import os  # noqa', true],
    ['pkg/a.py', 'import os  # noqa: F401', false],
  ],
  'no-eval': [
    ['src/a.js', 'const v = eval(input);', true],
    ['src/a.js', 'const f = new Function("a", body);', true],
    ['src/a.js', 'const v = evaluate(input); // eval( is bad', false],
  ],
  'no-shell-injection': [
    ['src/a.js', 'child_process.exec(`git log ${branch}`);', true],
    ['src/a.js', "execSync('rm -rf ' + dir);", true],
    ['src/a.js', "execFile('git', ['log', branch]);", false],
    ['src/a.js', "exec('ls -la');", false],
    ['tools/a.py', 'subprocess.run(cmd, shell=True)', true],
    ['tools/a.py', 'subprocess.run(["ls", path])', false],
  ],
  'no-inner-html': [
    ['src/a.js', 'el.innerHTML = html;', true],
    ['src/a.jsx', '<div dangerouslySetInnerHTML={{ __html: html }} />', true],
    ['src/a.js', 'if (el.innerHTML === "") {}', false],
    ['src/a.js', 'el.textContent = text;', false],
  ],
  'no-unsafe-yaml-load': [
    ['pkg/a.py', 'data = yaml.load(stream)', true],
    ['pkg/a.py', 'data = yaml.load(stream, Loader=yaml.SafeLoader)', false],
    ['pkg/a.py', 'data = yaml.safe_load(stream)', false],
    ['pkg/a.py', 'loader = YAML(typ="unsafe")', true],
    ['pkg/a.py', 'loader = YAML(typ="safe")', false],
  ],
  'no-pickle-loads': [
    ['pkg/a.py', 'obj = pickle.loads(body)', true],
    ['pkg/a.py', 'blob = pickle.dumps(obj)', false],
  ],
  'no-weak-hash': [
    ['src/auth.js', "const hash = crypto.createHash('md5').update(password).digest('hex');", true],
    ['pkg/auth.py', 'digest = hashlib.sha1(secret_key + payload).hexdigest()', true],
    ['src/cache.js', "const etag = crypto.createHash('md5').update(body).digest('hex');", false],
  ],
  'no-insecure-random': [
    ['src/session.js', 'const token = Math.random().toString(36).slice(2);', true],
    ['src/ids.ts', 'const requestId = Math.floor(Math.random() * 1e9);', true],
    ['src/anim.js', 'const jitter = Math.random() * 100;', false],
  ],
  'todo-without-issue': [
    ['src/a.ts', '// TODO: handle the empty case', true],
    ['src/a.ts', '// TODO(#123): handle the empty case', false],
    ['src/a.ts', '// FIXME PROJ-42 handle the empty case', false],
    ['src/a.ts', 'const label = "TODO list";', false],
  ],
  'no-env-file': [
    ['.env', 'API_KEY=abc', true],
    ['config/.env.production', 'API_KEY=abc', true],
    ['.env.example', 'API_KEY=', false],
  ],
  'no-private-key': [
    ['keys/id_rsa', '-----BEGIN RSA PRIVATE KEY-----', false],
    ['src/pem.ts', "if (pem.startsWith('-----BEGIN PRIVATE KEY-----')) {}", false],
    [
      'src/key.ts',
      `const key = "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";`,
      true,
    ],
  ],
  'generated-file': [
    ['vendor/lib/x.js', 'var x = 1;', true],
    ['web/app.min.js', 'var x=1;', true],
    ['src/api.ts', '// Code generated by protoc-gen-ts. DO NOT EDIT.', true],
    ['src/app.ts', 'export const x = 1;', false],
  ],
  'lockfile-without-manifest': [
    ['package-lock.json', '{', true],
    ['src/app.ts', 'export const x = 1;', false],
  ],
  'suppression-invalid-date': [
    ['src/a.js', 'debugger; // diff-review-ignore no-debugger (staging) until 2027-02-30', true],
    ['src/a.js', 'debugger; // diff-review-ignore no-debugger until 31/03/2027', true],
    ['app.py', 'x = 1  # diff-review-ignore until next-week', true],
    ['src/a.js', 'debugger; // diff-review-ignore no-debugger (staging) until 2027-02-28', false],
    ['src/a.js', 'debugger; // diff-review-ignore no-debugger (staging)', false],
    ['src/a.js', 'const note = "until 2027-02-30";', false],
    // a directive in a string (a test's data) is none
    ['src/a.test.js', "check('x; // diff-review-ignore no-debugger until 2027-02-30');", false],
    ['README.md', '<!-- diff-review-ignore secret until 2027-13-01 -->', true],
  ],
};

describe('rules fire and do not fire', () => {
  it('has cases for every rule', () => {
    // large-file needs thousands of lines; suppression-without-reason a setting (both in their own tests)
    const elsewhere = new Set(['review-truncated', 'large-file', 'suppression-without-reason']);
    const ruleIds = RULES.map((r) => r.id).filter((id) => !elsewhere.has(id));
    expect(Object.keys(CASES).sort()).toEqual(ruleIds.sort());
  });

  for (const [ruleId, cases] of Object.entries(CASES)) {
    describe(ruleId, () => {
      it.each(cases)(`%s: %s → fires %s`, async (path, line, fires) => {
        const ids = await rulesOn(path, line);
        expect(ids.includes(ruleId)).toBe(fires);
      });
    });
  }
});
