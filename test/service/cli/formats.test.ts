// Every --format of `diff-review review`, parsed as the tool that reads it would: SARIF against the
// official schema, XML by xmllint, JSON lines one by one. The built CLI on a real repository.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGithub } from '../../../service/cli/formats/github.ts';
import type { ReviewReport } from '../../../service/cli/review-report.ts';
import { buildCli, FAKE_GITHUB_TOKEN, makeRepo, runCli, type TestRepo } from './review-cli.ts';
import { sarifSchemaErrors } from './sarif-schema.ts';

/** The parts of a SARIF result these tests read. */
interface SarifResult {
  ruleId: string;
  locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
  partialFingerprints: { primaryLocationLineHash: string };
}

let repo: TestRepo;
// Findings of three severities in two files; a multi-byte character before a column; a secret.
const APP = ['const café = 1; debugger;', `const token = "${FAKE_GITHUB_TOKEN}";`, '// TODO later'];
const WEIRD_PATH = 'src/a,b:c%d.js';

beforeAll(() => {
  buildCli();
  repo = makeRepo({ 'README.md': '# app\n' });
  repo.write('src/app.js', `${APP.join('\n')}\n`);
  repo.write(WEIRD_PATH, '\tdebugger;\n');
  repo.commit('work');
}, 60_000);
afterAll(() => repo.cleanup());

const review = (format: string, env: Record<string, string> = {}) =>
  runCli(['review', '--format', format, '--fail-on', 'none'], { cwd: repo.dir, env });
const xpath = (xml: string, expression: string) =>
  execFileSync('xmllint', ['--xpath', expression, '-'], { input: xml, encoding: 'utf8' }).trim();

