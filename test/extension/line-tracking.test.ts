import { describe, expect, it } from 'vitest';
import { lineAfterChange, lineAfterChanges, reanchor, type TextChange } from '../../extension/src/line-tracking.ts';

const insert = (line: number, character: number, text: string): TextChange => ({
  startLine: line,
  startCharacter: character,
  endLine: line,
  endCharacter: character,
  text,
});
const replace = (
  startLine: number,
  startCharacter: number,
  endLine: number,
  endCharacter: number,
  text: string,
): TextChange => ({ startLine, startCharacter, endLine, endCharacter, text });

// The tracked line: 0-based line 5, `  debugger;` (11 characters).
const LINE = 5;
const LENGTH = 11;
const fate = (change: TextChange) => lineAfterChange(LINE, LENGTH, change);

describe('line tracking', () => {
  it('moves with lines inserted or deleted above', () => {
    expect(fate(insert(0, 0, '// one\n// two\n'))).toEqual({ kind: 'moved', line: 7 });
    expect(fate(replace(1, 0, 3, 0, ''))).toEqual({ kind: 'moved', line: 3 }); // two whole lines deleted
    expect(fate(replace(2, 3, 2, 3, 'x'))).toEqual({ kind: 'moved', line: 5 }); // typing above, no new line
    expect(fate(replace(2, 3, 4, 1, 'a\nb'))).toEqual({ kind: 'moved', line: 4 }); // a multi-line edit above
  });

  it('moves when whole lines are inserted or deleted right before it', () => {
    expect(fate(insert(5, 0, 'const y = 2;\n'))).toEqual({ kind: 'moved', line: 6 });
    expect(fate(replace(4, 0, 5, 0, ''))).toEqual({ kind: 'moved', line: 4 });
    expect(fate(replace(3, 7, 5, 0, '\n'))).toEqual({ kind: 'moved', line: 4 });
  });

  it('stays when lines are changed below, or a new line is opened at its end', () => {
    expect(fate(insert(9, 0, 'x\n'))).toEqual({ kind: 'moved', line: 5 });
    expect(fate(insert(5, LENGTH, '\n  next();'))).toEqual({ kind: 'moved', line: 5 });
    expect(fate(replace(5, LENGTH, 7, 2, '\r\n'))).toEqual({ kind: 'moved', line: 5 });
    expect(fate(insert(5, 3, ''))).toEqual({ kind: 'moved', line: 5 });
  });

  it('is edited when its own text changes, or it is joined with the line above', () => {
    expect(fate(insert(5, 2, '// '))).toEqual({ kind: 'edited', line: 5 });
    expect(fate(replace(5, 2, 5, 10, 'console.log(1)'))).toEqual({ kind: 'edited', line: 5 });
    expect(fate(insert(5, 0, 'x'))).toEqual({ kind: 'edited', line: 5 });
    expect(fate(replace(4, 9, 5, 0, ''))).toEqual({ kind: 'edited', line: 4 }); // line break above deleted
    expect(fate(replace(3, 0, 6, 0, ''))).toEqual({ kind: 'edited', line: 3 }); // deleted with its neighbours
    expect(fate(insert(5, LENGTH, ' // ok'))).toEqual({ kind: 'edited', line: 5 });
  });

  it('follows several changes in order, and an edited line stays edited', () => {
    expect(lineAfterChanges(LINE, LENGTH, [insert(0, 0, 'a\n'), insert(0, 0, 'b\n'), replace(1, 0, 2, 0, '')])).toEqual(
      { kind: 'moved', line: 6 },
    );
    expect(lineAfterChanges(LINE, LENGTH, [insert(5, 3, 'x'), insert(0, 0, 'a\n')])).toEqual({
      kind: 'edited',
      line: 6,
    });
  });

  it('re-anchors on the nearest line with the same text', () => {
    const lines = ['a', 'debugger;', 'b', 'c', 'debugger;', 'd'];
    expect(reanchor(lines, 'debugger;', 4)).toBe(4);
    expect(reanchor(lines, 'debugger;', 3)).toBe(4);
    expect(reanchor(lines, 'debugger;', 2)).toBe(1);
    expect(reanchor(lines, 'gone', 2)).toBeUndefined();
    expect(reanchor(lines, 'debugger;', 40, 10)).toBeUndefined();
  });
});
