// The rules the structural stage reads, on whole files and on hunks that show only part of one:
// firing and not-firing cases (syntax-cases.ts), where a finding is placed, and what happens to a
// hunk the stage cannot read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../service/engine/index.ts';
import { modifiedFileDiff, newFileDiff, reviewDiff } from '../review-helpers.ts';
import { SYNTAX_CASES } from './syntax-cases.ts';

async function linesOf(ruleId: string, diff: string): Promise<number[]> {
  const { findings } = await reviewDiff(diff);
  return findings.filter((f) => f.rule_id === ruleId).map((f) => f.line);
}

describe('rules read from the syntax tree', () => {
  for (const [ruleId, cases] of Object.entries(SYNTAX_CASES)) {
    describe(ruleId, () => {
      it('has at least 10 firing and 10 quiet cases in at least 3 languages', () => {
        expect(cases.filter((c) => c.lines.length > 0).length).toBeGreaterThanOrEqual(10);
        expect(cases.filter((c) => c.lines.length === 0).length).toBeGreaterThanOrEqual(10);
        expect(new Set(cases.map((c) => c.path.slice(c.path.lastIndexOf('.')))).size).toBeGreaterThanOrEqual(3);
      });
      it.each(cases.map((c) => [c.path, c.code.split('\n')[0], c] as const))('%s: %s…', async (_path, _first, c) => {
        expect(await linesOf(ruleId, newFileDiff(c.path, c.code.split('\n')))).toEqual(c.lines);
      });
    });
  }
});

describe('placement within what the diff shows', () => {
  const rule = 'no-sql-string-building';
  it('reports on the added line that built the query when the call was already there', async () => {
    const diff = modifiedFileDiff(
      'app/users.py',
      ['def find(cur, name):'],
      ['    q = "SELECT * FROM users WHERE name = \'%s\'" % name', '    cur.execute(q)'],
    );
    expect(await linesOf(rule, diff)).toEqual([3]);
    const contextCall = [
      'diff --git a/app/users.py b/app/users.py',
      '--- a/app/users.py',
      '+++ b/app/users.py',
      '@@ -1,3 +1,3 @@',
      ' def find(cur, name):',
      '-    q = "SELECT * FROM users WHERE name = %s"',
      '+    q = "SELECT * FROM users WHERE name = \'%s\'" % name',
      '     cur.execute(q)',
      '',
    ].join('\n');
    expect(await linesOf(rule, contextCall)).toEqual([2]);
  });

  it('reports nothing on a statement the diff did not touch', async () => {
    const diff = [
      'diff --git a/app/users.py b/app/users.py',
      '--- a/app/users.py',
      '+++ b/app/users.py',
      '@@ -1,3 +1,4 @@',
      ' def find(cur, name):',
      '     q = "SELECT * FROM users WHERE name = \'%s\'" % name',
      '+    log.info("finding a user")',
      '     cur.execute(q)',
      '',
    ].join('\n');
    expect(await linesOf(rule, diff)).toEqual([]);
  });

  it('reads a hunk that starts inside a function, and one cut mid-string', async () => {
    const inside = modifiedFileDiff(
      'pkg/users/find.go',
      ['\tdefer rows.Close()'],
      ['\tq := "DELETE FROM users WHERE id = " + id', '\tdb.Exec(q)'],
    );
    expect(await linesOf(rule, inside)).toEqual([3]);
    const cut = modifiedFileDiff(
      'src/users.ts',
      ['    WHERE id = 1`;'],
      ['  db.query("SELECT * FROM t WHERE a = " + a);'],
    );
    expect(await linesOf(rule, cut)).toEqual([2]);
  });

  it('reads a hunk that starts inside a block comment as a comment (PHP backticks in a doc comment are words)', async () => {
    const diff = modifiedFileDiff(
      'src/Crypt.php',
      [' * Encrypts with `openssl_encrypt` and signs', ' * the result.'],
      [' * Decrypts what `encrypt()` made ($value).', ' */', 'function decrypt($value) { return $value; }'],
    );
    expect((await reviewDiff(diff)).findings.map((f) => f.rule_id)).not.toContain('no-shell-injection');
    const code = modifiedFileDiff('src/Run.php', ['<?php'], ['$out = `ls $dir`;']);
    expect(await linesOf('no-shell-injection', code)).toEqual([2]);
  });

  it('does not read vendored code (vendor/, third_party/, minified bundles)', async () => {
    for (const path of ['vendor/acme/db.php', 'third_party/lib/db.py', 'public/js/app.min.js'])
      expect(
        await linesOf(rule, newFileDiff(path, ['<?php', '$db->query("SELECT * FROM t WHERE a = " . $a);'])),
      ).toEqual([]);
  });

  it('places the finding at the call, columns in the line as the diff has it', async () => {
    const { findings } = await reviewDiff(
      newFileDiff('app/users.py', [
        'class Users:',
        '    def find(self, cur, name):',
        '        cur.execute("SELECT * FROM t WHERE a = " + name)',
      ]),
    );
    const found = findings.find((f) => f.rule_id === rule);
    expect(found).toMatchObject({ line: 3, start_column: 9 });
  });
});

describe('what the stage cannot read', () => {
  it('names a file whose long lines it did not parse, and still reviews its other lines', async () => {
    const minified = `var a=${'x+'.repeat(1500)}1;`;
    const result = await reviewDiff(
      newFileDiff('src/bundle.js', [minified, 'db.query("SELECT * FROM t WHERE a = " + a);']),
    );
    expect(result.findings.map((f) => [f.rule_id, f.line])).toContainEqual(['no-sql-string-building', 2]);
    expect(result.notAnalysed).toEqual([
      { path: 'src/bundle.js', reason: expect.stringContaining('a line longer than 2,000 characters') },
    ]);
  });

  it('completes the review with the other rules when a grammar cannot be loaded, and names the files', () => {
    const diff = [
      newFileDiff('app/users.py', ['q = "SELECT * FROM t WHERE a = " + a', 'cur.execute(q)']),
      newFileDiff('src/app.js', ['debugger;']),
    ].join('');
    const script = `
      import { createEngine } from ${JSON.stringify(new URL('../../../../service/engine/index.ts', import.meta.url).href)};
      const result = await createEngine().review(process.env.DIFF);
      console.log(JSON.stringify({ rules: result.findings.map((f) => f.rule_id), notAnalysed: result.notAnalysed }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DIFF: diff, DIFF_REVIEW_GRAMMARS: mkdtempSync(join(tmpdir(), 'no-grammars-')) },
      encoding: 'utf8',
    });
    const { rules, notAnalysed } = JSON.parse(out);
    expect(rules).toEqual(['no-debugger']);
    expect(notAnalysed).toEqual([
      { path: 'app/users.py', reason: expect.stringContaining('python grammar did not load') },
    ]);
  });
});

describe('what the stage parses', () => {
  it('parses only hunks with a keyword of a rule about syntax, as a word: isFunction( is not Function(', async () => {
    const engine = createEngine();
    const quiet = { parseMs: 0 };
    await engine.review(
      newFileDiff('src/util.js', [
        'export const isFunction = (f) => typeof f === "function";',
        '// update the cache with the call',
      ]),
      { timings: quiet },
    );
    expect(quiet.parseMs).toBe(0);
    const parsed = { parseMs: 0 };
    await engine.review(newFileDiff('src/util.js', ['export const f = new Function(body);']), { timings: parsed });
    expect(parsed.parseMs).toBeGreaterThan(0);
  });
});
