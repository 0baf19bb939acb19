// Property: for random old/new file pairs, every added line of `git diff --no-index` maps to
// the new file's line of the same text, and every line the new file gained is found.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../service/engine/diff/parse.ts';

const dir = mkdtempSync(join(tmpdir(), 'diff-review-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gitDiffNoIndex(oldText: string, newText: string, name: string, context: number): string {
  writeFileSync(join(dir, `old ${name}`), oldText);
  writeFileSync(join(dir, `new ${name}`), newText);
  try {
    execFileSync('git', ['diff', '--no-index', `-U${context}`, `old ${name}`, `new ${name}`], {
      cwd: dir,
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    const e = error as { status?: number; stdout?: string };
    if (e.status === 1 && typeof e.stdout === 'string') return e.stdout;
    throw error;
  }
}

// Lines that stress a parser: diff markers at the start, header look-alikes, blanks, non-ASCII.
const line = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '-',
    '+',
    '--- a/x',
    '+++ b/x',
    '@@ -1 +1 @@',
    '\\ not a marker',
    'diff --git a/x b/x',
    'é😀',
    'same',
  ),
  fc.string({ maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, '')),
);
const file = fc.record({ lines: fc.array(line, { maxLength: 25 }), finalNewline: fc.boolean() });
const text = (f: { lines: string[]; finalNewline: boolean }) =>
  f.lines.join('\n') + (f.finalNewline && f.lines.length > 0 ? '\n' : '');

describe('parser property', () => {
  it('maps every added line to its line in the new file', () => {
    let run = 0;
    fc.assert(
      fc.property(file, file, fc.integer({ min: 0, max: 3 }), (oldFile, newFile, context) => {
        const newText = text(newFile);
        const diff = gitDiffNoIndex(text(oldFile), newText, `f${run++}.txt`, context);
        if (diff === '') return;
        const parsed = parseUnifiedDiff(diff);
        expect(parsed.files).toHaveLength(1);
        const newLines = newText.split('\n');
        const added = parsed.files[0]!.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== '-'));
        for (const l of added) expect(l.text).toBe(newLines[l.newLine - 1]);
        // An editor that strips the lone space of empty context lines changes nothing.
        const stripped = diff
          .split('\n')
          .map((l) => (l === ' ' ? '' : l))
          .join('\n');
        expect(parseUnifiedDiff(stripped)).toEqual(parsed);
        // The old and the new file, rebuilt from the diff, have as many lines as the counts say.
        for (const h of parsed.files[0]!.hunks) {
          expect(h.lines.filter((l) => l.kind !== '-')).toHaveLength(h.newLines);
          expect(h.lines.filter((l) => l.kind !== '+')).toHaveLength(h.oldLines);
        }
      }),
      { numRuns: 150 },
    );
  });
});
