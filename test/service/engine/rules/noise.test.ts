// What ordinary good code looks like to each rule: the cases `node test/bench/noise.ts` found
// firing on this repository's history and on well-known packages, and the line that must still fire.
import { describe, expect, it } from 'vitest';
import { findings, rulesOn } from '../review-helpers.ts';

type Case = [path: string, lines: string[], rule: string, fires: boolean];

const FAKE_KEY = ['Zq3rT8vK2m', 'N9pX4wL7yB', '1cF6hJ0dS5', 'gA2eR8tY3u'].join('');

const CASES: Record<string, Case[]> = {
  'regular-expression literals are not code': [
    [
      'service/rules.ts',
      ['  { files: isJavaScript, pattern: /(?<![\\w$.])debugger\\b(?!\\s*[:=(.])/ },'],
      'no-debugger',
      false,
    ],
    [
      'test/host.test.ts',
      ['assert.match(diagnostic.message, /^Remove the debugger statement/);'],
      'no-debugger',
      false,
    ],
    ['src/a.js', ['const ratio = a / b; debugger;'], 'no-debugger', true],
    ['src/a.js', ['if (/x/.test(s)) eval(s);'], 'no-eval', true],
  ],
  'a TODO note opens its comment; a sentence that mentions TODO is not one': [
    ['src/lexer.ts', ['// (TODO, eslint-disable) do not fire on code.'], 'todo-without-issue', false],
    ['src/todo.ts', ['// TODO / FIXME notes added without an issue to track them.'], 'todo-without-issue', false],
    ['src/a.ts', ['x(); // TODO handle the empty case'], 'todo-without-issue', true],
    ['src/a.ts', [' * FIXME: the cache is never cleared'], 'todo-without-issue', true],
  ],
  'a weak hash is code or a string that names it, not prose': [
    ['src/rules.ts', ["  summary: 'MD5 or SHA-1 used for a password, token or signature.',"], 'no-weak-hash', false],
    [
      'test/rules.test.ts',
      [`  ['src/auth.js', "const hash = crypto.createHash('md5').update(password);", true],`],
      'no-weak-hash',
      false,
    ],
    ['src/auth.js', ["const hash = crypto.createHash('md5').update(password).digest('hex');"], 'no-weak-hash', true],
    ['src/sign.ts', ["const signature = createSign('RSA-SHA1').sign(key);"], 'no-weak-hash', true],
  ],
  'placeholder credentials in URLs are examples': [
    [
      'service/git/repository.ts',
      [' * lower-cased. So `git@github.com:acme/widgets.git`, `https://user:token@github.com/acme/widgets`'],
      'secret',
      false,
    ],
    [
      'test/url.test.ts',
      ["  ['https://x-access-token:ghs_abc@github.com/acme/widgets', 'github.com/acme/widgets'],"],
      'secret',
      false,
    ],
    [
      'src/mirror.ts',
      ['const remote = "https://deploybot:Qm7xT2vK9pLw@git.corp-intra.net/platform/api.git";'],
      'secret',
      true,
    ],
  ],
  'secrets that are test data in tests and fixtures': [
    ['test/extension/runner.test.ts', [`const AWS_LINE = 'aws_secret_access_key = "${FAKE_KEY}"';`], 'secret', false],
    ['test/fixtures/config.py', [`CONFIG = 'aws_secret_access_key = "${FAKE_KEY}"'`], 'secret', false],
    ['src/a.test.ts', [`const FAKE_GITHUB_TOKEN = "ghp_${FAKE_KEY.slice(0, 36)}";`], 'secret', false],
    // The same secret in code that runs, or assigned plainly in a test, is a leak.
    ['src/config.py', [`aws_secret_access_key = "${FAKE_KEY}"`], 'secret', true],
    ['test/deploy.test.ts', [`const token = "ghp_${FAKE_KEY.slice(0, 36)}";`], 'secret', true],
  ],
  'a run-time skip says why; a skipped declaration does not': [
    [
      'test/host.test.ts',
      ["it('passes', (context) => run([], (note) => context.skip(note)));"],
      'no-unexplained-skip',
      false,
    ],
    [
      'tests/e2e.spec.ts',
      ["test.skip(browserName === 'webkit', 'no WebGL on WebKit CI');"],
      'no-unexplained-skip',
      false,
    ],
    ['src/a.test.ts', ["describe.skip('suite', () => {});"], 'no-unexplained-skip', true],
  ],
  'console output in a log function is its job': [
    ['desktop/main/index.ts', ["  if (level === 'info') console.log(line);"], 'no-console-log', false],
    ['build/build-validation.js', ['console.log(`Saved ${file} file successfully`)'], 'no-console-log', false],
    ['src/server/routes.ts', ['console.log(request.body);'], 'no-console-log', true],
  ],
  'a JSDoc example is a comment, whatever its lines start with': [
    [
      'src/type-guards.js',
      [
        '/**',
        '@example',
        '```',
        'try {',
        '} catch (error) {',
        "    console.log('Ky error occurred:', error.message);",
        '}',
        '```',
        '*/',
      ],
      'no-console-log',
      false,
    ],
    ['src/a.js', ['/** Logs. */', 'function show(x) {', '  console.log(x);', '}'], 'no-console-log', true],
  ],
  'tests may silence a lint rule on one line, not on the whole file': [
    [
      'test/content-parser.test.js',
      ['const names = Object.getOwnPropertyNames({}.__proto__) // eslint-disable-line'],
      'no-blanket-eslint-disable',
      false,
    ],
    ['test/reply-error.test.js', ['/* eslint-disable */'], 'no-blanket-eslint-disable', true],
    ['src/reply.js', ['foo() // eslint-disable-line'], 'no-blanket-eslint-disable', true],
  ],
  'fixtures are data: code rules do not read them; conflict markers still count': [
    ['test/fixtures/app.js', ['debugger;'], 'no-debugger', false],
    ['test/extension/host/fixture.mjs', ["it.only('x', () => {});"], 'no-focused-test', false],
    ['test/fixtures/app.js', ['<<<<<<< HEAD'], 'no-conflict-marker', true],
  ],
  'a focused test in a test file still fires': [
    ['test/service/api.test.ts', ["  it.only('creates a review', async () => {"], 'no-focused-test', true],
    ['src/__tests__/a.spec.js', ["fdescribe('suite', () => {});"], 'no-focused-test', true],
  ],
  'file rules': [
    ['package-lock.json', Array.from({ length: 2100 }, (_, i) => `    "dep-${i}": "1.0.0",`), 'large-file', false],
    ['build/sync-version.js', ["'use strict'"], 'generated-file', false],
    ['dist/index.js', ["'use strict'"], 'generated-file', true],
  ],
};

describe('rules on ordinary good code', () => {
  for (const [name, cases] of Object.entries(CASES)) {
    describe(name, () => {
      it.each(
        cases.map(
          ([path, lines, rule, fires]) =>
            [
              `${path}: ${lines.at(-1)!.trim().slice(0, 60)} → ${rule} ${fires ? 'fires' : 'quiet'}`,
              path,
              lines,
              rule,
              fires,
            ] as const,
        ),
      )('%s', async (_name, path, lines, rule, fires) => {
        const ids =
          lines.length === 1 ? await rulesOn(path, lines[0]!) : (await findings(path, lines)).map((f) => f.rule_id);
        expect(ids.includes(rule)).toBe(fires);
      });
    });
  }
});
