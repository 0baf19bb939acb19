// A file the engine cannot review (a binary file: the diff does not carry its content) is named as
// such in every format, never skipped silently; one in a path the project config ignores is not.
// The built CLI on a real repository.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, makeRepo, runCli, type TestRepo } from './review-cli.ts';
import { sarifSchemaErrors } from './sarif-schema.ts';

let repo: TestRepo;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const MESSAGE = 'Not reviewed: a binary file (the diff does not carry its content).';

beforeAll(() => {
  buildCli();
  repo = makeRepo({ 'README.md': '# app\n', '.diff-review.yml': 'ignore:\n  - vendor/\n' });
  repo.write('assets/logo.png', PNG as unknown as string);
  repo.write('vendor/blob.bin', PNG as unknown as string);
  repo.write('src/app.js', 'debugger;\n');
  repo.commit('work');
}, 60_000);
afterAll(() => repo.cleanup());

const review = (format: string) => runCli(['review', '--format', format, '--fail-on', 'none'], { cwd: repo.dir });
const xmllint = (xml: string) => execFileSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });

describe('a binary file of the diff', () => {
  it('text: listed as not reviewed, and counted in the summary', async () => {
    const { stdout, code } = await review('text');
    expect(code).toBe(0);
    expect(stdout).toContain('not reviewed  assets/logo.png  a binary file (the diff does not carry its content)');
    expect(stdout).toMatch(/, 1 file not reviewed, \d+ ms\)\.\n$/);
    expect(stdout).not.toContain('vendor/blob.bin');
  });

  it('json: not_reviewed beside the comments', async () => {
    const json = JSON.parse((await review('json')).stdout);
    expect(json.not_reviewed).toEqual([
      { file_path: 'assets/logo.png', reason: 'a binary file (the diff does not carry its content)' },
    ]);
    expect(json.comments).toHaveLength(1);
  });

  it('sarif: a notification of the run, valid against the SARIF 2.1.0 schema', async () => {
    const sarif = JSON.parse((await review('sarif')).stdout);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].invocations[0]).toEqual({
      executionSuccessful: true,
      toolExecutionNotifications: [
        {
          level: 'note',
          message: { text: MESSAGE },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'assets/logo.png', uriBaseId: '%SRCROOT%' } } }],
        },
      ],
    });
  });

  it('github: a notice on the file', async () => {
    const { stdout } = await review('github');
    expect(stdout).toContain(`::notice file=assets/logo.png,title=diff-review::${MESSAGE}\n`);
  });

  it('rdjsonl: an INFO diagnostic on the file', async () => {
    const lines = (await review('rdjsonl')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual({
      message: MESSAGE,
      location: { path: 'assets/logo.png' },
      severity: 'INFO',
      source: { name: 'diff-review' },
      code: { value: 'not-reviewed' },
    });
  });

  it('gitlab: an info issue with a fingerprint of its own', async () => {
    const issues = JSON.parse((await review('gitlab')).stdout) as { check_name: string; fingerprint: string }[];
    const notReviewed = issues.find((i) => i.check_name === 'diff-review-not-reviewed');
    expect(notReviewed).toMatchObject({
      description: MESSAGE,
      severity: 'info',
      location: { path: 'assets/logo.png' },
    });
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
  });

  it('checkstyle and junit: an info error and a skipped test case, in well-formed XML', async () => {
    const checkstyle = (await review('checkstyle')).stdout;
    xmllint(checkstyle);
    expect(checkstyle).toContain(
      `<file name="assets/logo.png">\n    <error line="1" severity="info" message="${MESSAGE}" source="diff-review.not-reviewed"/>`,
    );
    const junit = (await review('junit')).stdout;
    xmllint(junit);
    expect(junit).toMatch(/<testsuite name="diff-review" tests="2" failures="1" errors="0" skipped="1"/);
    expect(junit).toContain(`<skipped message="${MESSAGE}"/>`);
  });

  it('from a plain `diff` too ("Binary files … differ"), with --diff -', async () => {
    const diff = 'Binary files a/img/a.gif and b/img/a.gif differ\n';
    const run = await runCli(['review', '--diff', '-', '--format', 'json'], { cwd: repo.dir, input: diff });
    expect(JSON.parse(run.stdout).not_reviewed).toEqual([expect.objectContaining({ file_path: 'img/a.gif' })]);
  });
});

describe('a line longer than the rules read (64 KiB)', () => {
  it('the file is named as partly reviewed, in every format, with the line', async () => {
    const r = makeRepo();
    r.write('src/long.js', `var a = 1;${' '.repeat(70_000)}debugger;\nvar b = 2;\n`);
    r.commit('a long line');
    const reason =
      'line 1 is longer than 64 KiB: the rules read the first 64 KiB of a line (secrets are searched in all of it)';
    try {
      const run = (format: string) => runCli(['review', '--format', format, '--fail-on', 'none'], { cwd: r.dir });
      const json = JSON.parse((await run('json')).stdout);
      expect(json.not_reviewed).toEqual([{ file_path: 'src/long.js', partly: true, reason }]);
      expect(json.comments).toEqual([]); // the debugger statement is past what the line rules read
      const text = (await run('text')).stdout;
      expect(text).toContain(`partly reviewed  src/long.js  ${reason}`);
      expect(text).toMatch(/, 1 file partly reviewed, \d+ ms\)\.\n$/);
      expect((await run('github')).stdout).toBe(
        `::notice file=src/long.js,title=diff-review::Partly reviewed: ${reason}.\n`,
      );
      const sarif = JSON.parse((await run('sarif')).stdout);
      expect(sarifSchemaErrors(sarif)).toEqual([]);
      expect(sarif.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toBe(
        `Partly reviewed: ${reason}.`,
      );
      for (const format of ['rdjsonl', 'gitlab', 'checkstyle', 'junit'])
        expect({ format, named: (await run(format)).stdout.includes(`Partly reviewed: ${reason}.`) }).toEqual({
          format,
          named: true,
        });
    } finally {
      r.cleanup();
    }
  });

  it('names the first five long lines and counts the rest (a minified file has thousands)', async () => {
    const r = makeRepo();
    r.write('dist/app.min.js', Array.from({ length: 8 }, (_, i) => `var v${i} = "${'x'.repeat(66_000)}";`).join('\n'));
    r.commit('minified');
    try {
      const run = await runCli(['review', '--format', 'json', '--fail-on', 'none'], { cwd: r.dir });
      expect(JSON.parse(run.stdout).not_reviewed).toEqual([
        expect.objectContaining({
          file_path: 'dist/app.min.js',
          reason: expect.stringMatching(/^lines 1, 2, 3, 4, 5 and 3 more are longer than 64 KiB/),
        }),
      ]);
    } finally {
      r.cleanup();
    }
  });
});
