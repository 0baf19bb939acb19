// The flagged lines' code the desktop app reads out of a review's SARIF (desktop/main/sarif-snippets.ts).
import { describe, expect, it } from 'vitest';
import { snippetsFromSarif } from '../../desktop/main/sarif-snippets.ts';

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
