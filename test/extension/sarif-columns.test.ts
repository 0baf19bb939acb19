import { describe, expect, it } from 'vitest';
import { planDiagnostics } from '../../extension/src/comment-mapping.ts';
import { columnsFromSarif } from '../../extension/src/sarif-columns.ts';

const result = (
  uri: string,
  startLine: number,
  startColumn: number | undefined,
  endColumn: number | undefined,
  text: string,
) => ({
  ruleId: 'no-debugger',
  message: { text },
  locations: [
    {
      physicalLocation: {
        artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
        region: { startLine, startColumn, endColumn },
      },
    },
  ],
});
const sarif = (...results: unknown[]) => ({
  version: '2.1.0',
  runs: [{ tool: { driver: { name: 'diff-review' } }, results }],
});
const comment = {
  file_path: 'src/my app.js',
  line: 4,
  severity: 'warning' as const,
  message: 'no-debugger: Remove it.',
};

describe('columns from the SARIF', () => {
  it('finds a comment by file (percent-encoded in SARIF), line and message', () => {
    const columnsOf = columnsFromSarif(sarif(result('src/my%20app.js', 4, 3, 11, 'no-debugger: Remove it.')));
    expect(columnsOf(comment)).toEqual({ start: 3, end: 11 });
    expect(columnsOf({ ...comment, line: 5 })).toBeUndefined();
    expect(columnsOf({ ...comment, message: 'no-debugger: Other.' })).toBeUndefined();
  });

  it('skips what it cannot read, and never throws', () => {
    for (const odd of [
      undefined,
      null,
      'text',
      {},
      { runs: 'x' },
      { runs: [{ results: [{}] }] },
      sarif(result('a.js', 4, undefined, undefined, 'x')),
      sarif(result('%E0%A4%A', 4, 1, 2, 'x')),
      sarif(result('a.js', 4, 5, 5, 'x')),
    ]) {
      expect(() => columnsFromSarif(odd)({ file_path: 'a.js', line: 4, message: 'x' })).not.toThrow();
      expect(columnsFromSarif(odd)({ file_path: 'a.js', line: 4, message: 'x' })).toBeUndefined();
    }
  });

  it('narrows the diagnostic to the columns when they fit the reviewed line; else the line text', () => {
    const lines = ['a', 'b', 'c', '  debugger;'];
    const plan = (start: number, end: number) =>
      planDiagnostics('/repo', [comment], 'info', () => lines, { columnsOf: () => ({ start, end }) }).files.get(
        '/repo/src/my app.js',
      )?.[0];
    expect(plan(3, 11)).toMatchObject({ startCharacter: 2, endCharacter: 10 });
    expect(plan(3, 13)).toMatchObject({ startCharacter: 2, endCharacter: 11 }); // past the end: the line's text
  });
});
