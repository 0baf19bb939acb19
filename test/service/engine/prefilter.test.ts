// The keyword pre-filter (KeywordMatcher + per-rule keywords + secret line tests) is only an
// optimization: the findings must be exactly those of every rule reading every added line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../service/engine/engine.ts';
import { KeywordMatcher } from '../../../service/engine/keyword-matcher.ts';
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

/** Every (offset, keyword) of `keywords` in `text[from .. to)`, by indexOf: what a scan must return. */
function everyOccurrence(keywords: readonly string[], text: string, from = 0, to = text.length): [number, string][] {
  const out: [number, string][] = [];
  for (const keyword of new Set(keywords))
    for (let at = text.indexOf(keyword, from); at >= 0 && at + keyword.length <= to; at = text.indexOf(keyword, at + 1))
      out.push([at, keyword]);
  return out.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
}

/** A scan's pairs as (offset, keyword), in the order they came. */
function scanned(matcher: KeywordMatcher, text: string, from?: number, to?: number): [number, string][] {
  const found = matcher.scan(text, from, to);
  const out: [number, string][] = [];
  for (let i = 0; i < found.length; i += 2) out.push([found[i]!, matcher.keywords[found[i + 1]!]!]);
  return out;
}

const sorted = (pairs: [number, string][]) => [...pairs].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));

describe('KeywordMatcher', () => {
  it('finds overlapping keywords: one inside another, several starting at one place, one ending where another starts', () => {
    const keywords = ['xoxb-', 'xoxe.', 'sk_', 'sk_live_', 'sk_live_x', 'aba', 'key', 'api_key'];
    const matcher = new KeywordMatcher(keywords);
    const text = 'xoxe.xoxb-1 sk_live_xy ababa api_key';
    expect(sorted(scanned(matcher, text))).toEqual(everyOccurrence(keywords, text));
    expect(scanned(matcher, text).filter(([at]) => at === 12)).toHaveLength(3);
  });

  it('reports occurrences in text order', () => {
    const matcher = new KeywordMatcher(['TODO', 'FIXME', 'TODO:']);
    const offsets = scanned(matcher, 'FIXME TODO: x TODO FIXME').map(([at]) => at);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('reads only the range it is given: a keyword at its start and end counts, one across either edge does not', () => {
    const matcher = new KeywordMatcher(['debugger']);
    const text = 'debugger; x; debugger;';
    expect(scanned(matcher, text, 1, text.length)).toEqual([[13, 'debugger']]);
    expect(scanned(matcher, text, 0, 12)).toEqual([[0, 'debugger']]);
    expect(scanned(matcher, text, 13, 21)).toEqual([[13, 'debugger']]);
    expect(scanned(matcher, text, 13, 20)).toEqual([]);
    expect(scanned(matcher, text, 0, 8)).toEqual([[0, 'debugger']]);
    expect(scanned(matcher, text, 5, 5)).toEqual([]);
  });

  it('gives offsets as string indexes after non-ASCII text (two-byte characters, surrogate pairs)', () => {
    const keywords = ['://', 'ghp_', 'TODO', '0Q~'];
    const matcher = new KeywordMatcher(keywords);
    for (const before of ['é', '\u00a0', '€', '中', '😀', 'e\u0301', '\r'])
      for (const keyword of keywords) {
        const text = `${before}${keyword}${before}${before}y ${keyword}${before}`;
        expect({ before, found: scanned(matcher, text) }).toEqual({ before, found: everyOccurrence(keywords, text) });
        expect(scanned(matcher, text, text.indexOf(keyword, 1 + before.length))).toEqual([
          [text.lastIndexOf(keyword), keyword],
        ]);
      }
  });

  it('is case-sensitive, as the rules expect (each spelling they accept is a keyword of its own)', () => {
    const matcher = new KeywordMatcher(['TODO', 'token', 'AKIA']);
    expect(scanned(matcher, 'todo Todo TOKEN Token akia')).toEqual([]);
    expect(scanned(matcher, 'TODO token AKIA')).toEqual([
      [0, 'TODO'],
      [5, 'token'],
      [11, 'AKIA'],
    ]);
  });

  it('takes keywords as literals: regex syntax in them means nothing', () => {
    const keywords = ['eval(', 'SG.', '$(', '[x]', 'a|b', '\\n', '.*', '^', '{{'];
    const matcher = new KeywordMatcher(keywords);
    const text = 'SGx eval( SG. $( [x] x a|b \\n .* ^ {{ ab';
    expect(sorted(scanned(matcher, text))).toEqual(everyOccurrence(keywords, text));
  });

  it('finds nothing without keywords', () => {
    expect(new KeywordMatcher([]).scan('anything at all')).toEqual([]);
  });

  it('finds every occurrence of every keyword in random text, as indexOf does', () => {
    // A small alphabet, so that keywords overlap and share beginnings and ends often.
    const char = fc.constantFrom('a', 'b', '.', '(', 'é', '😀');
    const word = fc.array(char, { minLength: 1, maxLength: 4 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.array(char, { maxLength: 40 }).map((chars) => chars.join('')),
        fc.nat(),
        fc.nat(),
        (keywords, text, a, b) => {
          const from = a % (text.length + 1);
          const to = from + (b % (text.length - from + 1));
          const matcher = new KeywordMatcher(keywords);
          expect(sorted(scanned(matcher, text, from, to))).toEqual(everyOccurrence(keywords, text, from, to));
        },
      ),
      { numRuns: 500 },
    );
  });
});
