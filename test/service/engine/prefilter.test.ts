// The keyword pre-filter (KeywordSieve + per-rule keywords + secret line tests) is only an
// optimization: the findings must be exactly those of every rule reading every added line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../service/engine/engine.ts';
import { KeywordSieve } from '../../../service/engine/keyword-sieve.ts';
import { ALL_RULES } from '../../../service/engine/rules/index.ts';
import { newFileDiff } from './review-helpers.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;

function sourcesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourcesUnder(path, out);
    else if (/\.(ts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const allKeywords = [...new Set(ALL_RULES.flatMap((rule) => (rule.kind === 'file' ? [] : rule.keywords)))];

const engine = createEngine({ maxFindings: 100_000 });
const reference = createEngine({ maxFindings: 100_000 }, { prefilter: false });

async function bothWays(diff: string): Promise<void> {
  const fast = await engine.review(diff);
  const expected = await reference.review(diff);
  expect(fast).toEqual(expected);
}

describe('keyword pre-filter', () => {
  it('finds what every rule reading every line finds, on this repository and on fastify', async () => {
    const files = [
      ...sourcesUnder(join(ROOT, 'service')),
      ...sourcesUnder(join(ROOT, 'test')),
      ...sourcesUnder(join(ROOT, 'node_modules/fastify/lib')),
    ];
    const diff = files
      .map((file) => newFileDiff(relative(ROOT, file), readFileSync(file, 'utf8').split('\n')))
      .join('');
    expect(diff.length).toBeGreaterThan(300_000);
    await bothWays(diff);
  }, 60_000);

  it('finds what every rule finds on random lines made of keywords, code and non-Latin-1 text', async () => {
    const piece = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...allKeywords) },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          ' ',
          '(',
          ')',
          '"',
          "'",
          '`',
          '//',
          '#',
          '/*',
          '*/',
          '=',
          ':',
          '\t',
          '.',
          '_',
          '-',
          'x',
          'A',
          '1',
          'é',
          '€',
          '中',
          '\r',
          '@',
          '!',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((s) => s.replace(/[\n]/g, ' ')) },
    );
    const line = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    const file = fc.record({
      path: fc.constantFrom(
        'src/a.js',
        'src/a.ts',
        'lib/a.py',
        'app/a.rb',
        'src/main.rs',
        'README.md',
        'config/.env.local',
        'src/a.test.ts',
      ),
      lines: fc.array(line, { minLength: 1, maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 3 }), async (files) => {
        await bothWays(files.map((f, i) => newFileDiff(`${i}/${f.path}`, f.lines)).join(''));
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('KeywordSieve', () => {
  it('finds every occurrence of every keyword, at every offset and alignment', () => {
    const keywords = ['://', 'fit', 'TODO', 'eval(', 'console.log', 'ghp_', 'PRIVATE KEY'];
    const sieve = new KeywordSieve(keywords);
    for (const keyword of keywords) {
      for (let before = 0; before < 9; before++) {
        for (let after = 0; after < 5; after++) {
          const text = `${'é'.repeat(before % 2)}${'x'.repeat(before)}${keyword}${'y'.repeat(after)}\n${keyword}`;
          const found = sieve.scan(text);
          const offsets = [];
          for (let i = 0; i < found.length; i += 2)
            if (sieve.keywords[found[i + 1]!] === keyword) offsets.push(found[i]!);
          expect(offsets.sort((a, b) => a - b)).toEqual([text.indexOf(keyword), text.lastIndexOf(keyword)]);
        }
      }
    }
  });

  it('finds keywords right beside non-ASCII characters, on both sides, at both alignments', () => {
    // Short keywords' blocks reach past them; the table holds only ASCII neighbours (keyword-sieve.ts).
    const keywords = ['://', 'fit', 'TODO', 'eval(', 'ghp_', 'AKIA', '0Q~', '"SK', 'PRIVATE KEY'];
    const sieve = new KeywordSieve(keywords);
    for (const keyword of keywords)
      for (const beside of ['é', '\u00a0', '€', '中', '😀'])
        for (let pad = 0; pad < 2; pad++) {
          const text = `${'x'.repeat(pad)}${beside}${keyword}${beside}y ${keyword}${beside}`;
          const found = sieve.scan(text);
          const offsets = [];
          for (let i = 0; i < found.length; i += 2)
            if (sieve.keywords[found[i + 1]!] === keyword) offsets.push(found[i]!);
          const expected = [text.indexOf(keyword), text.lastIndexOf(keyword)];
          expect({ keyword, beside, pad, offsets: offsets.sort((a, b) => a - b) }).toEqual({
            keyword,
            beside,
            pad,
            offsets: expected,
          });
        }
  });

  it('finds every occurrence across the 16 KB chunks of a long scan, one that preloads its tables', () => {
    // scan() reads 4,096 words (16 KB) a chunk and preloads its tables from 256 KB on (keyword-sieve.ts).
    const keywords = ['://', 'fit', 'TODO', 'console.log', 'PRIVATE KEY'];
    const sieve = new KeywordSieve(keywords);
    const pieces: string[] = [];
    let length = 0;
    // One keyword at each chunk's edge: ending just before it, straddling it, or starting on it,
    // at both alignments; between them, text with a character above U+00FF.
    const placements = keywords.flatMap((keyword) =>
      [-keyword.length - 1, -keyword.length, -2, -1, 0, 1].map((shift) => ({ keyword, shift })),
    );
    placements.forEach(({ keyword, shift }, i) => {
      const at = (i + 1) * 16_384 + shift;
      pieces.push('€ x='.repeat(Math.floor((at - length) / 4)), 'x'.repeat((at - length) % 4), keyword);
      length = at + keyword.length;
    });
    const text = pieces.join('');
    expect(text.length).toBeGreaterThan(1 << 18);
    const expected: [number, string][] = [];
    for (const keyword of keywords)
      for (let at = text.indexOf(keyword); at >= 0; at = text.indexOf(keyword, at + 1)) expected.push([at, keyword]);
    const found = sieve.scan(text);
    const actual: [number, string][] = [];
    for (let i = 0; i < found.length; i += 2) actual.push([found[i]!, sieve.keywords[found[i + 1]!]!]);
    const order = (a: [number, string], b: [number, string]) => a[0] - b[0] || a[1].localeCompare(b[1]);
    expect(actual.sort(order)).toEqual(expected.sort(order));
    expect(expected.length).toBe(placements.length);
  });

  it('reads only the range it is given', () => {
    const sieve = new KeywordSieve(['debugger']);
    const text = 'debugger; x; debugger;';
    expect(sieve.scan(text, 1, text.length)).toEqual([13, 0]);
    expect(sieve.scan(text, 0, 12)).toEqual([0, 0]);
  });

  it('refuses keywords it cannot find exactly', () => {
    expect(() => new KeywordSieve(['ab'])).toThrow(/three characters/);
    expect(() => new KeywordSieve(['naïve€'])).toThrow(/ASCII/);
  });
});
