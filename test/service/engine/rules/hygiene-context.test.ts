// Hygiene rules that read the diff's context: suppressions the diff only moved or kept,
// reasons on the line above, console.log in examples and logger modules, innerHTML literals.
import { describe, expect, it } from 'vitest';
import { findings, modifiedFileDiff, newFileDiff, reviewDiff } from '../review-helpers.ts';

const idsOn = async (diff: string): Promise<string[]> =>
  (await reviewDiff(diff)).findings.map((f) => `${f.rule_id}:${f.line}`);

/** A diff that removes `removed` from the top of the file and adds `added` after `context`. */
function moveDiff(path: string, removed: string[], context: string[], added: string[]): string {
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -1,${removed.length + context.length} +1,${context.length + added.length} @@`,
    ...removed.map((l) => `-${l}`),
    ...context.map((l) => ` ${l}`),
    ...added.map((l) => `+${l}`),
    '',
  ].join('\n');
}

describe('suppressions the diff only moved or kept', () => {
  it.each([
    ['pkg/a.py', 'import os  # noqa', 'no-blanket-noqa'],
    ['pkg/a.py', 'x = f()  # type: ignore', 'no-blanket-type-ignore'],
    ['src/a.ts', '// @ts-ignore', 'no-ts-ignore'],
    ['src/a.ts', '/* eslint-disable */', 'no-blanket-eslint-disable'],
    ['src/a.test.ts', "it.skip('later', () => {});", 'no-unexplained-skip'],
  ])('%s: a moved "%s" is not reported, a new one is', async (path, line, rule) => {
    expect(await idsOn(moveDiff(path, [line], ['const keep = 1;'], [line]))).not.toContain(`${rule}:2`);
    expect(await idsOn(moveDiff(path, ['const old = 0;'], ['const keep = 1;'], [line]))).toContain(`${rule}:2`);
  });
});

describe('reasons and advice', () => {
  it('takes a comment on the line above a skip as its reason', async () => {
    expect(
      (await findings('src/a.test.ts', ['// flaky on CI until #42 is fixed', "it.skip('later', () => {});"])).map(
        (f) => f.rule_id,
      ),
    ).toEqual([]);
    expect(
      (await findings('src/a.test.ts', ['const x = 1;', "it.skip('later', () => {});"])).map((f) => f.rule_id),
    ).toEqual(['no-unexplained-skip']);
  });

  it("gives pyright's own advice for a bare pyright: ignore", async () => {
    const [finding] = await findings('pkg/a.py', ['x = f()  # pyright: ignore']);
    expect(finding?.message).toContain('# pyright: ignore[');
  });
});

describe('no-console-log in examples', () => {
  it('is not reported in a JSDoc @example whose opener lies above the hunk', async () => {
    const context = [
      '\t/**',
      '\tDownload progress event handler.',
      '\t@example',
      '\t```',
      "\timport ky from 'ky';",
      '\tconst response = await ky(url, {',
      '\t\tonDownloadProgress: (progress) => {',
    ];
    const diff = modifiedFileDiff('source/types/options.ts', context, [
      '\t\t\tconsole.log(`${progress.percent * 100}%`);',
    ]);
    expect(await idsOn(diff)).toEqual([]);
    // The same hunk without its first lines: the closer below says the line is in a comment.
    const partial = modifiedFileDiff(
      'source/types/options.ts',
      ['\t\tonDownloadProgress: (progress) => {'],
      ['\t\t\tconsole.log(progress);', '\t\t}', '\t});', '\t```', '\t*/'],
    );
    expect(await idsOn(partial)).toEqual([]);
  });

  it('is not reported in a fenced block inside a string, in playground/ or in a logger module', async () => {
    expect(await findings('src/docs.ts', ['const usage = `', '```js', 'console.log(result);', '```', '`;'])).toEqual(
      [],
    );
    expect(await findings('playground/app.ts', ['console.log(result);'])).toEqual([]);
    expect(await findings('src/logger.ts', ['console.log(line);'])).toEqual([]);
    expect(await findings('src/util.ts', ['export const log = (...args: unknown[]) => console.log(...args);'])).toEqual(
      [],
    );
  });

  it('is still reported in ordinary code', async () => {
    expect(
      (
        await findings('src/server/routes.ts', [
          '/** Routes. */',
          'export function route() {',
          '  console.log(user);',
          '}',
        ])
      ).map((f) => `${f.rule_id}:${f.line}`),
    ).toEqual(['no-console-log:3']);
  });
});

describe("no-console-log in a logger's own definition", () => {
  const consoleLines = async (lines: string[]) =>
    (await findings('src/app.ts', lines)).filter((f) => f.rule_id === 'no-console-log').map((f) => f.line);

  it('is not reported in a Logger class, a logger object or a log function in an ordinary file', async () => {
    expect(
      await consoleLines(['class Logger {', '  info(msg: string) {', '    console.log(msg);', '  }', '}']),
    ).toEqual([]);
    expect(await consoleLines(['const logger = {', '  info: (msg: string) => console.log(msg),', '};'])).toEqual([]);
    expect(
      await consoleLines(['export function debugLog(msg: string) {', '  console.log(`[debug] ${msg}`);', '}']),
    ).toEqual([]);
  });

  it('is still reported in a function or object that is no logger', async () => {
    expect(await consoleLines(['export function login(user: User) {', '  console.log(user);', '}'])).toEqual([2]);
    expect(await consoleLines(['const dialog = {', '  open: () => console.log("open"),', '};'])).toEqual([2]);
    expect(await consoleLines(['class Catalog {', '  load() {', '    console.log(this.items);', '  }', '}'])).toEqual([
      3,
    ]);
  });
});

describe('no-inner-html', () => {
  it('does not report a string literal, reports a value', async () => {
    expect(await findings('src/a.js', ["el.innerHTML = '';", 'el.innerHTML = "<br>"; // spacer'])).toEqual([]);
    expect((await findings('src/a.js', ['el.innerHTML = `<b>${name}</b>`;'])).map((f) => f.rule_id)).toEqual([
      'no-inner-html',
    ]);
  });
});

describe('pytest skips whose reason is on a later line', () => {
  it('reads the decorator over its lines', async () => {
    const lines = [
      '@pytest.mark.skipif(',
      '    sys.version_info < (3, 8),',
      '    reason="needs 3.8",',
      ')',
      'def test_a():',
      '    pass',
    ];
    const { findings } = await reviewDiff(newFileDiff('tests/test_a.py', lines));
    expect(findings.map((f) => f.rule_id)).not.toContain('no-unexplained-skip');
    const bare = await reviewDiff(
      newFileDiff('tests/test_a.py', ['@pytest.mark.skipif(', '    sys.version_info < (3, 8),', ')']),
    );
    expect(bare.findings.map((f) => f.rule_id)).toContain('no-unexplained-skip');
  });
});

describe('a suppression the edited line already had', () => {
  it('is not the change: a line rewritten with its bare type: ignore kept is quiet, one that gains it is reported', async () => {
    const edited = [
      'diff --git a/src/app.py b/src/app.py',
      '--- a/src/app.py',
      '+++ b/src/app.py',
      '@@ -1,3 +1,3 @@',
      ' class App:',
      '-    name: t.Optional[str] = None  # type: ignore',
      '-    port: int = 0',
      '+    name: str | None = None  # type: ignore',
      '+    port: int = 0  # type: ignore',
      '',
    ].join('\n');
    expect(await idsOn(edited)).toEqual(['no-blanket-type-ignore:3']);
  });
});