describe('diff-review review --format', () => {
  it('no format prints the secret, on stdout or stderr', async () => {
    for (const format of ['text', 'json', 'sarif', 'github', 'rdjsonl', 'gitlab', 'checkstyle', 'junit']) {
      const run = await review(format);
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    }
  });

  it('text: grouped by file, path:line:col, severity, rule, message, a code frame, a summary; no colour off a TTY', async () => {
    const { stdout } = await review('text');
    expect(stdout).not.toContain('\x1b[');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('src/a,b:c%d.js');
    expect(lines[1]).toMatch(/^ {2}src\/a,b:c%d\.js:1:2 {2}warning {2}no-debugger {2}Remove the debugger statement/);
    expect(lines[2]).toBe('     1 | \tdebugger;');
    expect(lines[3]).toBe('       | \t^^^^^^^^'); // the tab stays a tab, so the carets line up
    expect(stdout).toContain('  src/app.js:1:17  warning  no-debugger');
    expect(stdout).toContain('     1 | const café = 1; debugger;');
    expect(stdout).toMatch(
      /src\/app\.js:2:\d+ {2}error {2}secret {2}.*\n {5}2 \| \(line not shown: it holds a secret\)\n/,
    );
    expect(stdout).toMatch(/src\/app\.js:3:4 {2}info {2}todo-without-issue/);
    expect(lines.at(-2)).toMatch(/^4 findings: 1 error, 2 warnings, 1 info \(2 files, 4 added lines, \d+ ms\)\.$/);
  });

  it('text: FORCE_COLOR colours it, NO_COLOR does not, FORCE_COLOR=0 does not', async () => {
    expect((await review('text', { FORCE_COLOR: '1' })).stdout).toContain('\x1b[31merror\x1b[39m');
    expect((await review('text', { NO_COLOR: '1' })).stdout).not.toContain('\x1b[');
    expect((await review('text', { FORCE_COLOR: '0' })).stdout).not.toContain('\x1b[');
  });

  it("sarif: valid against the SARIF 2.1.0 schema, with rules, help, columns and GitHub's primaryLocationLineHash", async () => {
    const log = JSON.parse((await review('sarif')).stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    const run = log.runs[0];
    expect(run.tool.driver.rules.find((r: { id: string }) => r.id === 'no-debugger').help.text).toMatch(/\w/);
    const debuggerResult = run.results.find(
      (r: SarifResult) =>
        r.locations[0]!.physicalLocation.artifactLocation.uri === 'src/app.js' && r.ruleId === 'no-debugger',
    );
    expect(debuggerResult.locations[0].physicalLocation.region).toEqual({
      startLine: 1,
      startColumn: 17,
      endColumn: 25,
    });
    for (const result of run.results)
      expect(result.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(run.results.map((r: SarifResult) => r.partialFingerprints.primaryLocationLineHash)).size).toBe(
      run.results.length,
    );
    expect(sarifSchemaErrors({ version: '2.1.0', runs: [{ tool: {} }] })).not.toEqual([]); // the schema bites
  });

  it("json: the API's comment shape, and the full findings beside it", async () => {
    const document = JSON.parse((await review('json')).stdout);
    for (const comment of document.comments)
      expect(Object.keys(comment).sort()).toEqual(['file_path', 'line', 'message', 'severity']);
    expect(document.comments).toHaveLength(4);
    expect(document.findings[0]).toMatchObject({
      rule_id: 'no-debugger',
      start_column: 2,
      fingerprint: expect.any(String),
    });
    expect(document.summary).toMatchObject({ error: 1, warning: 2, info: 1, files: 2, added_lines: 4 });
  });

  it('github: one workflow command per finding, properties and message escaped as the runner reads them', async () => {
    const lines = (await review('github')).stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines).toContain(
      '::warning file=src/a%2Cb%3Ac%25d.js,line=1,col=2,endColumn=10,title=no-debugger::Remove the debugger statement before merging; it stops the program wherever a debugger is attached.',
    );
    expect(lines[0]).toMatch(/^::error file=src\/app\.js,line=2,col=/); // errors first
    expect(
      lines.filter((l) => l.startsWith('::notice file=src/app.js,line=3,col=4,endColumn=8,title=todo-without-issue::')),
    ).toHaveLength(1);
  });

  it('github: a message with %, CR and LF is escaped as the runner reads it back (actions/toolkit)', () => {
    const finding = {
      rule_id: 'r',
      severity: 'error' as const,
      file_path: 'a.js',
      line: 1,
      message: 'r: 100% sure\r\nsecond line: a, b',
      fingerprint: 'f',
    };
    const report: ReviewReport = {
      findings: [finding],
      suppressed: [],
      fold: 5,
      hiddenByBaseline: 0,
      ignoredByConfig: 0,
      ignoredFiles: 0,
      truncated: false,
      notReviewed: [{ file_path: 'b%\n.bin', reason: 'a binary file' }],
      rules: [],
      stats: { files: 1, addedLines: 1 },
      durationMs: 1,
      toolVersion: '0',
      addedLineText: () => undefined,
    };
    expect(formatGithub(report)).toBe(
      '::error file=a.js,line=1,title=r::100%25 sure%0D%0Asecond line: a, b\n' +
        '::notice file=b%25%0A.bin,title=diff-review::Not reviewed: a binary file.\n',
    );
  });

  it('rdjsonl: reviewdog Diagnostics, columns in UTF-8 bytes', async () => {
    const diagnostics = (await review('rdjsonl')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(diagnostics).toHaveLength(4);
    const debuggerInApp = diagnostics.find((d) => d.location.path === 'src/app.js' && d.code.value === 'no-debugger');
    // "const café = 1; " is 16 UTF-16 units but 17 bytes: the statement starts at byte column 18.
    expect(debuggerInApp).toEqual({
      message: expect.stringMatching(/^Remove the debugger/),
      location: { path: 'src/app.js', range: { start: { line: 1, column: 18 }, end: { line: 1, column: 26 } } },
      severity: 'WARNING',
      source: { name: 'diff-review' },
      code: { value: 'no-debugger' },
    });
  });

  it('gitlab: a Code Quality report with a unique fingerprint per finding', async () => {
    const issues = JSON.parse((await review('gitlab')).stdout);
    expect(issues).toHaveLength(4);
    expect(new Set(issues.map((i: { fingerprint: string }) => i.fingerprint)).size).toBe(4);
    expect(issues.find((i: { check_name: string }) => i.check_name === 'secret')).toMatchObject({
      severity: 'major',
      location: { path: 'src/app.js', lines: { begin: 2 } },
    });
    for (const issue of issues)
      expect(Object.keys(issue).sort()).toEqual([
        'check_name',
        'description',
        'fingerprint',
        'location',
        'severity',
        'type',
      ]);
  });

  it('checkstyle and junit: well-formed XML with one entry per finding', async () => {
    const checkstyle = (await review('checkstyle')).stdout;
    expect(xpath(checkstyle, 'count(/checkstyle/file/error)')).toBe('4');
    expect(xpath(checkstyle, 'string(/checkstyle/file[2]/@name)')).toBe('src/app.js');
    expect(xpath(checkstyle, 'string(//error[@source="diff-review.todo-without-issue"]/@line)')).toBe('3');
    const junit = (await review('junit')).stdout;
    expect(xpath(junit, 'string(/testsuites/@failures)')).toBe('4');
    expect(xpath(junit, 'count(//testcase/failure[@type="error"])')).toBe('1');
  });
});

describe('diff-review review: a diff that tries to drive the terminal', () => {
  it('prints control characters of the diff as U+FFFD, never raw', async () => {
    const r = makeRepo();
    try {
      r.write('evil.js', 'debugger; // \x1b]0;pwned\x07\x1b[2J\n');
      r.commit('evil');
      const { stdout } = await runCli(['review'], { cwd: r.dir });
      expect(stdout).toContain('debugger; // \ufffd]0;pwned\ufffd\ufffd[2J');
      expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    } finally {
      r.cleanup();
    }
  });
});
