// Suppressions users can govern (issue 26): reasons and an end for diff-review-ignore, other tools'
// markers honoured, suppressed findings kept apart (never gone), and one comment per problem.
import { describe, expect, it } from 'vitest';
import type { EngineConfig, ReviewResult } from '../../../service/engine/index.ts';
import { parseDirective } from '../../../service/engine/suppression.ts';
import { modifiedFileDiff, newFileDiff, reviewDiff } from './review-helpers.ts';

const TOKEN = ['ghp', 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u'].join('_');
const review = (path: string, lines: string[], config?: EngineConfig): Promise<ReviewResult> =>
  reviewDiff(newFileDiff(path, lines), config);
const ids = (result: ReviewResult) => result.findings.map((f) => f.rule_id);
const suppressedBy = (result: ReviewResult) => result.suppressed.map((f) => [f.rule_id, f.suppressed.by]);

describe('the diff-review-ignore directive', () => {
  it('a reason may hold parentheses of its own', () => {
    expect(parseDirective('// diff-review-ignore no-eval (see f(x) in the spec) until 2027-03-31')).toEqual({
      rules: ['no-eval'],
      reason: 'see f(x) in the spec',
      until: '2027-03-31',
    });
  });

  it('reads rule ids, a reason in parentheses and an end', () => {
    expect(parseDirective('x; // diff-review-ignore no-debugger, secret (staging only) until 2027-03-31')).toEqual({
      rules: ['no-debugger', 'secret'],
      reason: 'staging only',
      until: '2027-03-31',
    });
    expect(parseDirective('# diff-review-ignore until 2027-03-31')).toEqual({ rules: [], until: '2027-03-31' });
    expect(parseDirective('/* diff-review-ignore no-debugger until 2027-03-31 */')).toEqual({
      rules: ['no-debugger'],
      until: '2027-03-31',
    });
    expect(parseDirective('// diff-review-ignore no-debugger ( )')).toEqual({ rules: ['no-debugger'] }); // blank is none
    expect(parseDirective('// diff-review-ignore no-debugger until 2027-02-29')).toEqual({
      rules: ['no-debugger'],
      invalidUntil: '2027-02-29', // 2027 is not a leap year
    });
    expect(parseDirective('const s = "diff-review-ignore";')).toBeNull();
    // the end stops before what closes a string or a list around it
    expect(parseDirective("['x; // diff-review-ignore no-debugger until 2027-02-28'],")).toEqual({
      rules: ['no-debugger'],
      until: '2027-02-28',
    });
  });

  it('keeps what it suppressed, with its reason, apart from the findings', async () => {
    const result = await review('src/a.js', [
      'debugger; // diff-review-ignore no-debugger (stepping through on staging)',
    ]);
    expect(result.findings).toEqual([]);
    expect(result.suppressed).toEqual([
      expect.objectContaining({
        rule_id: 'no-debugger',
        line: 1,
        suppressed: { by: 'diff-review-ignore', reason: 'stepping through on staging' },
        fingerprint: expect.any(String),
      }),
    ]);
  });

  describe('until: the last day it holds', () => {
    const line = 'debugger; // diff-review-ignore no-debugger (staging) until 2027-03-31';
    it.each([
      ['the day before', '2027-03-30', true],
      ['that day', '2027-03-31', true],
      ['the day after', '2027-04-01', false],
    ])('%s (%s): suppressed %s', async (_when, today, holds) => {
      const result = await review('src/a.js', [line], { today });
      expect(ids(result)).toEqual(holds ? [] : ['no-debugger']);
      if (!holds) expect(result.findings[0]!.message).toMatch(/\(its diff-review-ignore expired on 2027-03-31\)$/);
    });

    it('an end that is not a date is a finding of its own, on its line, that nothing suppresses', async () => {
      const result = await review('src/a.js', [
        'ok();',
        'debugger; // diff-review-ignore no-debugger, suppression-invalid-date (staging) until 2027-02-30',
      ]);
      expect(result.findings.map((f) => [f.rule_id, f.line])).toEqual([['suppression-invalid-date', 2]]);
      expect(result.findings[0]!.message).toContain('"until 2027-02-30", which is not a date');
      expect(suppressedBy(result)).toEqual([['no-debugger', 'diff-review-ignore']]);
    });
  });

  it('in documentation only an HTML comment holds one: a code block or a table there shows an example', async () => {
    const example = '| 1 | debugger; // diff-review-ignore no-debugger (staging) until 2027-02-30 |';
    expect(ids(await review('docs/rules/example.md', ['```js', example, '```', example]))).toEqual([]);
    const result = await review('docs/keys.md', ['Sample: x <!-- diff-review-ignore secret until 2027-02-30 -->']);
    expect(result.findings.map((f) => [f.rule_id, f.line])).toEqual([['suppression-invalid-date', 1]]);
  });

  describe('reasons required (suppressions: { require_reason: true })', () => {
    const required: EngineConfig = { suppressions: { requireReason: true } };
    it('a directive without one is a finding of its own, naming its line', async () => {
      const result = await review('src/a.js', ['ok();', 'debugger; // diff-review-ignore no-debugger'], required);
      expect(result.findings.map((f) => [f.rule_id, f.line, f.start_column])).toEqual([
        ['suppression-without-reason', 2, 14],
      ]);
      // the directive still suppresses: the finding asks for its reason
      expect(suppressedBy(result)).toEqual([['no-debugger', 'diff-review-ignore']]);
    });

    it('one with a reason is fine; without the setting, none is asked for', async () => {
      expect(ids(await review('src/a.js', ['debugger; // diff-review-ignore no-debugger (why)'], required))).toEqual(
        [],
      );
      expect(ids(await review('src/a.js', ['debugger; // diff-review-ignore no-debugger']))).toEqual([]);
    });

    it('cannot itself be suppressed', async () => {
      const result = await review(
        'src/a.js',
        ['debugger; // diff-review-ignore no-debugger, suppression-without-reason'],
        required,
      );
      expect(ids(result)).toEqual(['suppression-without-reason']);
    });
  });
});

describe("other tools' markers, on the finding's own line", () => {
  const secretLine = (marker: string) => `const token = "${TOKEN}"; ${marker}`;
  it.each([
    ['gitleaks:allow', '// gitleaks:allow'],
    ['trufflehog:ignore', '// trufflehog:ignore'],
    ['nosec', '// #nosec G101'],
    ['nosec', '/* nosec */'],
    ['nosemgrep', '// nosemgrep: generic.secrets.security.detected-github-token'],
    ['nosemgrep', '// nosemgrep'],
    ['NOSONAR', '// NOSONAR'],
  ])('%s (%s) suppresses a secret finding', async (by, marker) => {
    const result = await review('src/release.js', [secretLine(marker)]);
    expect(ids(result)).toEqual([]);
    expect(suppressedBy(result)).toEqual([['secret', by]]);
  });

  it.each([
    ['nosec', 'requests.get(url, verify=False)  # nosec B501', 'app/fetch.py', 'no-tls-verify-off'],
    [
      'nosemgrep',
      'requests.get(url, verify=False)  # nosemgrep: python.requests.no-verify',
      'app/fetch.py',
      'no-tls-verify-off',
    ],
    ['NOSONAR', 'eval(code); // NOSONAR', 'src/run.js', 'no-eval'],
  ])('%s suppresses a security finding', async (by, line, path, rule) => {
    const result = await review(path, [line]);
    expect(ids(result)).not.toContain(rule);
    expect(suppressedBy(result)).toContainEqual([rule, by]);
  });

  it.each([
    ['gitleaks:allow', 'eval(code); // gitleaks:allow', 'src/run.js', 'no-eval'], // secrets only
    ['nosec', 'debugger; // #nosec', 'src/a.js', 'no-debugger'], // security only
    ['nosemgrep with a rule id', 'debugger; // nosemgrep: javascript.debugger', 'src/a.js', 'no-debugger'],
    ['a marker on the line above', '// NOSONAR', 'src/a.js', 'no-debugger'],
    ['trufflehog:ignore', 'eval(code); // trufflehog:ignore', 'src/run.js', 'no-eval'], // secrets only
    // in code, not in a comment: a string that holds one is data, a name that spells one is a name
    ['a directive in a string', 'const s = "// diff-review-ignore no-eval"; eval(code);', 'src/run.js', 'no-eval'],
    ['a marker in a name', 'const nosec = 1; eval(code);', 'src/run.js', 'no-eval'],
    ['a marker in a string', 'log("NOSONAR"); debugger;', 'src/a.js', 'no-debugger'],
  ])('%s leaves what it does not cover', async (_what, line, path, rule) => {
    const lines = line.startsWith('// NOSONAR') ? [line, 'debugger;'] : [line];
    expect(ids(await review(path, lines))).toContain(rule);
  });

  it.each([
    ['NOSONAR', 'debugger; // NOSONAR'],
    ['nosemgrep', 'debugger; // nosemgrep'],
  ])('%s alone suppresses any finding', async (by, line) => {
    const result = await review('src/a.js', [line]);
    expect(ids(result)).toEqual([]);
    expect(suppressedBy(result)).toEqual([['no-debugger', by]]);
  });

  it("bandit's # nosec in Python", async () => {
    const result = await review('app/release.py', [`token = "${TOKEN}"  # nosec`]);
    expect(suppressedBy(result)).toEqual([['secret', 'nosec']]);
  });

  it('in documentation a marker after an example counts anywhere on its line', async () => {
    const result = await review('docs/keys.md', [
      '```',
      '-----BEGIN RSA PRIVATE KEY-----  # gitleaks:allow',
      'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB',
      '-----END RSA PRIVATE KEY-----',
      '```',
    ]);
    expect(ids(result)).toEqual([]);
    expect(suppressedBy(result)).toEqual([['no-private-key', 'gitleaks:allow']]);
  });

  it('suppressions: { other_tools: false } turns them off', async () => {
    const result = await review('src/release.js', [secretLine('// gitleaks:allow')], {
      suppressions: { otherTools: false },
    });
    expect(ids(result)).toEqual(['secret']);
    expect(result.suppressed).toEqual([]);
  });
});

describe('one comment per problem', () => {
  it.each([
    ['generated-file', 'src/api_pb2.py'],
    ['generated-file', 'dist/app.js'],
    ['lockfile-without-manifest', 'package-lock.json'],
  ])('%s (%s): once, on the first added line of the file', async (rule, path) => {
    const result = await reviewDiff(
      modifiedFileDiff(
        path,
        ['{', '  "name": "app",'],
        Array.from({ length: 12 }, (_, i) => `  "x${i}": ${i},`),
      ),
    );
    expect(result.findings.filter((f) => f.rule_id === rule).map((f) => f.line)).toEqual([3]);
  });

  it('a committed .env file: once, on its first line with a value, saying how many there are', async () => {
    const lines = Array.from({ length: 9 }, (_, i) => `KEY_${i}=value-${i}`);
    const result = await review('.env.production', lines);
    const envFile = result.findings.filter((f) => f.rule_id === 'no-env-file');
    expect(envFile.map((f) => f.line)).toEqual([1]);
    expect(envFile[0]!.message).toMatch(/9 lines of this file hold values\.$/);
  });

  it('a suppressed first line: the first one not suppressed carries it', async () => {
    // (a directive covers its own line and the one below)
    const result = await review('.env', [
      'A=1 # diff-review-ignore no-env-file (a local default)',
      'B=2',
      'C=3',
      'D=4',
    ]);
    expect(result.findings.filter((f) => f.rule_id === 'no-env-file').map((f) => [f.line, f.message])).toEqual([
      [3, expect.stringMatching(/2 lines of this file hold values\.$/)],
    ]);
    expect(suppressedBy(result)).toEqual([
      ['no-env-file', 'diff-review-ignore'],
      ['no-env-file', 'diff-review-ignore'],
    ]);
  });
});
