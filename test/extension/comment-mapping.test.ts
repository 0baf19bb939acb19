import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReviewComment } from '../../service/api/schemas.ts';
import {
  meetsMinimum,
  planDiagnostics,
  resolveInRepository,
  splitTruncation,
  textSpan,
} from '../../extension/src/comment-mapping.ts';

const root = path.resolve('/repo');
const files: Record<string, string[]> = {
  [path.join(root, 'src/app.js')]: ['function main() {', '  const x = 1;', '  debugger;', '  return x;', '}'],
  [path.join(root, 'config.py')]: ['aws_secret_access_key = "…"  '],
};
const linesOf = (file: string) => files[file];
const comment = (
  file_path: string,
  line: number,
  severity: ReviewComment['severity'],
  message: string,
): ReviewComment => ({ file_path, line, severity, message });

describe('comment → diagnostic mapping', () => {
  it('resolves the file against the repository root, makes the line 0-based and the range cover its text', () => {
    const plan = planDiagnostics(
      root,
      [comment('src/app.js', 3, 'warning', 'no-debugger: Remove the debugger statement before merging.')],
      'info',
      linesOf,
    );
    expect([...plan.files.keys()]).toEqual([path.join(root, 'src/app.js')]);
    expect(plan.files.get(path.join(root, 'src/app.js'))).toEqual([
      {
        line: 2,
        startCharacter: 2,
        endCharacter: 11,
        severity: 'warning',
        code: 'no-debugger',
        message: 'Remove the debugger statement before merging.',
        lineText: '  debugger;',
      },
    ]);
    expect(plan.unplaced).toEqual([]);
  });

  it('filters by minimum severity and counts what it hid', () => {
    const comments = [
      comment('src/app.js', 1, 'info', 'todo: x'),
      comment('src/app.js', 2, 'warning', 'w: x'),
      comment('config.py', 1, 'error', 'secret: x'),
    ];
    const plan = planDiagnostics(root, comments, 'warning', linesOf);
    expect([...plan.files.values()].flat().map((d) => d.code)).toEqual(['w', 'secret']);
    expect(plan.belowMinimum).toBe(1);
    expect(meetsMinimum('error', 'error')).toBe(true);
    expect(meetsMinimum('warning', 'error')).toBe(false);
    expect(meetsMinimum('info', 'info')).toBe(true);
  });

  it('reports comments on files that are gone, on lines past the end, and on paths outside the repository', () => {
    const plan = planDiagnostics(
      root,
      [
        comment('src/deleted.js', 1, 'error', 'a: x'),
        comment('src/app.js', 99, 'error', 'b: x'),
        comment('../etc/passwd', 1, 'error', 'c: x'),
        comment('/etc/passwd', 1, 'error', 'd: x'),
      ],
      'info',
      linesOf,
    );
    expect(plan.files.size).toBe(0);
    expect(plan.unplaced.map((u) => [u.comment.message, u.reason])).toEqual([
      ['a: x', 'the file no longer exists'],
      ['b: x', 'the file has only 5 lines now'],
      ['c: x', 'its path is outside the repository'],
      ['d: x', 'its path is outside the repository'],
    ]);
  });

  it('orders each file by line, and spans blank or trailing-space lines sensibly', () => {
    const plan = planDiagnostics(
      root,
      [comment('src/app.js', 4, 'info', 'a: x'), comment('src/app.js', 1, 'info', 'b: x')],
      'info',
      linesOf,
    );
    expect(plan.files.get(path.join(root, 'src/app.js'))!.map((d) => d.line)).toEqual([0, 3]);
    expect(textSpan('aws = 1  ')).toEqual({ startCharacter: 0, endCharacter: 7 });
    expect(textSpan('    ')).toEqual({ startCharacter: 0, endCharacter: 4 });
    expect(textSpan('')).toEqual({ startCharacter: 0, endCharacter: 0 });
  });

  it('keeps resolved paths inside the root', () => {
    expect(resolveInRepository(root, 'a/../b.js')).toBe(path.join(root, 'b.js'));
    expect(resolveInRepository(root, 'a/../../b.js')).toBeUndefined();
    expect(resolveInRepository(root, '')).toBeUndefined();
    expect(resolveInRepository(root, 'C:/x.js')).toBeUndefined();
  });
});

describe('the cap notice', () => {
  const finding = { file_path: 'a.js', line: 1, severity: 'warning' as const, message: 'no-debugger: Remove it.' };
  const notice = (text: string) => ({
    file_path: 'b.js',
    line: 9,
    severity: 'info' as const,
    message: `review-truncated: ${text}`,
  });

  it('is taken out of the findings, with its counts', () => {
    expect(
      splitTruncation([
        finding,
        notice('5997 more findings were not reported (the limit is 500); fix the findings above and review again.'),
      ]),
    ).toEqual({
      comments: [finding],
      truncated: { notReported: 5997, limit: 500 },
    });
    expect(splitTruncation([notice('1 more finding was not reported (the limit is 0); fix …')]).truncated).toEqual({
      notReported: 1,
      limit: 0,
    });
  });

  it('leaves everything else alone, a notice it cannot read included', () => {
    expect(splitTruncation([finding])).toEqual({ comments: [finding] });
    const odd = notice('something else');
    expect(splitTruncation([finding, odd])).toEqual({ comments: [finding, odd] });
  });
});
