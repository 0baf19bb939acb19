// Review time grows with a line's length, not with its square: pathological lines (a keyword,
// a separator or a prefix repeated tens of thousands of times) are reviewed within a CPU budget
// that a quadratic pattern misses by far (before this held, such a line took seconds and a 1 MB one
// ran into the job timeout: test/bench/README.md). CPU time (process.cpuUsage), not wall time: the machine is shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../service/engine/index.ts';
import { ALL_RULES } from '../../../service/engine/rules/index.ts';
import { newFileDiff } from './review-helpers.ts';

/** A little over the length rules read of a line (MAX_LINE_READ), so that both sides of the cap are exercised. */
const LINE_LENGTH = 80_000;
/** CPU per line. A linear review of an 80 KB line takes a few milliseconds; the quadratic ones took seconds. */
const BUDGET_MS = 150;

const keywords = [...new Set(ALL_RULES.flatMap((rule) => (rule.kind === 'file' ? [] : rule.keywords)))];
const separators = [
  ' ',
  ':',
  '/',
  '//',
  '#',
  '-',
  '.',
  '=',
  '@',
  '"',
  "'",
  '`',
  '(',
  ')',
  '[',
  ',',
  '\\',
  '*',
  '*/',
  '/*',
  'a',
  'A',
  '1',
  '_',
  '\t',
  '://',
  'é',
];
const prefixes = [
  '',
  '// TODO ',
  '# TODO ',
  '/* FIXME ',
  ' * ',
  '// ',
  '# ',
  'x = /',
  '"',
  'exec(`',
  '@pytest.mark.skip(',
  'const password = md5("',
  'postgres://a:',
];
const paths = ['src/a.js', 'lib/a.py', 'app/a.rb', 'src/a.test.ts', 'README.md', 'config/.env.local', 'src/main.rs'];

const engine = createEngine();

function cpuMs(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  return run().then(() => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  });
}

function lineOf(prefix: string, unit: string): string {
  return (prefix + unit.repeat(Math.ceil(LINE_LENGTH / unit.length))).slice(0, LINE_LENGTH);
}

/**
 * The least CPU time of up to three reviews of the diff: process.cpuUsage() counts the GC's and the
 * compiler's threads too, and on a loaded machine one review in a few hundred went past the budget.
 * A quadratic pattern takes seconds every time.
 */
async function leastCpuMs(diff: string): Promise<number> {
  let least = Infinity;
  for (let attempt = 0; attempt < 3 && least >= BUDGET_MS; attempt++)
    least = Math.min(least, await cpuMs(() => engine.review(diff)));
  return least;
}

function reviewWithinBudget(path: string, ...lines: string[]): Promise<void> {
  return linesWithinBudget(path, lines);
}

async function linesWithinBudget(path: string, lines: string[]): Promise<void> {
  const diff = newFileDiff(path, lines);
  const ms = await leastCpuMs(diff);
  expect(
    ms,
    `${path}: ${JSON.stringify(lines.map((line) => line.slice(0, 60)))}... took ${ms.toFixed(0)} ms of CPU`,
  ).toBeLessThan(BUDGET_MS);
}

describe('review time is linear in line length', () => {
  it('reviews lines of one keyword or separator repeated within the budget', async () => {
    await engine.review(
      newFileDiff('warm.js', ['debugger; // TODO x', 'const t = "ghp_kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u";']),
    );
    // The known quadratic ones first: issue references after a TODO, whole-line tests per keyword hit.
    for (const [prefix, unit] of [
      ['// TODO ', 'AB-'],
      ['// TODO ', 'a.'],
      ['', '://'],
      ['', 'dapi'],
      ['@pytest.mark.skip(', ', reason='],
    ] as const) {
      for (const path of ['src/a.js', 'lib/a.py']) await reviewWithinBudget(path, lineOf(prefix, unit));
    }
  });

  it('reviews random pathological lines within the budget', async () => {
    const piece = fc.oneof(fc.constantFrom(...keywords), fc.constantFrom(...separators));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom(...prefixes),
        fc.array(piece, { minLength: 1, maxLength: 4 }),
        async (path, prefix, pieces) => reviewWithinBudget(path, lineOf(prefix, pieces.join(''))),
      ),
      { numRuns: 120, endOnFailure: true },
    );
  }, 120_000);
});

describe('review time is linear in the number of lines', () => {
  it('reviews a hunk of 20,000 conflict separators within the budget (each looked 5,000 lines up and down)', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => (i % 5000 === 0 ? '<<<<<<< ours' : '======='));
    expect(await leastCpuMs(newFileDiff('notes.md', [...lines, '>>>>>>> theirs']))).toBeLessThan(2 * BUDGET_MS);
  });
});

describe('review time is linear in the length of the lines a rule reads around its own', () => {
  it('reviews a private-key BEGIN line above a long line of base64 then blanks within the budget', async () => {
    // no-private-key tests the lines below the BEGIN line (up to MAX_LINE_READ each) for key material
    for (const [blank, end] of [
      [' ', '!'],
      ['\t', '+!'],
      [' ', ',x'],
    ] as const) {
      const body = `${'A'.repeat(40)}${blank.repeat(60_000)}${end}`;
      await reviewWithinBudget('config/key.txt', '-----BEGIN RSA PRIVATE KEY-----', body);
    }
  });

  it('reviews a Python f-string of SQL full of opening braces within the budget', async () => {
    // sql-string-building looks for a {placeholder} in the f-string's body
    await reviewWithinBudget('app/db.py', `cursor.execute(f"SELECT ${'{'.repeat(60_000)}")`);
  });
});

describe('the structural stage is linear and bounded', () => {
  /** Lines the stage parses (a row over 2,000 characters is left out of the parse), LINE_LENGTH in all. */
  const rows = (row: string) => Array.from({ length: Math.floor(LINE_LENGTH / Math.max(row.length, 16)) }, () => row);

  it('reviews deeply nested values, long concatenations and long chains of assignments within the budget, without running out of stack', async () => {
    // grammars loaded and compiled once, outside the budget
    for (const path of ['a.py', 'a.js', 'a.go', 'A.java'])
      await engine.review(newFileDiff(path, ['q = "SELECT " + a', 'db.query(q)']));
    const chain = Array.from({ length: 2000 }, (_, i) => `q${i + 1} = q${i} + "SELECT " + x`);
    for (const path of ['src/a.js', 'pkg/a.go', 'src/A.java']) {
      await linesWithinBudget(path, ['q = "SELECT "', ...rows('  + a'), 'db.query(q)']);
      await linesWithinBudget(path, ['db.query(', ...rows('('), '"SELECT " + a', ...rows(')'), ')']);
      await linesWithinBudget(path, [...chain, 'db.query(q2000)']);
    }
    await linesWithinBudget('lib/a.py', ['q = ("SELECT "', ...rows('  + a'), ')', 'cursor.execute(q)']);
    await linesWithinBudget('lib/a.py', [...chain, 'cursor.execute(q2000)']);
    await linesWithinBudget('lib/a.py', ['cursor.execute(', ...rows('f"SELECT {'), 'x', ...rows('}"'), ')']);
    await linesWithinBudget('src/a.ts', ['db.query(', ...rows('`SELECT ${'), 'x', ...rows('}`'), ')']);
  }, 60_000);
});
