// The flagged lines' code and what comments suppressed, as the desktop app reads them out of a review's SARIF (desktop/main/sarif-snippets.ts).
import { describe, expect, it } from 'vitest';
import { snippetsFromSarif, suppressedFromSarif } from '../../desktop/main/sarif-snippets.ts';

const result = (uri: unknown, startLine: unknown, snippet?: unknown) => ({
  locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine, snippet } } }],
});

describe('snippetsFromSarif', () => {
  it('keys each snippet by its file (percent-decoded) and line', () => {
    const sarif = {
      runs: [
        {
          results: [
            result('src/%C3%BC%20app.js', 3, { text: '  debugger;' }),
            result('config.py', 2), // a secret's line: no snippet
          ],
        },
      ],
    };
    expect([...snippetsFromSarif(sarif)]).toEqual([['src/ü app.js:3', '  debugger;']]);
  });

  it('skips what is not as expected, never throws', () => {
    for (const sarif of [undefined, null, 'x', {}, { runs: 'x' }, { runs: [{ results: [{}] }] }])
      expect(snippetsFromSarif(sarif).size).toBe(0);
    expect(snippetsFromSarif({ runs: [{ results: [result('%E0%A4%A', 1, { text: 'x' })] }] }).size).toBe(0);
    expect(snippetsFromSarif({ runs: [{ results: [result('a.js', '1', { text: 'x' })] }] }).size).toBe(0);
  });
});

describe('what comments suppressed, from the SARIF log', () => {
  it('reads each suppressed result with its marker and reason; a reason the comment did not give is null', () => {
    const result = (line: number, suppressions?: object[]) => ({
      ruleId: 'no-debugger',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src/a%20b.js' }, region: { startLine: line } } }],
      ...(suppressions ? { suppressions } : {}),
    });
    const log = {
      runs: [
        {
          results: [
            result(1),
            result(2, [
              {
                kind: 'inSource',
                justification: 'kept for the demo',
                properties: { suppressedBy: 'diff-review-ignore' },
              },
            ]),
            result(3, [
              { kind: 'inSource', justification: 'nosemgrep on the line', properties: { suppressedBy: 'nosemgrep' } },
            ]),
            { ruleId: 7, suppressions: [{}] },
          ],
        },
      ],
    };
    expect(suppressedFromSarif(log)).toEqual([
      {
        rule_id: 'no-debugger',
        file_path: 'src/a b.js',
        line: 2,
        by: 'diff-review-ignore',
        reason: 'kept for the demo',
      },
      { rule_id: 'no-debugger', file_path: 'src/a b.js', line: 3, by: 'nosemgrep', reason: null },
    ]);
    expect(suppressedFromSarif(undefined)).toEqual([]);
  });
});
